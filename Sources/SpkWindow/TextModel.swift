// The text field's contents: UTF-8 bytes and a cursor at a byte offset, always on a character
// boundary. Byte offsets because the plugin's word markers are UTF-8 byte offsets into the text,
// and pango indexes its layouts in the same bytes.

struct TextModel {
    /// spk:text holds at most 16 KiB (SynthInstance.text).
    static let capacity = 16 * 1024
    private(set) var bytes: [UInt8] = []
    private(set) var cursor = 0

    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Replaces the text (from the plugin), keeping the cursor where it can.
    mutating func set(_ text: String) {
        bytes = Array(text.utf8)
        cursor = boundary(atOrBefore: min(cursor, bytes.count))
    }

    @discardableResult
    mutating func insert(_ text: String) -> Bool {
        let new = Array(text.utf8)
        guard !new.isEmpty, bytes.count + new.count < Self.capacity else { return false }
        bytes.insert(contentsOf: new, at: cursor)
        cursor += new.count
        return true
    }

    @discardableResult
    mutating func backspace() -> Bool {
        guard cursor > 0 else { return false }
        let start = previous(cursor)
        bytes.removeSubrange(start..<cursor)
        cursor = start
        return true
    }

    @discardableResult
    mutating func deleteForward() -> Bool {
        guard cursor < bytes.count else { return false }
        bytes.removeSubrange(cursor..<next(cursor))
        return true
    }

    mutating func moveLeft() { cursor = previous(cursor) }
    mutating func moveRight() { cursor = next(cursor) }
    mutating func moveToLineStart() { cursor = lineStart(cursor) }
    mutating func moveToLineEnd() { cursor = lineEnd(cursor) }
    mutating func moveToStart() { cursor = 0 }
    mutating func moveToEnd() { cursor = bytes.count }
    /// Puts the cursor at a byte offset (from a click or a line move), on a character boundary.
    mutating func place(_ offset: Int) { cursor = boundary(atOrBefore: max(0, min(offset, bytes.count))) }

    func previous(_ i: Int) -> Int {
        guard i > 0 else { return 0 }
        return boundary(atOrBefore: i - 1)
    }

    func next(_ i: Int) -> Int {
        guard i < bytes.count else { return bytes.count }
        var j = i + 1
        while j < bytes.count && bytes[j] & 0xC0 == 0x80 { j += 1 }
        return j
    }

    func boundary(atOrBefore i: Int) -> Int {
        var j = i
        while j > 0 && j < bytes.count && bytes[j] & 0xC0 == 0x80 { j -= 1 }
        return j
    }

    func lineStart(_ i: Int) -> Int {
        var j = i
        while j > 0 && bytes[j - 1] != 0x0A { j -= 1 }
        return j
    }

    func lineEnd(_ i: Int) -> Int {
        var j = i
        while j < bytes.count && bytes[j] != 0x0A { j += 1 }
        return j
    }

    /// A byte range clamped to the text and to character boundaries (markers may point past an
    /// edited text).
    func clamped(_ offset: Int, _ length: Int) -> Range<Int>? {
        let start = boundary(atOrBefore: max(0, min(offset, bytes.count)))
        let end = boundary(atOrBefore: max(start, min(offset + length, bytes.count)))
        return end > start ? start..<end : nil
    }
}
