import LV2Host
import SSML

/// Cuts a request that switches engines (`<voice name="spk.flite.slt">` inside an espeak-ng
/// request) into parts that follow each other, one per stretch of one engine.
///
/// A part is the whole request with every other part's content blanked out: text becomes
/// spaces, `<break>`, `<mark>`, `<audio>`, `<sub>` and `<say-as>` become comments of the same
/// length. Its own content keeps every byte offset and all of its context (prosody, language,
/// `<p>` and `<s>`), so its markers point into the request as sent, with no mapping. A part
/// other than the last gets an end mark, `<mark name="spk-part-end"/>`, after its last item: the
/// host starts the next part at that mark's frame. Each part is parsed back and its items
/// compared with the request's before it is used.
enum RequestParts {
    static let endMarkName = "spk-part-end"

    /// The synth plugin that speaks `voice`: `spk.<engine>.<name>` belongs to
    /// `urn:spk:synth:<engine>`; anything else (or nil) to `fallback`.
    static func synth(forVoice voice: String?, fallback: String) -> String {
        guard let voice, voice.hasPrefix("spk.") else { return fallback }
        let engine = voice.dropFirst(4).prefix { $0 != "." }
        return engine.isEmpty ? fallback : GraphSpec.synthPrefix + engine
    }

    /// The parts of `request`; one part, the request itself, when it uses one engine or does
    /// not parse (the synth then reports the error as usual).
    static func split(_ request: String, defaultVoice: String?, defaultSynth: String) throws -> [SpeechPart] {
        guard let program = try? SSMLParser.parse(request) else {
            return [SpeechPart(synth: defaultSynth, ssml: request, voice: defaultVoice)]
        }
        let items = program.items
        let groups = stretches(of: items, defaultSynth: defaultSynth)
        func voice(of group: Stretch) -> String? {
            if group.synth == defaultSynth { return defaultVoice }
            return items[group.items].lazy.compactMap(\.voiceName).first { synth(forVoice: $0, fallback: defaultSynth) == group.synth }
        }
        guard groups.count > 1 else { return [SpeechPart(synth: groups[0].synth, ssml: request, voice: voice(of: groups[0]))] }

        let bytes = Array(request.utf8)
        return try groups.enumerated().map { k, group in
            var part = PartText(bytes)
            var ignored = Set<Int>()
            for (i, item) in items.enumerated() where !group.items.contains(i) {
                if case .boundary(_, let source) = item { ignored.insert(source.offset) } else { part.blank(item) }
            }
            let own = Array(items[group.items])
            let ownStart = own.compactMap(\.sourceStart).min() ?? 0
            let ownEnd = own.compactMap(\.sourceEnd).max() ?? ownStart
            if k + 1 == groups.count {
                if (try? part.verify(own, from: ownStart, endMark: nil)) != nil {
                    return SpeechPart(synth: group.synth, ssml: part.text, voice: voice(of: group), ignoredOffsets: ignored)
                }
            } else {
                let nextStart = items[groups[k + 1].items].compactMap(\.sourceStart).min() ?? ownEnd
                for candidate in part.markPositions(from: ownEnd, to: nextStart) {
                    var marked = part
                    marked.insert("<mark name=\"\(endMarkName)\"/>", at: candidate)
                    if (try? marked.verify(own, from: ownStart, endMark: candidate)) != nil {
                        return SpeechPart(synth: group.synth, ssml: marked.text, voice: voice(of: group), endMark: candidate,
                                          ignoredOffsets: ignored)
                    }
                }
            }
            throw HostError("cannot cut the request exactly where it changes engine (bytes \(ownStart)..<\(ownEnd)); "
                            + "put each voice's text in its own <voice> element")
        }
    }

    /// A range of items spoken by one synth.
    private typealias Stretch = (synth: String, items: Range<Int>)

    /// Consecutive items by engine. Breaks, marks, `<p>`, `<s>` and blank text go with the speech
    /// before them (at the start, with the first).
    private static func stretches(of items: [SpeechItem], defaultSynth: String) -> [Stretch] {
        var stretches: [Stretch] = []
        var current: String?
        var start = 0
        for (i, item) in items.enumerated() {
            guard item.isSpoken else { continue }
            let engine = synth(forVoice: item.voiceName, fallback: defaultSynth)
            if let current, engine != current {
                stretches.append((current, start..<i))
                start = i
            }
            current = engine
        }
        stretches.append((current ?? defaultSynth, start..<items.count))
        return stretches
    }
}

