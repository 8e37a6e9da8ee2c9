// The request's UTF-8 bytes, and the questions the parser asks about positions in them:
// line and column for errors, where a tag starts, and how decoded text lines up with its source.

struct SourceText {
    let bytes: [UInt8]

    init(_ request: String) {
        bytes = Array(request.utf8)
    }

    var count: Int { bytes.count }

    func byte(at offset: Int) -> UInt8? {
        offset >= 0 && offset < bytes.count ? bytes[offset] : nil
    }

    /// 1-based line and column of a byte offset; columns count characters (Unicode scalars), as
    /// libxml2 does. CR LF and a lone CR end a line, like XML's end-of-line handling.
    func lineAndColumn(at offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var index = 0
        let end = min(max(offset, 0), bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == .lineFeed || (byte == .carriageReturn && self.byte(at: index + 1) != .lineFeed) {
                line += 1
                column = 1
            } else if byte != .carriageReturn && !byte.isUTF8Continuation {
                column += 1
            }
            index += 1
        }
        return (line, column)
    }

    func error(at offset: Int, _ message: String) -> SSMLError {
        let (line, column) = lineAndColumn(at: offset)
        return SSMLError(line: line, column: column, message: message)
    }

    /// The `<` that opens the tag containing `offset`. A tag's name and attribute values cannot
    /// contain a literal `<` (libxml2 has already checked that), so the nearest one is it.
    func startOfTag(containing offset: Int) -> Int {
        var index = min(offset, bytes.count - 1)
        while index > 0 && bytes[index] != .lessThan { index -= 1 }
        return max(index, 0)
    }

    /// The offset just after a start tag, given the offset of its closing `>` or `/>`.
    func endOfStartTag(closingAt offset: Int) -> Int {
        byte(at: offset) == .slash ? min(offset + 2, bytes.count) : min(offset + 1, bytes.count)
    }

    /// The last occurrence of `needle` that starts before `limit`.
    func lastOccurrence(of needle: String, before limit: Int) -> Int? {
        let pattern = Array(needle.utf8)
        var start = min(limit, bytes.count) - pattern.count
        while start >= 0 {
            if bytes[start..<start + pattern.count].elementsEqual(pattern) { return start }
            start -= 1
        }
        return nil
    }

    /// The offset just after the `;` of the entity or character reference starting at `offset`.
    /// Reference names and numbers cannot contain `;`, so the first one ends it.
    func endOfReference(startingAt offset: Int) -> Int {
        var index = offset
        while index < bytes.count && bytes[index] != .semicolon { index += 1 }
        return min(index + 1, bytes.count)
    }

    func matches(_ decoded: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        offset >= 0 && offset + decoded.count <= bytes.count
            && bytes[offset..<offset + decoded.count].elementsEqual(decoded)
    }

    /// Lines up text that libxml2 delivered without decoding any reference with the source
    /// starting at `offset`. Bytes match one for one, except that XML's end-of-line handling
    /// drops the CR of a CR LF (that CR maps to nothing) and turns a lone CR into LF (which still
    /// maps byte for byte). Returns the verbatim pieces and the offset just after the text, or
    /// nil when the text is not a copy of the source there.
    func alignVerbatim(_ decoded: UnsafeBufferPointer<UInt8>, at offset: Int) -> (pieces: [SourceMap.Piece], end: Int)? {
        var pieces: [SourceMap.Piece] = []
        var sourceIndex = offset
        var textIndex = 0
        var pieceStart = 0
        func closePiece() {
            guard textIndex > pieceStart else { return }
            let length = textIndex - pieceStart
            pieces.append(SourceMap.Piece(textOffset: pieceStart, textLength: length,
                                          source: SourceRange(offset: sourceIndex - length, length: length)))
        }
        while textIndex < decoded.count {
            guard let sourceByte = byte(at: sourceIndex) else { return nil }
            let textByte = decoded[textIndex]
            if sourceByte == textByte || (sourceByte == .carriageReturn && textByte == .lineFeed && byte(at: sourceIndex + 1) != .lineFeed) {
                sourceIndex += 1
                textIndex += 1
            } else if sourceByte == .carriageReturn && textByte == .lineFeed {
                closePiece()
                sourceIndex += 1  // the dropped CR of a CR LF
                pieceStart = textIndex
            } else {
                return nil
            }
        }
        closePiece()
        return (pieces, sourceIndex)
    }
}

extension UInt8 {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let lessThan = UInt8(ascii: "<")
    static let slash = UInt8(ascii: "/")
    static let ampersand = UInt8(ascii: "&")
    static let semicolon = UInt8(ascii: ";")

    var isUTF8Continuation: Bool { self & 0xC0 == 0x80 }
}
