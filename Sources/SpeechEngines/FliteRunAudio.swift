/// The audio of one run, handed on sentence by sentence at the engine's rate.
///
/// flite begins and ends every utterance with a pause of about 0.2 s. Between the sentences of a
/// run those pauses are flite's own sentence breaks and stay; at the run's edges they would
/// lengthen every `<break>` and every join between runs, so only short margins around the run's
/// speech are kept there. Each sentence goes out as soon as it is synthesized, up to the end of
/// its speech; the pause after it is held until it is known whether another sentence follows.
struct FliteRunAudio {
    /// Kept before the first speech sound, in seconds (onsets rise a little before their segment).
    static let leadMargin = 0.02
    /// Kept after the last speech sound, in seconds (the voice's last sound decays into the pause).
    static let tailMargin = 0.05
    /// Fade over a cut edge, in seconds.
    static let fadeLength = 0.005

    let sampleRate: Double
    /// Audio after the last speech sound so far: the run's tail, or a pause between sentences.
    private var held: [Float] = []
    private var started = false

    init(sampleRate: Double) { self.sampleRate = sampleRate }

    private var fade: Int { Int(Self.fadeLength * sampleRate) }

    /// One utterance's audio; `speech` and the boundaries' samples index `piece`. Returns what
    /// can be played now, boundaries indexing it.
    mutating func add(_ piece: [Float], boundaries: [SynthesisOutput.Boundary], speech: Range<Int>?) -> SynthesisOutput {
        var out = SynthesisOutput()
        guard let speech else {  // no sound at all (punctuation read as a sentence): all pause
            held += piece
            return out
        }
        var start = 0
        if !started {
            start = max(0, speech.lowerBound - Int(Self.leadMargin * sampleRate))
            started = true
        } else {
            out.samples = held
        }
        let shift = out.samples.count - start
        out.samples += piece[start..<speech.upperBound]
        if start > 0 {  // a cut into the pause before the run: fade in
            for i in 0..<min(fade, out.samples.count) { out.samples[i] *= Float(i) / Float(fade) }
        }
        out.boundaries = boundaries.map { var b = $0; b.sample = min(max(b.sample + shift, 0), out.samples.count); return b }
        held = Array(piece[speech.upperBound...])
        return out
    }

    /// The end of the run: a short margin of the pause after the last speech, faded if cut.
    mutating func finish() -> SynthesisOutput {
        var out = SynthesisOutput()
        guard started else { return out }
        let keep = min(held.count, Int(Self.tailMargin * sampleRate))
        out.samples = Array(held[..<keep])
        if keep < held.count {
            let n = min(fade, keep)
            for i in 0..<n { out.samples[keep - 1 - i] *= Float(i) / Float(max(n, 1)) }
        }
        held.removeAll()
        return out
    }
}
