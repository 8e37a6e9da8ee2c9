// Gives SSML's meaning to the elements and text the XML layer reports, building a SpeechProgram.

final class ProgramBuilder: XMLContentHandler {
    private let source: SourceText
    private var openElements: [OpenElement] = []
    /// The program's items, then one list for each open `<audio>` (its fallback content).
    private var itemLists: [[SpeechItem]] = [[]]
    /// Depth inside an element whose content is ignored (`<desc>`, `<metadata>`, ...).
    private var skippedDepth = 0
    private var language: String?
    /// Set when a `<p>` or `<s>` ends: the text after it starts a new run, not the sentence's.
    private var sentenceEnded = false

    private struct OpenElement {
        var element: SSMLElement
        /// The style of the element's content.
        var style: Style
        var content: Content
        var startTag: SourceRange
    }

    private enum Content {
        /// Text and elements.
        case mixed
        /// `<break/>`, `<mark/>`.
        case empty
        /// `<say-as>`, `<sub>`, `<phoneme>`: text only, spoken when the element ends.
        case textOnly(TextOnly, TextCollector)
        /// Its content is the fallback, gathered in its own item list.
        case audio(path: String, style: Style)
    }

    private enum TextOnly {
        case sayAs(interpretAs: String, format: String?)
        case sub(alias: String)
        case phoneme(Phonemes)
    }

    init(source: SourceText) {
        self.source = source
    }

    var program: SpeechProgram {
        SpeechProgram(items: itemLists[0], language: language)
    }

    // MARK: - XMLContentHandler

    func startElement(_ start: XMLElementStart) throws(SSMLError) {
        if skippedDepth > 0 {
            skippedDepth += 1
            return
        }
        let at = start.startTag.offset
        guard let element = SSMLElement(start) else {
            let namespace = start.namespaceURI.map { " (namespace \"\($0)\")" } ?? ""
            throw source.error(at: at, "unknown element <\(start.qualifiedName)>\(namespace)")
        }
        try checkPlacement(of: element, at: at)
        if element.isSkipped {
            skippedDepth = 1
            return
        }
        for attribute in start.attributes where attribute.namespaceURI == nil && !element.attributes.contains(attribute.localName) {
            throw source.error(at: at, "unknown attribute \"\(attribute.localName)\" on \(element.tag)")
        }
        var style = openElements.last?.style ?? Style()
        if let lang = start.xmlLang {
            style.language = lang.isEmpty ? nil : lang
        }
        do {
            let content = try beginElement(element, start, style: &style)
            openElements.append(OpenElement(element: element, style: style, content: content, startTag: start.startTag))
        } catch {
            throw source.error(at: at, "\(element.tag): \(error.message)")
        }
    }

    func endElement(_ range: SourceRange) throws(SSMLError) {
        if skippedDepth > 0 {
            skippedDepth -= 1
            return
        }
        guard let open = openElements.popLast() else { return }
        switch open.content {
        case .mixed where open.element == .p || open.element == .s:
            sentenceEnded = true
        case .mixed, .empty:
            break
        case .textOnly(let kind, let collected):
            if let run = textOnlyRun(kind, collected, style: open.style, element: range) {
                append(run)
            }
        case .audio(let path, let style):
            let fallback = itemLists.removeLast()
            append(.audio(AudioClip(path: path, fallback: fallback, style: style, source: range)))
        }
    }

    func text(_ text: String, pieces: [SourceMap.Piece]) throws(SSMLError) {
        guard skippedDepth == 0, let open = openElements.last else { return }
        switch open.content {
        case .mixed, .audio:
            append(TextRun(text: text, sourceMap: SourceMap(pieces: pieces), style: open.style))
        case .empty:
            guard text.isBlank else {
                throw source.error(at: open.startTag.offset, "\(open.element.tag) must be empty")
            }
        case .textOnly(let kind, var collected):
            collected.append(text, pieces: pieces)
            openElements[openElements.count - 1].content = .textOnly(kind, collected)
        }
    }

    // MARK: - Elements

