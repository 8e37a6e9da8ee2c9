/// The YIN pitch tracker (de Cheveigné and Kawahara, 2002): per frame, the lag whose cumulative
/// mean normalised difference first dips below a threshold, refined by parabolic interpolation.
public struct PitchTracker: Sendable {
    public let sampleRate: Double
    public var minimum: Double = 60
    public var maximum: Double = 450
    /// Aperiodicity below which a frame counts as voiced.
    public var threshold: Double = 0.15

    public init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// F0 of each voiced frame (10 ms hop), in Hz.
    public func track(_ samples: [Float]) -> [Double] {
        let maxLag = Int(sampleRate / minimum), minLag = max(2, Int(sampleRate / maximum))
        let window = maxLag * 2
        let hop = Int(sampleRate / 100)
        guard samples.count > window + maxLag else { return [] }
        let level = FrameLevels(samples, sampleRate: Int(sampleRate)).loud
        var pitches: [Double] = []
        var difference = [Double](repeating: 0, count: maxLag + 1)
        var start = 0
        while start + window + maxLag < samples.count {
            // Skip quiet frames: silence and breath are not voice.
            var energy = 0.0
            for i in start..<start + window { energy += Double(samples[i]) * Double(samples[i]) }
            if (energy / Double(window)).squareRoot() < level * 0.2 { start += hop; continue }
            for lag in 1...maxLag {
                var sum = 0.0
                for i in start..<start + window {
                    let d = Double(samples[i]) - Double(samples[i + lag])
                    sum += d * d
                }
                difference[lag] = sum
            }
            // Cumulative mean normalised difference.
            var running = 0.0
            var best: Int?
            difference[0] = 1
            for lag in 1...maxLag {
                running += difference[lag]
                difference[lag] = running > 0 ? difference[lag] * Double(lag) / running : 1
            }
            var lag = minLag
            while lag < maxLag {
                if difference[lag] < threshold {
                    while lag + 1 < maxLag && difference[lag + 1] < difference[lag] { lag += 1 }
                    best = lag
                    break
                }
                lag += 1
            }
            if let tau = best {
                let a = difference[tau - 1], b = difference[tau], c = difference[tau + 1]
                let shift = (a - 2 * b + c) != 0 ? 0.5 * (a - c) / (a - 2 * b + c) : 0
                pitches.append(sampleRate / (Double(tau) + shift))
            }
            start += hop
        }
        return pitches
    }
}

extension Array where Element == Double {
    /// The value below which `q` of the values fall.
    public func percentile(_ q: Double) -> Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        return sorted[Swift.min(sorted.count - 1, Swift.max(0, Int((Double(sorted.count - 1) * q).rounded())))]
    }
}
