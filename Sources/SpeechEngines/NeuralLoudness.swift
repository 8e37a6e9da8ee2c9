/// Where a neural voice's audio sounds and where it pauses, from its loudness in 10 ms frames.
/// A Piper voice's pauses are near digital silence, so a fixed floor tells them apart.
struct NeuralLoudness {
    static let frameSeconds = 0.01
    /// RMS below this is a pause (about -46 dBFS).
    static let floor: Float = 0.005

    let frameLength: Int
    let sampleCount: Int
    /// One per frame: whether it sounds.
    let sounding: [Bool]

    init(_ samples: [Float], sampleRate: Double) {
        frameLength = max(1, Int(sampleRate * Self.frameSeconds))
        sampleCount = samples.count
        var sounding: [Bool] = []
        sounding.reserveCapacity(samples.count / frameLength + 1)
        var start = 0
        while start < samples.count {
            let end = min(start + frameLength, samples.count)
            var sum: Float = 0
            for i in start..<end { sum += samples[i] * samples[i] }
            sounding.append((sum / Float(end - start)).squareRoot() > Self.floor)
            start = end
        }
        self.sounding = sounding
    }

    /// Samples from the first sounding frame to the end of the last; nil when nothing sounds.
    var speech: Range<Int>? {
        guard let first = sounding.firstIndex(of: true), let last = sounding.lastIndex(of: true) else { return nil }
        return first * frameLength..<min((last + 1) * frameLength, sampleCount)
    }

    /// The pauses inside the speech at least `minimum` seconds long, as sample ranges.
    func pauses(atLeast minimum: Double) -> [Range<Int>] {
        guard let speech else { return [] }
        let minFrames = Int((minimum / Self.frameSeconds).rounded(.up))
        var pauses: [Range<Int>] = []
        var frame = speech.lowerBound / frameLength
        let last = (speech.upperBound - 1) / frameLength
        while frame <= last {
            guard !sounding[frame] else { frame += 1; continue }
            let start = frame
            while frame <= last && !sounding[frame] { frame += 1 }
            if frame - start >= minFrames { pauses.append(start * frameLength..<frame * frameLength) }
        }
        return pauses
    }
}
