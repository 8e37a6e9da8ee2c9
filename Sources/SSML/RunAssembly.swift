// Building text runs out of pieces of text, and joining neighbouring runs of the same style.

extension SourceMap {
    /// Adds the pieces of text that follows `offset` bytes of earlier text. A verbatim piece that
    /// continues the previous one in both the text and the request extends it.
    mutating func append(_ newPieces: [Piece], after offset: Int) {
        for var piece in newPieces {
            piece.textOffset += offset
            if let last = pieces.last, last.isVerbatim, piece.isVerbatim,
               last.textOffset + last.textLength == piece.textOffset, last.source.end == piece.source.offset {
                pieces[pieces.count - 1].textLength += piece.textLength
                pieces[pieces.count - 1].source.length += piece.source.length
            } else {
                pieces.append(piece)
            }
        }
    }
}

/// Text gathered piece by piece, with where each piece came from.
struct TextCollector {
    var text = ""
    var sourceMap = SourceMap()

    mutating func append(_ more: String, pieces: [SourceMap.Piece]) {
        sourceMap.append(pieces, after: text.utf8.count)
        text += more
    }
}

extension TextRun {
    /// Plain runs in the same style read as one; phonemes and spelling apply to a whole run.
    func canJoin(_ next: TextRun) -> Bool {
        style == next.style && phonemes == nil && next.phonemes == nil && !spellOut && !next.spellOut
    }

    mutating func join(_ next: TextRun) {
        sourceMap.append(next.sourceMap.pieces, after: text.utf8.count)
        text += next.text
    }
}
