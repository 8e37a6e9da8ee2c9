import Glibc

/// Whether a recorded take is good enough to bank, and if not, why.
public enum TakeProblem: Equatable, Sendable, CustomStringConvertible {
    case clipped(fraction: Double)
    case silent(level: Double)
    case noisy(signalToNoise: Double)
    case tooShort(seconds: Double)

    public var description: String {
        switch self {
        case .clipped(let f): "clipped: \(String(format1: f * 100))% of samples at full scale; record a little softer"
        case .silent(let db): "silent: the loudest speech is at \(String(format1: db)) dBFS; check the microphone"
        case .noisy(let snr): "too noisy: speech is only \(String(format1: snr)) dB above the background; find a quieter place"
        case .tooShort(let s): "too short: \(String(format1: s)) s of sound"
        }
    }
}

public enum TakeCheck {
    /// Checks one take. Clipping: more than 0.1% of samples within 0.1% of full scale. Silence:
    /// speech (the loudest tenth of 10 ms frames) below -45 dBFS. Noise: the quietest tenth of
    /// frames less than 15 dB below the loudest tenth.
    public static func problem(in samples: [Float], sampleRate: Int) -> TakeProblem? {
        guard samples.count > sampleRate / 10 else { return .tooShort(seconds: Double(samples.count) / Double(sampleRate)) }
        let clipped = samples.reduce(0) { $0 + (abs($1) >= 0.999 ? 1 : 0) }
        let fraction = Double(clipped) / Double(samples.count)
        if fraction > 0.001 { return .clipped(fraction: fraction) }
        let levels = FrameLevels(samples, sampleRate: sampleRate)
        let speech = decibels(levels.loud), floor = decibels(levels.quiet)
        if speech < -45 { return .silent(level: speech) }
        if speech - floor < 15 { return .noisy(signalToNoise: speech - floor) }
        return nil
    }

    static func decibels(_ rms: Double) -> Double { 20 * log10(max(rms, 1e-9)) }
}

/// RMS of 10 ms frames, and the levels of the loud and quiet parts.
struct FrameLevels {
    let levels: [Double]
    let hop: Int
    init(_ samples: [Float], sampleRate: Int) {
        hop = max(1, sampleRate / 100)
        var levels: [Double] = []
        var i = 0
        while i + hop <= samples.count {
            var e = 0.0
            for j in i..<i + hop { e += Double(samples[j]) * Double(samples[j]) }
            levels.append((e / Double(hop)).squareRoot())
            i += hop
        }
        self.levels = levels
    }
    var loud: Double { levels.percentile(0.9) }
    var quiet: Double { levels.percentile(0.1) }

    /// The frames from the first to the last that rise within 30 dB of the loud level.
    var speech: Range<Int>? {
        let threshold = loud * 0.0316
        guard let first = levels.firstIndex(where: { $0 > threshold }), let last = levels.lastIndex(where: { $0 > threshold }) else { return nil }
        return first * hop..<(last + 1) * hop
    }
}

extension String {
    init(format1 value: Double) {
        let tenths = (value * 10).rounded()
        self = "\(Int(tenths) / 10).\(abs(Int(tenths)) % 10)"
    }
}