/// A part's text as bytes, blanked and marked in place.
private struct PartText {
    var bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Removes an item of another part without moving any byte.
    mutating func blank(_ item: SpeechItem) {
        switch item {
        case .text(let run):
            for piece in run.sourceMap.pieces {
                // Character data and entity references become spaces; `<sub>`, `<say-as>` (which
                // map as a whole) become comments.
                if !piece.isVerbatim && bytes[piece.source.offset] == UInt8(ascii: "<") {
                    comment(piece.source.offset..<piece.source.end)
                } else {
                    spaces(piece.source.offset..<piece.source.end)
                }
            }
        case .pause(_, let tag), .mark(_, let tag):
            comment(tag.offset..<endOfEmptyElement(startTag: tag))
        case .audio(let clip):
            comment(clip.source.offset..<clip.source.end)
        case .boundary:
            break  // cannot go without its end tag; its pause never sounds in this part
        }
    }

    /// `<break/>` ends with its tag; `<break></break>` at its end tag.
    private func endOfEmptyElement(startTag: SourceRange) -> Int {
        guard startTag.length >= 2, bytes[startTag.end - 2] != UInt8(ascii: "/") else { return startTag.end }
        var i = startTag.end
        while i + 1 < bytes.count, !(bytes[i] == UInt8(ascii: "<") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
        while i < bytes.count, bytes[i] != UInt8(ascii: ">") { i += 1 }
        return min(i + 1, bytes.count)
    }

    private mutating func spaces(_ range: Range<Int>) {
        for i in range where bytes[i] != UInt8(ascii: "\n") { bytes[i] = UInt8(ascii: " ") }
    }

    private mutating func comment(_ range: Range<Int>) {
        guard range.count >= 7 else { return spaces(range) }
        spaces(range)
        bytes.replaceSubrange(range.lowerBound..<range.lowerBound + 4, with: Array("<!--".utf8))
        bytes.replaceSubrange(range.upperBound - 3..<range.upperBound, with: Array("-->".utf8))
    }

    mutating func insert(_ markup: String, at offset: Int) {
        bytes.insert(contentsOf: Array(markup.utf8), at: offset)
    }

    /// Where an end mark may go: right after the part's last item, after each tag that follows,
    /// or where the next part starts. The first that parses back exactly is used.
    func markPositions(from end: Int, to next: Int) -> [Int] {
        var positions = [end]
        if end < next {
            for i in end..<next where bytes[i] == UInt8(ascii: ">") { positions.append(i + 1) }
            positions.append(next)
        }
        return positions.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// Parses the part back: from `start` (up to the end mark) it must hold exactly the part's
    /// own items, text compared without the whitespace at its edges, then the end mark.
    func verify(_ own: [SpeechItem], from start: Int, endMark: Int?) throws {
        let parsed = try SSMLParser.parse(text).items
        let window = parsed.compactMap(\.essence).filter { $0.start >= start && $0.start < (endMark ?? Int.max) }
        guard window.map(\.value) == own.compactMap(\.essence).map(\.value) else {
            throw HostError("the part does not read back as the request's items")
        }
        if let endMark {
            guard parsed.contains(where: { if case .mark(RequestParts.endMarkName, let s) = $0 { s.offset == endMark } else { false } }) else {
                throw HostError("the end mark did not read back")
            }
        }
    }
}

extension SpeechItem {
    /// Text to say or a sound to play: what needs an engine.
    var isSpoken: Bool {
        switch self {
        case .text(let run): !run.text.allSatisfy(\.isWhitespace)
        case .audio: true
        default: false
        }
    }

    /// The `<voice name>` the item is spoken with, if any.
    var voiceName: String? {
        switch self {
        case .text(let run): run.style.voice.name
        case .audio(let clip): clip.style.voice.name
        default: nil
        }
    }

    var sourceStart: Int? {
        switch self {
        case .text(let run): run.sourceMap.pieces.first?.source.offset
        case .pause(_, let s), .mark(_, let s), .boundary(_, let s): s.offset
        case .audio(let clip): clip.source.offset
        }
    }

    var sourceEnd: Int? {
        switch self {
        case .text(let run): run.sourceMap.pieces.map(\.source.end).max()
        case .pause(_, let s), .mark(_, let s), .boundary(_, let s): s.end
        case .audio(let clip): clip.source.end
        }
    }

    /// What must match between a part and the request: items as they are, except text, whose
    /// whitespace at the edges (which blanking may add to) is left out; blank text not at all.
    fileprivate var essence: Essence? {
        guard case .text(let run) = self else { return sourceStart.map { Essence(start: $0, value: .item(self)) } }
        let bytes = Array(run.text.utf8)
        let isSpace = { (b: UInt8) in b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return nil }
        let source = run.source(ofTextBytes: first..<last + 1)
        return Essence(start: source.offset, value: .text(String(decoding: bytes[first...last], as: UTF8.self), source,
                                                           run.style, run.phonemes, run.spellOut))
    }
}

/// An item as a part must reproduce it, and where it starts in the request.
private struct Essence {
    enum Value: Equatable {
        case item(SpeechItem)
        case text(String, SourceRange, Style, Phonemes?, Bool)
    }
    var start: Int
    var value: Value
}