    /// Reads the element's attributes: adds its items, changes the style of its content, and
    /// says what its content is.
    private func beginElement(_ element: SSMLElement, _ start: XMLElementStart, style: inout Style) throws(ValueError) -> Content {
        switch element {
        case .speak:
            language = style.language
            return .mixed
        case .p, .s:
            append(.boundary(element == .p ? .paragraph : .sentence, source: start.startTag))
            return .mixed
        case .break:
            let seconds: Double
            if let time = start.attribute("time") {
                seconds = try BreakDuration.seconds(time: time)
            } else if let strength = start.attribute("strength") {
                seconds = try BreakDuration.seconds(strength: strength)
            } else {
                seconds = BreakDuration.medium
            }
            append(.pause(seconds: seconds, source: start.startTag))
            return .empty
        case .prosody:
            if let rate = start.attribute("rate") { style.change(rate: try ProsodyValues.rate(rate)) }
            if let pitch = start.attribute("pitch") { try style.change(pitch: try ProsodyValues.pitch(pitch), written: pitch) }
            if let range = start.attribute("range") { try style.change(pitchRange: try ProsodyValues.range(range), written: range) }
            if let volume = start.attribute("volume") { style.change(volume: try ProsodyValues.volume(volume)) }
            return .mixed
        case .emphasis:
            style.emphasis = try VoiceAttributes.emphasis(start.attribute("level"))
            return .mixed
        case .voice:
            style.voice = try VoiceAttributes.selection(start)
            return .mixed
        case .lang:
            guard start.xmlLang != nil else { throw missing("xml:lang") }
            return .mixed
        case .token, .w:
            return .mixed
        case .mark:
            guard let name = start.attribute("name"), !name.isEmpty else { throw missing("name") }
            append(.mark(name: name, source: start.startTag))
            return .empty
        case .sayAs:
            guard let interpretAs = start.attribute("interpret-as") else { throw missing("interpret-as") }
            let format = start.attribute("format")
            try SayAs.validate(interpretAs: interpretAs, format: format)
            return .textOnly(.sayAs(interpretAs: interpretAs, format: format), TextCollector())
        case .sub:
            guard let alias = start.attribute("alias") else { throw missing("alias") }
            return .textOnly(.sub(alias: alias), TextCollector())
        case .phoneme:
            guard let symbols = start.attribute("ph"), !symbols.isBlank else { throw missing("ph") }
            guard symbols.unicodeScalars.count <= SSMLLimits.maxPhonemeCharacters else {
                throw ValueError("ph has \(symbols.unicodeScalars.count) characters: a phoneme string may have at most \(SSMLLimits.maxPhonemeCharacters)")
            }
            let alphabet = start.attribute("alphabet")?.trimmingWhitespace ?? ""
            let phonemes = Phonemes(alphabet: alphabet.isEmpty ? "ipa" : alphabet, symbols: symbols)
            return .textOnly(.phoneme(phonemes), TextCollector())
        case .audio:
            guard let src = start.attribute("src") else { throw missing("src") }
            var clipStyle = style
            if let level = start.attribute("soundLevel") { clipStyle.volume *= try AudioSource.soundLevel(level) }
            let path = try AudioSource.localPath(src)
            itemLists.append([])
            return .audio(path: path, style: clipStyle)
        case .desc, .lexicon, .meta, .metadata:
            return .mixed  // skipped before their attributes are read
        }
    }

    private func missing(_ attribute: String) -> ValueError {
        ValueError("the attribute \"\(attribute)\" is required")
    }

    /// Where SSML allows the element, as far as spk relies on it.
    private func checkPlacement(of element: SSMLElement, at offset: Int) throws(SSMLError) {
        guard let parent = openElements.last else {
            guard element == .speak else {
                throw source.error(at: offset, "the root element must be <speak>, not \(element.tag)")
            }
            return
        }
        let problem: String?
        switch (parent.content, element) {
        case (.textOnly, _): problem = "\(parent.element.tag) may contain only text, not \(element.tag)"
        case (.empty, _): problem = "\(parent.element.tag) must be empty"
        case (_, .speak): problem = "<speak> must be the root element"
        case (_, .desc) where parent.element != .audio: problem = "<desc> is only allowed inside <audio>"
        case (_, .p) where isOpen(.p) || isOpen(.s): problem = "<p> cannot be inside \(isOpen(.s) ? "<s>" : "<p>")"
        case (_, .s) where isOpen(.s): problem = "<s> cannot be inside <s>"
        default: problem = nil
        }
        if let problem { throw source.error(at: offset, problem) }
    }

    private func isOpen(_ element: SSMLElement) -> Bool {
        openElements.contains { $0.element == element }
    }

    // MARK: - Items

    /// The run for a finished `<say-as>`, `<sub>` or `<phoneme>`. The words of `<say-as>` and
    /// `<sub>` stand for the whole element; phoneme text is the element's own content.
    private func textOnlyRun(_ kind: TextOnly, _ collected: TextCollector, style: Style, element: SourceRange) -> TextRun? {
        switch kind {
        case .sayAs(let interpretAs, let format):
            let reading = SayAs.read(collected.text, interpretAs: interpretAs, format: format, language: style.language)
            guard !reading.text.isEmpty else { return nil }
            return TextRun(text: reading.text, sourceMap: SourceMap(text: reading.text, source: element), style: style,
                           spellOut: reading.spellOut)
        case .sub(let alias):
            guard !alias.isEmpty else { return nil }
            return TextRun(text: alias, sourceMap: SourceMap(text: alias, source: element), style: style)
        case .phoneme(let phonemes):
            let sourceMap = collected.text.isEmpty ? SourceMap(text: "", source: element) : collected.sourceMap
            return TextRun(text: collected.text, sourceMap: sourceMap, style: style, phonemes: phonemes)
        }
    }

    private func append(_ run: TextRun) {
        if !sentenceEnded, case .text(var previous) = itemLists[itemLists.count - 1].last, previous.canJoin(run) {
            previous.join(run)
            itemLists[itemLists.count - 1][itemLists[itemLists.count - 1].count - 1] = .text(previous)
        } else {
            append(.text(run))
        }
    }

    private func append(_ item: SpeechItem) {
        itemLists[itemLists.count - 1].append(item)
        sentenceEnded = false
    }
}
