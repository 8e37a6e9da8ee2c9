// The phrase bank: each line of `spk:text` is a phrase, and MIDI note 60 speaks the first line,
// 61 the second, and so on, so one track of notes speaks different sentences at their beats.
// Notes below 60 speak the whole text, as every note did before the phrase bank (presets with a
// one-line text speak the same on any note). Scans bytes in place: safe in run().

enum PhraseBank {
    /// The note that speaks line 1.
    static var firstNote: Int { 60 }

    /// The byte range of line `index` (0-based) of `text`, without its line break (`\n`, or
    /// `\r\n`); nil when the text has no such line. A final line break ends the last line and
    /// starts none.
    static func line(_ index: Int, in text: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var line = 0, start = 0
        for i in 0..<text.count where text[i] == 0x0A {
            if line == index { return start..<trimmedEnd(text, start, i) }
            line += 1
            start = i + 1
        }
        guard line == index, start < text.count else { return nil }
        return start..<trimmedEnd(text, start, text.count)
    }

    /// How many lines `text` has (a final line break starts none).
    static func lineCount(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in text where byte == 0x0A { count += 1 }
        if let last = text.last, last != 0x0A { count += 1 }
        return count
    }

    private static func trimmedEnd(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        end > start && text[end - 1] == 0x0D ? end - 1 : end
    }
}
