/// Cuts the text flite reads into utterances, a sentence at a time, the way flite's own
/// `default_utt_break` does for English: so that audio comes early, cancellation takes effect
/// between sentences, and each sentence gets its own intonation.
enum FliteSentences {
    /// A sentence longer than this many tokens is cut after a comma or semicolon, and one
    /// twice as long anywhere, to bound the wait for its audio.
    static let softLimit = 40

    /// Byte ranges of the sentences in `bytes`, each from its first token's first byte to its
    /// last token's last byte, in order; whitespace-only text has none.
    static func split(_ bytes: [UInt8]) -> [Range<Int>] {
        let tokens = tokenRanges(bytes)
        var sentences: [Range<Int>] = []
        var first = 0
        for index in tokens.indices {
            let isLast = index + 1 == tokens.count
            if isLast || breaksAfter(index, tokens: tokens, count: index - first + 1, in: bytes) {
                sentences.append(tokens[first].lowerBound..<tokens[index].upperBound)
                first = index + 1
            }
        }
        return sentences
    }

    /// The whitespace-separated tokens, as flite's tokenizer finds them.
    static func tokenRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for (index, byte) in bytes.enumerated() {
            if FliteText.isSpace(byte) {
                if let s = start { ranges.append(s..<index); start = nil }
            } else if start == nil {
                start = index
            }
        }
        if let s = start { ranges.append(s..<bytes.count) }
        return ranges
    }

    private static func breaksAfter(_ index: Int, tokens: [Range<Int>], count: Int, in bytes: [UInt8]) -> Bool {
        let token = Array(bytes[tokens[index]])
        let next = Array(bytes[tokens[index + 1]])
        let gap = bytes[tokens[index].upperBound..<tokens[index + 1].lowerBound]
        let punctuation = trailingPunctuation(token)
        let word = token.dropLast(punctuation.count).drop { quotesAndBrackets.contains($0) }
        let nextCapital = next.first { !quotesAndBrackets.contains($0) }.map(isUpper) ?? false

        if gap.filter({ $0 == UInt8(ascii: "\n") }).count >= 2 { return true }  // a blank line
        if punctuation.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "!") || $0 == UInt8(ascii: ":") }) { return true }
        if punctuation.contains(UInt8(ascii: ".")) && nextCapital {
            // "Dr. Smith", "U.S. Army": a capitalised or short capitalised word before the
            // full stop is an abbreviation, unless more than one space follows it.
            let abbreviation = word.last.map(isUpper) == true || (word.count < 4 && word.first.map(isUpper) == true)
            if gap.count > 1 || !abbreviation { return true }
        }
        if count >= softLimit && punctuation.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") }) { return true }
        return count >= 2 * softLimit
    }

    /// flite's English post-punctuation characters at the end of a token.
    private static func trailingPunctuation(_ token: [UInt8]) -> [UInt8] {
        Array(token.reversed().prefix { postPunctuation.contains($0) }.reversed())
    }

    private static let postPunctuation = Set("\"'`.,:;!?(){}[]".utf8)
    private static let quotesAndBrackets = Set("\"'`({[".utf8)
    private static func isUpper(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) }
}
