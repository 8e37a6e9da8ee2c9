import Glibc
import SpkAudio

/// Measurements on rendered audio, as a listener would judge it.
public struct Signal {
    public let samples: [Float]
    public let sampleRate: Int

    public init(path: String) throws {
        let audio = try AudioFileReader.readMono(path: path)
        samples = audio.samples
        sampleRate = audio.sampleRate
    }

    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    public var seconds: Double { Double(samples.count) / Double(sampleRate) }

    public func rms(_ range: Range<Int>? = nil) -> Double {
        let r = range ?? 0..<samples.count
        guard !r.isEmpty else { return 0 }
        var sum = 0.0
        for i in r { sum += Double(samples[i]) * Double(samples[i]) }
        return (sum / Double(r.count)).squareRoot()
    }

    /// Stretches of sound, in seconds, found with 10 ms windows above `threshold` RMS; gaps
    /// shorter than `bridge` seconds (stops between words) are joined.
    public func soundingSegments(threshold: Double = 0.005, bridge: Double = 0.25) -> [(start: Double, end: Double)] {
        let window = sampleRate / 100
        var segments: [(start: Double, end: Double)] = []
        var index = 0
        while index + window <= samples.count {
            let loud = rms(index..<index + window) > threshold
            let t = Double(index) / Double(sampleRate)
            if loud {
                if let last = segments.last, t - last.end <= bridge {
                    segments[segments.count - 1].end = t + 0.01
                } else {
                    segments.append((t, t + 0.01))
                }
            }
            index += window
        }
        return segments
    }

    /// Seconds from the first to the last sounding window.
    public var spokenDuration: Double {
        let segments = soundingSegments()
        guard let first = segments.first, let last = segments.last else { return 0 }
        return last.end - first.start
    }

    /// The fundamental frequency of a voiced stretch, by autocorrelation (60 to 400 Hz).
    public func pitch(in range: Range<Int>) -> Double {
        let x = samples[range].map(Double.init)
        let minLag = sampleRate / 400, maxLag = sampleRate / 60
        var best = minLag, bestValue = -Double.infinity
        for lag in minLag...maxLag {
            var sum = 0.0
            for i in 0..<(x.count - lag) { sum += x[i] * x[i + lag] }
            if sum > bestValue { bestValue = sum; best = lag }
        }
        return Double(sampleRate) / Double(best)
    }
}
