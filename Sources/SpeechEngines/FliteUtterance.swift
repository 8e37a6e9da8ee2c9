import CFlite

/// One flite utterance: synthesized from text or phones with its own features, then read back
/// as samples, tokens and words (or handed on while flite makes it, through a `FliteStream`).
///
/// flite keeps global state, so an utterance is made, read and freed while the caller holds
/// `FliteEngine`'s lock.
final class FliteUtterance {
    enum Input {
        /// Text, put through flite's own tokenizer, number expansion and lexicon.
        case text(String)
        /// flite phone names (`pau t ax m ey t ow pau`).
        case phones(String)
    }

    /// A word as flite's Word relation has it.
    struct Word {
        var name: String
        /// Index into `tokenNames` of the token the word was read from.
        var token: Int
        /// When the word starts, in seconds; nil for a word that makes no sound (punctuation).
        var start: Double?
    }

    private let utterance: UnsafeMutablePointer<cst_utterance>

    /// Synthesizes `input` with `voice`; `features` (for example `duration_stretch`) override the
    /// voice's own for this utterance only. With a `stream`, flite hands it the wave as it makes it.
    init(_ input: Input, voice: UnsafeMutablePointer<cst_voice>, features: [String: Float],
         stream: FliteStream? = nil) throws(SpeechError) {
        guard let fresh = new_utterance() else { throw SpeechError("flite could not allocate an utterance") }
        let (text, synth): (String, cst_uttfunc) = switch input {
        case .text(let text): (text, utt_synth)
        case .phones(let phones): (phones, utt_synth_phones)
        }
        utt_set_input_text(fresh, text)
        // The utterance's features are looked up before the voice's, which flite links in. flite
        // keeps a feature's name by pointer: the features must own a copy of it.
        let table = fresh.pointee.features
        for (name, value) in features { feat_set_float(table, feat_own_string(table, name), value) }
        if let stream, let table { stream.attach(to: table) }
        // flite_do_synth frees the utterance itself when synthesis fails.
        guard let done = flite_do_synth(fresh, voice, synth) else { throw SpeechError("flite could not synthesize '\(text)'") }
        utterance = done
    }

    deinit { delete_utterance(utterance) }

    /// The wave's sample rate (voices differ: kal speaks at 8 kHz).
    var sampleRate: Int { Int(utt_wave(utterance)?.pointee.sample_rate ?? 0) }

    /// The wave as floats in -1...1.
    func samples() -> [Float] {
        guard let wave = utt_wave(utterance)?.pointee, let data = wave.samples, wave.num_samples > 0 else { return [] }
        return floatSamples(data, count: Int(wave.num_samples))
    }

    /// The utterance's tokens, words and segments.
    var relations: FliteRelations { FliteRelations(utterance) }
}

/// What flite's relations say of an utterance: read once synthesis is done, or from a stream's
/// first audio, when the segments have their times and the wave is still being made.
struct FliteRelations {
    private let utterance: UnsafePointer<cst_utterance>

    init(_ utterance: UnsafePointer<cst_utterance>) { self.utterance = utterance }

    /// Token names in order: the text between whitespace, without the punctuation around it.
    var tokenNames: [String] { items(of: "Token").map { Self.name(of: $0) } }

    var words: [FliteUtterance.Word] {
        let tokens = items(of: "Token")
        return items(of: "Word").compactMap { word -> FliteUtterance.Word? in
            guard let token = path_to_item(word, "R:Token.parent"), let index = tokens.firstIndex(of: token) else { return nil }
            let firstSegment = path_to_item(word, "R:SylStructure.daughter1.daughter1.R:Segment")
            return FliteUtterance.Word(name: Self.name(of: word), token: index, start: firstSegment.map(Self.startTime))
        }
    }

    /// From the start of the first segment that is not a pause to the end of the last, in
    /// seconds; nil when the utterance says nothing.
    var speech: Range<Double>? {
        let spoken = items(of: "Segment").filter { Self.name(of: $0) != "pau" }
        guard let first = spoken.first, let last = spoken.last else { return nil }
        let start = Self.startTime(first)
        return start..<max(start, Double(item_feat_float(last, "end")))
    }

    private static func name(of item: UnsafeMutablePointer<cst_item>) -> String {
        String(cString: item_feat_string(item, "name"))
    }

    /// A segment starts where the one before it ends.
    private static func startTime(_ segment: UnsafeMutablePointer<cst_item>) -> Double {
        item_prev(segment).map { Double(item_feat_float($0, "end")) } ?? 0
    }

    private func items(of relation: String) -> [UnsafeMutablePointer<cst_item>] {
        var result: [UnsafeMutablePointer<cst_item>] = []
        var item = utt_relation(utterance, relation).flatMap { relation_head($0) }
        while let current = item {
            result.append(current)
            item = item_next(current)
        }
        return result
    }
}
