/// The audio of one run, joined from its utterances at the engine's rate.
///
/// flite begins and ends every utterance with a pause of about 0.2 s. Between the sentences of a
/// run those pauses are flite's own sentence breaks and stay; at the run's edges they would
/// lengthen every `<break>` and every join between runs, so only short margins around the run's
/// speech are kept there.
struct FliteRunAudio {
    /// Kept before the first speech sound, in seconds (onsets rise a little before their segment).
    static let leadMargin = 0.02
    /// Kept after the last speech sound, in seconds (the voice's last sound decays into the pause).
    static let tailMargin = 0.05
    /// Fade over a cut edge, in seconds.
    static let fadeLength = 0.005

    private(set) var samples: [Float] = []
    /// Sample offsets into `samples`.
    private(set) var boundaries: [SynthesisOutput.Boundary] = []
    private var speech: Range<Int>?

    /// Appends one utterance's audio; `speech` and the boundaries' samples index `piece`.
    mutating func append(_ piece: [Float], boundaries pieceBoundaries: [SynthesisOutput.Boundary], speech pieceSpeech: Range<Int>?) {
        let offset = samples.count
        samples += piece
        boundaries += pieceBoundaries.map { var b = $0; b.sample += offset; return b }
        if let s = pieceSpeech {
            let shifted = s.lowerBound + offset..<s.upperBound + offset
            speech = speech.map { $0.lowerBound..<shifted.upperBound } ?? shifted
        }
    }

    /// The run with its outer pauses cut to the margins, boundaries moved with the audio.
    func trimmed(sampleRate: Double) -> (samples: [Float], boundaries: [SynthesisOutput.Boundary]) {
        guard let speech else { return (samples, boundaries) }
        let start = max(0, speech.lowerBound - Int(Self.leadMargin * sampleRate))
        let end = min(samples.count, max(start, speech.upperBound + Int(Self.tailMargin * sampleRate)))
        let moved = boundaries.map { var b = $0; b.sample = min(max(b.sample - start, 0), end - start); return b }
        var kept = Array(samples[start..<end])
        // The pauses are quiet but not silent: a short fade keeps each cut from clicking.
        let fade = min(Int(Self.fadeLength * sampleRate), kept.count / 2)
        for i in 0..<fade {
            let gain = Float(i) / Float(fade)
            if start > 0 { kept[i] *= gain }
            if end < samples.count { kept[kept.count - 1 - i] *= gain }
        }
        return (kept, moved)
    }
}
