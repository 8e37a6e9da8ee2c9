/// Finds where flite's tokens and words came from in the text it read.
///
/// flite names a token by its text without the punctuation around it, and expands a token into
/// words ("$5" into "five dollars", "e-mail" into "e mail"). Token names are found in the text in
/// order; a word gets its own letters inside its token when all of the token's words can be found
/// there in order, and otherwise (numbers, abbreviations) shares the token's range.
enum FliteWordAlignment {
    /// Byte ranges in `text` of each word of `words`, whose `token` indexes `tokenNames`; the
    /// search covers `searchRange` of `text`.
    static func wordRanges(words: [FliteUtterance.Word], tokenNames: [String],
                           in text: [UInt8], searchRange: Range<Int>) -> [Range<Int>] {
        let tokens = tokenRanges(tokenNames, in: text, searchRange: searchRange)
        var ranges = words.map { tokens[$0.token] }
        for (token, range) in tokens.enumerated() {
            let indices = words.indices.filter { words[$0].token == token }
            guard indices.count > 1,
                  let inside = findInOrder(indices.map { Array(words[$0].name.utf8) }, in: text, range: range, ignoringCase: true)
            else { continue }
            for (index, found) in zip(indices, inside) { ranges[index] = found }
        }
        return ranges
    }

    /// Each token's byte range: its name found in order, or if flite changed it beyond finding,
    /// the next whitespace-separated piece of the text.
    static func tokenRanges(_ names: [String], in text: [UInt8], searchRange: Range<Int>) -> [Range<Int>] {
        var cursor = searchRange.lowerBound
        return names.map { name in
            let needle = Array(name.utf8)
            let range = firstRange(of: needle, in: text, from: cursor, to: searchRange.upperBound, ignoringCase: false)
                ?? nextPiece(in: text, from: cursor, to: searchRange.upperBound)
            cursor = range.upperBound
            return range
        }
    }

    /// Finds every needle, in order and without overlap, inside `range`; nil if one is missing.
    private static func findInOrder(_ needles: [[UInt8]], in text: [UInt8], range: Range<Int>, ignoringCase: Bool) -> [Range<Int>]? {
        var cursor = range.lowerBound
        var found: [Range<Int>] = []
        for needle in needles {
            guard let match = firstRange(of: needle, in: text, from: cursor, to: range.upperBound, ignoringCase: ignoringCase) else { return nil }
            found.append(match)
            cursor = match.upperBound
        }
        return found
    }

    private static func firstRange(of needle: [UInt8], in text: [UInt8], from start: Int, to end: Int, ignoringCase: Bool) -> Range<Int>? {
        guard !needle.isEmpty, end - start >= needle.count else { return nil }
        func same(_ a: UInt8, _ b: UInt8) -> Bool { ignoringCase ? lower(a) == lower(b) : a == b }
        for position in start...(end - needle.count) where needle.indices.allSatisfy({ same(text[position + $0], needle[$0]) }) {
            return position..<position + needle.count
        }
        return nil
    }

    private static func nextPiece(in text: [UInt8], from start: Int, to end: Int) -> Range<Int> {
        var lower = start
        while lower < end && FliteText.isSpace(text[lower]) { lower += 1 }
        var upper = lower
        while upper < end && !FliteText.isSpace(text[upper]) { upper += 1 }
        return lower..<upper
    }

    private static func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 32 : byte }
}
