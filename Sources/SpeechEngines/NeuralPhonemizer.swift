import CEspeakNG

/// Text to the phonemes a Piper voice was trained on: espeak-ng's IPA, with each clause's
/// punctuation put back as Piper does (NeuralClauses) and decomposed as Piper does (NFD). Each
/// word is also phonemized alone, for how long it is likely to take (its weight in
/// NeuralWordTiming).
///
/// espeak-ng reads the whole run in one pass, a clause per call, exactly as Piper calls it, so
/// its reading does not depend on where spk cuts the text; each call's phonemes go to the text
/// clause where the call stopped reading. espeak-ng is one per process and the espeak-ng engine
/// uses it too: the phonemizer takes it through EspeakEngine's lock.
enum NeuralPhonemizer {
    struct Clause {
        var clause: NeuralClause
        /// Phoneme codepoints, punctuation included.
        var phonemes: [Int32]
        /// One per word of the clause: how many phonemes it has.
        var wordWeights: [Double]
    }

    /// The clauses of `text` with their phonemes; clauses espeak finds nothing to say in are left out.
    static func phonemize(_ text: [UInt8], clauses: [NeuralClause], espeakVoice: String) throws -> [Clause] {
        guard !clauses.isEmpty else { return [] }
        return try EspeakEngine.withVoice(espeakVoice) {
            var spoken = [[String]](repeating: [], count: clauses.count)
            for (phonemes, end) in espeakClauses(text[...]) {
                spoken[owner(of: end, in: clauses)].append(phonemes)
            }
            return clauses.indices.compactMap { index -> Clause? in
                let clause = clauses[index]
                guard !spoken[index].isEmpty else { return nil }
                // Piper joins espeak's clauses that end without punctuation (an ellipsis, a
                // dash) with nothing between them, and its voices were trained on that.
                let phonemes = codepoints(spoken[index].joined() + (clause.punctuation?.phonemes ?? ""))
                let weights = clause.words.map { word in
                    Double(espeakClauses(text[word]).reduce(0) { $0 + phonemeCount($1.phonemes) })
                }
                return Clause(clause: clause, phonemes: phonemes, wordWeights: weights)
            }
        }
    }

    /// espeak-ng's clauses of `bytes`: each one's IPA, and the byte (relative to the slice's
    /// start) where espeak stopped reading for it. Empty clauses are left out. Call holding
    /// espeak-ng (EspeakEngine.withVoice).
    private static func espeakClauses(_ bytes: ArraySlice<UInt8>) -> [(phonemes: String, end: Int)] {
        var clauses: [(String, Int)] = []
        var text = Array(bytes)
        text.append(0)
        text.withUnsafeBytes { buffer in
            let base = buffer.baseAddress!
            var pointer: UnsafeRawPointer? = base
            while pointer != nil {
                guard let phonemes = espeak_TextToPhonemes(&pointer, espeakCHARS_UTF8, espeakPHONEMES_IPA) else { break }
                let part = String(cString: phonemes)
                let end = pointer.map { $0 - base } ?? bytes.count
                if part.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) { clauses.append((part, end)) }
            }
        }
        return clauses
    }

    /// The clause an espeak call belongs to. espeak stops reading a character or so into the
    /// next clause (its look-ahead), so the owner is found two bytes back: the clause holding
    /// that byte, else the last one before it.
    private static func owner(of end: Int, in clauses: [NeuralClause]) -> Int {
        let position = max(end - 2, 0)
        return clauses.lastIndex { $0.range.lowerBound <= position } ?? 0
    }

    /// Phonemes proper: stress and length marks and spaces do not count.
    private static func phonemeCount(_ ipa: String) -> Int {
        ipa.unicodeScalars.filter { !$0.properties.isWhitespace && !["ˈ", "ˌ", "ː"].contains($0) }.count
    }

    /// Codepoints in Piper's form: canonically decomposed.
    static func codepoints(_ ipa: String) -> [Int32] {
        var result: [Int32] = []
        for scalar in ipa.unicodeScalars {
            for s in decompositions[scalar] ?? [scalar] { result.append(Int32(s.value)) }
        }
        return result
    }

    /// The canonical decompositions of what espeak-ng's IPA holds precomposed (Swift's standard
    /// library has no NFD, and Foundation is too heavy for a plugin).
    private static let decompositions: [Unicode.Scalar: [Unicode.Scalar]] = [
        "ç": ["c", "\u{327}"], "ã": ["a", "\u{303}"], "ẽ": ["e", "\u{303}"], "ĩ": ["i", "\u{303}"],
        "õ": ["o", "\u{303}"], "ũ": ["u", "\u{303}"], "ñ": ["n", "\u{303}"], "ỹ": ["y", "\u{303}"],
    ]
}
