/// The audio of one piece of a run, handed on sentence by sentence at the engine's rate.
///
/// flite begins and ends every utterance with a pause of about 0.2 s. Between the sentences of a
/// run those pauses are flite's own sentence breaks and stay, also where the run is spoken in
/// several pieces; at the run's edges they would lengthen every `<break>` and every join between
/// runs, so only short margins around the run's speech are kept there. Each sentence goes out as flite makes it, up to the end of its speech;
/// the pause after it is held until it is known whether another sentence follows.
struct FliteRunAudio {
    /// Kept before the first speech sound, in seconds (onsets rise a little before their segment).
    static let leadMargin = 0.02
    /// Kept after the last speech sound, in seconds (the voice's last sound decays into the pause).
    static let tailMargin = 0.05
    /// Fade over a cut edge, in seconds.
    static let fadeLength = 0.005

    let sampleRate: Double
    /// Whether the piece ends the run: only then is the pause after its speech cut short.
    private let endsRun: Bool
    /// Audio after the last speech sound so far: the run's tail, or a pause between sentences.
    private var held: [Float] = []
    /// Whether speech came before, in this piece or (after a sentence) in the one before it:
    /// then an utterance's lead-in is a pause between sentences, and stays whole.
    private var started: Bool

    // The utterance being received, in its own samples (at the engine's rate).
    /// Its first sample to play (after the run's lead-in is cut) and its speech's end.
    private var cut = 0
    private var speechEnd = 0
    private var hasSpeech = false
    private var fadeFrom: Int?
    private var received = 0
    /// Its boundaries not handed on yet.
    private var waiting: [SynthesisOutput.Boundary] = []

    init(sampleRate: Double, start: PieceStart = .run, endsRun: Bool = true) {
        self.sampleRate = sampleRate
        self.endsRun = endsRun
        started = start == .sentence
    }

    private var fade: Int { Int(Self.fadeLength * sampleRate) }

    /// One whole utterance's audio; `speech` and the boundaries' samples index `piece`. Returns
    /// what can be played now, boundaries indexing it.
    mutating func add(_ piece: [Float], boundaries: [SynthesisOutput.Boundary], speech: Range<Int>?) -> SynthesisOutput {
        begin(boundaries: boundaries, speech: speech)
        return receive(piece[...])
    }

    /// Starts an utterance whose audio comes in pieces (`receive`): its speech and boundaries,
    /// in its own samples, are known before its audio (flite times the segments first).
    mutating func begin(boundaries: [SynthesisOutput.Boundary], speech: Range<Int>?) {
        received = 0
        waiting = boundaries
        hasSpeech = speech != nil
        fadeFrom = nil
        guard let speech else { return }  // no sound at all (punctuation read as a sentence): all pause
        cut = 0
        if !started {
            cut = max(0, speech.lowerBound - Int(Self.leadMargin * sampleRate))
            if cut > 0 { fadeFrom = cut }  // a cut into the pause before the run: fade in
            started = true
        }
        speechEnd = max(speech.upperBound, cut)
    }

    /// The utterance's next samples. Returns what can be played now, with the boundaries whose
    /// sound it holds (all of them once the speech has ended), indexing it.
    mutating func receive(_ piece: ArraySlice<Float>) -> SynthesisOutput {
        var out = SynthesisOutput()
        let range = received..<received + piece.count
        received += piece.count
        guard hasSpeech else {
            held += piece
            return out
        }
        // The pause held from the sentence before goes out as this one's audio begins.
        if range.lowerBound == 0 {
            out.samples = held
            held.removeAll()
        }
        // The part of this piece between the cut and the speech's end (empty before or after it).
        let playStart = min(max(range.lowerBound, cut), range.upperBound)
        let playable = playStart..<max(playStart, min(range.upperBound, speechEnd))
        let base = out.samples.count - playable.lowerBound  // utterance sample -> index in `out`
        out.samples += piece[(piece.startIndex + playable.lowerBound - range.lowerBound)..<(piece.startIndex + playable.upperBound - range.lowerBound)]
        if let from = fadeFrom {
            for i in playable where i < from + fade { out.samples[i + base] *= Float(i - from) / Float(fade) }
        }
        let heldFrom = max(range.lowerBound, speechEnd)
        if heldFrom < range.upperBound { held += piece[(piece.startIndex + heldFrom - range.lowerBound)...] }
        let speechDone = range.upperBound >= speechEnd
        let due = waiting.filter { speechDone || $0.sample < playable.upperBound }
        waiting.removeAll { speechDone || $0.sample < playable.upperBound }
        out.boundaries = due.map { var b = $0; b.sample = min(max(b.sample + base, 0), out.samples.count); return b }
        return out
    }

    /// The end of the piece: at the end of the run, a short margin of the pause after the last
    /// speech, faded if cut; otherwise the whole pause, which the next piece's lead-in completes.
    mutating func finish() -> SynthesisOutput {
        var out = SynthesisOutput()
        guard endsRun else {
            out.samples = held
            held.removeAll()
            return out
        }
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
