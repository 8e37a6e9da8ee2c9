/// Gives every word of a piece exactly one word boundary, from espeak-ng's word events.
///
/// espeak-ng 1.51 reports no event for some short words it speaks together with a neighbour
/// ("of the", "was the": 17 of 500 words of ordinary prose), reports some twice, and places some
/// a few characters off (inside the word before, or on the space ahead of it). Each event is
/// matched to the first word that ends after where it points, a word already marked is not
/// marked again, and the words it skipped are marked between their neighbours in proportion to
/// their letters (when that falls in audio already handed on, at the start of the next chunk).
struct EspeakWordAligner {
    /// The words of the text espeak-ng reads: runs of letters, digits and apostrophes (UTF-8
    /// multi-byte characters count as letters).
    private let words: [Range<Int>]
    /// The next word not yet marked.
    private var next = 0
    /// The last word marked: its start in the text and its sample since the call began.
    private var last: (text: Int, sample: Int)?

    init(text: [UInt8]) {
        var words: [Range<Int>] = []
        var start: Int?
        for (i, byte) in text.enumerated() {
            if Self.isWordByte(byte) {
                if start == nil { start = i }
            } else if let s = start {
                words.append(s..<i)
                start = nil
            }
        }
        if let s = start { words.append(s..<text.count) }
        self.words = words
    }

    /// The boundaries for a word event at `sample` (counted from the call's start) pointing at
    /// byte `position`: the words it skipped, then its own; none if its word is marked already.
    mutating func words(at position: Int, sample: Int) -> [(range: Range<Int>, sample: Int)] {
        guard let index = words[next...].firstIndex(where: { $0.upperBound > position }) else { return [] }
        var found: [(range: Range<Int>, sample: Int)] = []
        if index > next {
            let from = last ?? (text: words[next].lowerBound, sample: sample)
            let span = max(words[index].lowerBound - from.text, 1)
            for skipped in words[next..<index] {
                let share = Double(skipped.lowerBound - from.text) / Double(span)
                found.append((skipped, from.sample + Int(share * Double(sample - from.sample))))
            }
        }
        found.append((words[index], sample))
        next = index + 1
        last = (words[index].lowerBound, sample)
        return found
    }

    /// Words before `end` (a byte offset) never reported, marked at `sample`: the end of the
    /// piece's speech, when espeak-ng skipped the last words of it.
    mutating func remaining(before end: Int, sample: Int) -> [(range: Range<Int>, sample: Int)] {
        var found: [(range: Range<Int>, sample: Int)] = []
        while next < words.count && words[next].upperBound <= end {
            found.append((words[next], sample))
            next += 1
        }
        return found
    }

    static func isWordByte(_ b: UInt8) -> Bool {
        b >= 0x80 || (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == UInt8(ascii: "'")
    }
}
