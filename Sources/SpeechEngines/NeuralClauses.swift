/// Cuts a run's text into clauses the way Piper reads it: espeak-ng phonemizes a clause at a
/// time, and Piper puts the clause's punctuation back into the phonemes (`.?!` end a sentence,
/// `,:;` are followed by a space). Piper learns the clause ends from espeak's own terminator;
/// Debian's libespeak-ng (1.51) has no call that returns it, so the same ends are found in the
/// text here, with espeak's rule that a full stop before a lowercase word ends nothing ("e.g. a").
struct NeuralClause: Equatable {
    enum Punctuation: UInt8 {
        case period = 0x2E, question = 0x3F, exclamation = 0x21, comma = 0x2C, colon = 0x3A, semicolon = 0x3B
        /// What Piper appends to the clause's phonemes.
        var phonemes: String {
            switch self {
            case .period: "."
            case .question: "?"
            case .exclamation: "!"
            case .comma: ", "
            case .colon: ": "
            case .semicolon: "; "
            }
        }
    }

    /// UTF-8 bytes of the run's text, from the first token to the last, punctuation included.
    var range: Range<Int>
    /// Its words: tokens without the punctuation and quotes around them.
    var words: [Range<Int>]
    var punctuation: Punctuation?
    var endsSentence: Bool
}

enum NeuralClauses {
    static func split(_ bytes: [UInt8]) -> [NeuralClause] {
        let tokens = FliteSentences.tokenRanges(bytes)
        var clauses: [NeuralClause] = []
        var first = 0
        for index in tokens.indices {
            let token = tokens[index]
            let punctuation = clausePunctuation(bytes[token])
            let isLast = index + 1 == tokens.count
            let blankLineAfter = !isLast && bytes[token.upperBound..<tokens[index + 1].lowerBound].filter { $0 == 0x0A }.count >= 2
            var ends = isLast || blankLineAfter
            var sentence = ends
            switch punctuation {
            case .question?, .exclamation?:
                ends = true; sentence = true
            case .period?:
                // "e.g. a coffee", "approx. ten": a full stop before a lowercase word ends nothing.
                let nextLower = !isLast && isLowercase(bytes[tokens[index + 1].lowerBound])
                if !nextLower || ends { ends = true; sentence = true }
            case .comma?, .colon?, .semicolon?:
                ends = true
            case nil:
                break
            }
            guard ends else { continue }
            let range = tokens[first].lowerBound..<token.upperBound
            let words = tokens[first...index].compactMap { wordRange($0, in: bytes) }
            clauses.append(NeuralClause(range: range, words: words, punctuation: punctuation, endsSentence: sentence))
            first = index + 1
        }
        return clauses
    }

    /// The clause punctuation a token ends with, behind any closing quotes or brackets.
    static func clausePunctuation(_ token: ArraySlice<UInt8>) -> NeuralClause.Punctuation? {
        var end = token.endIndex
        while end > token.startIndex {
            if let closer = closerLength(token[..<end]) { end -= closer } else { break }
        }
        guard end > token.startIndex else { return nil }
        if token[..<end].suffix(3).elementsEqual(ellipsis) { return .period }  // "…" reads as a full stop
        return NeuralClause.Punctuation(rawValue: token[end - 1])
    }

    /// A word's bytes: the token without the punctuation, quotes and brackets around it; nil
    /// when nothing is left (a dash, a lone quote).
    static func wordRange(_ token: Range<Int>, in bytes: [UInt8]) -> Range<Int>? {
        var start = token.lowerBound, end = token.upperBound
        while start < end, let length = leadingMarkLength(bytes[start..<end]) { start += length }
        while end > start, let length = trailingMarkLength(bytes[start..<end]) { end -= length }
        guard start < end, bytes[start..<end].contains(where: { isAlphanumeric($0) || $0 >= 0x80 }) else { return nil }
        return start..<end
    }

    // MARK: characters

    private static let ascii = Set("\"'()[]{}.,;:!?-".utf8)
    /// Typographic quotes, dashes and the ellipsis, as UTF-8.
    private static let typographic: [[UInt8]] = ["“", "”", "‘", "’", "«", "»", "–", "—", "…"].map { Array($0.utf8) }
    private static let closers: [[UInt8]] = [[0x22], [0x27], [0x29], [0x5D], [0x7D]] + ["”", "’", "»"].map { Array($0.utf8) }
    private static let ellipsis = Array("…".utf8)

    private static func closerLength(_ bytes: ArraySlice<UInt8>) -> Int? {
        closers.first { bytes.suffix($0.count).elementsEqual($0) }?.count
    }
    private static func leadingMarkLength(_ bytes: ArraySlice<UInt8>) -> Int? {
        if let first = bytes.first, ascii.contains(first) { return 1 }
        return typographic.first { bytes.prefix($0.count).elementsEqual($0) }?.count
    }
    private static func trailingMarkLength(_ bytes: ArraySlice<UInt8>) -> Int? {
        if let last = bytes.last, ascii.contains(last) { return 1 }
        return typographic.first { bytes.suffix($0.count).elementsEqual($0) }?.count
    }
    private static func isLowercase(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
