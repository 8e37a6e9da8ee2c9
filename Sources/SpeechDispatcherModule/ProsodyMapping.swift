import Glibc

/// speech-dispatcher's -100...100 rate, pitch and volume as spk's controls (rate and pitch
/// multipliers, volume 0...1), mapped the way its espeak-ng module maps them for espeak-ng, so a
/// person switching from that module to spk keeps their speed.
///
/// espeak-ng's module turns rate into words per minute between EspeakMinRate (80, at -100),
/// EspeakNormalRate (170, at 0) and EspeakMaxRate (449, at +100), linearly on each side of 0;
/// spk's rate is that speed over the normal one. Pitch goes to espeak-ng's 0...100 around the
/// voice's baseline 50 the same way; spk's multiplier is 2^((p - 50) / 50), an octave down at
/// 0 and up at 100. Volume: the module gives espeak-ng an amplitude of volume + 100 (0...200,
/// linear); spk's volume is that amplitude over 200, so speech-dispatcher's default volume (100)
/// is spk's full level.
public struct ProsodyMapping: Equatable, Sendable {
    public var minRate = 80.0, normalRate = 170.0, maxRate = 449.0

    public init(minRate: Double = 80, normalRate: Double = 170, maxRate: Double = 449) {
        self.minRate = minRate
        self.normalRate = normalRate
        self.maxRate = maxRate
    }

    public struct Controls: Equatable, Sendable {
        public var rate: Float, pitch: Float, volume: Float
    }

    public func controls(_ s: ModuleSettings) -> Controls {
        Controls(rate: rate(s.rate), pitch: pitch(s.pitch), volume: volume(s.volume))
    }

    /// Words per minute as espeak-ng's module computes them, over the normal rate; clamped to
    /// the plugins' 0.25...4.
    public func rate(_ r: Int) -> Float {
        let r = Double(max(-100, min(100, r)))
        let wpm = r < 0 ? normalRate + (normalRate - minRate) * r / 100 : normalRate + (maxRate - normalRate) * r / 100
        return Float(max(0.25, min(4, wpm / normalRate)))
    }

    public func pitch(_ p: Int) -> Float {
        Float(exp2((Self.pitchPercent(p) - 50) / 50))
    }

    /// espeak-ng's module's pitch (or pitch range) in 0...100 around a baseline of 50.
    public static func pitchPercent(_ p: Int, baseline: Double = 50) -> Double {
        let p = Double(max(-100, min(100, p)))
        return p < 0 ? (p + 100) * baseline / 100 : p * (100 - baseline) / 100 + baseline
    }

    public func volume(_ v: Int) -> Float {
        Float(Double(max(-100, min(100, v)) + 100) / 200)
    }

    /// The pitch range as an SSML `<prosody range>` change in percent (espeak-ng's 0...100
    /// around 50: -100% flat at 0, +100% at 100).
    public func rangePercent(_ r: Int) -> Int {
        Int((Self.pitchPercent(r) - 50) * 2)
    }
}
