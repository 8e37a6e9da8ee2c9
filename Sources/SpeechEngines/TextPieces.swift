/// Cuts a run's text into the pieces an engine speaks one call at a time, so that the audio
/// rendered ahead of the host stays bounded whatever the text's length or shape.
///
/// A piece is a sentence: engines shape intonation within a sentence, so one spoken alone sounds
/// as it does in its run. The first piece of a run may be just its first clause, for engines
/// whose first sound waits for the analysis of the whole utterance (flite). No piece is longer
/// than `maximumBytes`: a longer sentence is cut after a clause's punctuation, else at a space,
/// else (one enormous "word") at a character boundary.
public enum TextPieces {
    /// About 40 seconds of speech at the default rate; the renderer cuts a piece's audio at a
    /// word once it is longer than it holds (`ProgramRenderer.pieceSeconds`).
    public static let maximumBytes = 600
    /// No word is longer: a longer run of letters (a hash, a line of dashes, a "word" of 5,000
    /// letters) is cut between characters, since without a space there is no word to cut at.
    public static let maximumWordBytes = 100

    /// The end (exclusive) of the piece of `bytes` that starts at `start`, and whether it ends a
    /// sentence there. `start` must be below `bytes.count`.
    public static func end(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, firstClause: Bool = false)
        -> (end: Int, endsSentence: Bool) {
        let limit = min(bytes.count, start + maximumBytes)
        var lastClause: Int?
        var lastSpace: Int?
        var sawWord = false
        var wordStart = start
        var i = start
        while i < limit {
            let byte = bytes[i]
            if !isSpace(byte) && i - wordStart >= maximumWordBytes { return (characterBoundary(bytes, at: i, after: start), false) }
            if isSpace(byte) {
                wordStart = i + 1
                if sawWord { lastSpace = i }
                // A blank line ends a paragraph, and so a sentence, whatever precedes it.
                if byte == newline, sawWord, let next = nextNonSpace(bytes, after: i), hasBlankLine(bytes, from: i, to: next) {
                    return (i, true)
                }
                i += 1
                continue
            }
            sawWord = true
            if let closed = sentenceEnd(bytes, at: i) { return (closed, true) }
            if clausePunctuation.contains(byte), i + 1 < bytes.count, isSpace(bytes[i + 1]) {
                lastClause = i + 1
                if firstClause && wordCount(bytes, start..<i) >= 2 { return (i + 1, false) }
            }
            i += 1
        }
        guard limit < bytes.count else { return (bytes.count, true) }
        if let clause = lastClause, clause - start >= maximumBytes / 3 { return (clause, false) }
        if let space = lastSpace, space > start { return (space, false) }
        return (characterBoundary(bytes, at: limit, after: start), false)
    }

    /// `index`, or the start of the UTF-8 character it falls in (but past `start`).
    private static func characterBoundary(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, after start: Int) -> Int {
        var cut = index
        while cut > start + 1 && cut < bytes.count && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return cut
    }

    /// If a sentence ends at `i` (`.`, `!` or `?`, with any closing quotes or brackets, before
    /// white space or the end), where it ends. A full stop before a word in lower case ends
    /// nothing (espeak-ng's rule), nor does one after a short capitalised word ("Dr.", "U.S.").
    private static func sentenceEnd(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        let byte = bytes[i]
        guard byte == period || byte == exclamation || byte == question else { return nil }
        var end = i + 1
        while end < bytes.count, closers.contains(bytes[end]) || bytes[end] == period { end += 1 }
        guard end == bytes.count || isSpace(bytes[end]) else { return nil }
        guard byte == period else { return end }
        if let next = nextNonSpace(bytes, after: end), isLower(bytes[next]) { return nil }
        // The word before the full stop.
        var wordStart = i
        while wordStart > 0, !isSpace(bytes[wordStart - 1]) { wordStart -= 1 }
        let word = bytes[wordStart..<i].drop { openers.contains($0) }
        if let first = word.first, isUpper(first),
           word.count <= 2 || word.contains(period) || titles.contains(String(decoding: word, as: UTF8.self)) { return nil }
        return end
    }

    private static func wordCount(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var count = 0, inWord = false
        for i in range {
            let space = isSpace(bytes[i])
            if !space && !inWord { count += 1 }
            inWord = !space
        }
        return count
    }

    private static func nextNonSpace(_ bytes: UnsafeBufferPointer<UInt8>, after i: Int) -> Int? {
        var j = i
        while j < bytes.count, isSpace(bytes[j]) { j += 1 }
        return j < bytes.count ? j : nil
    }

    private static func hasBlankLine(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        var newlines = 0
        for j in from..<to where bytes[j] == newline { newlines += 1 }
        return newlines >= 2
    }

    /// Capitalised abbreviations longer than two letters that a name follows.
    private static let titles: Set<String> = ["Mrs", "Prof", "Rev", "Gen", "Capt", "Col", "Sgt", "Gov", "Sen", "Rep", "Hon", "Fig", "No"]
    private static let period = UInt8(ascii: "."), exclamation = UInt8(ascii: "!"), question = UInt8(ascii: "?")
    private static let newline = UInt8(ascii: "\n")
    private static let clausePunctuation: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":")]
    private static let closers = Set("\"')]}".utf8)
    private static let openers = Set("\"'([{".utf8)
    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    private static func isUpper(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) }
    private static func isLower(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) }
}
