// The parsed form of one speech request: what to say, in order, and how to say it.
// Engines render a SpeechProgram; nothing outside this module looks at SSML markup.

/// A range of UTF-8 bytes in the request text exactly as the client sent it.
/// Markers report these offsets, so a client can highlight the words being spoken.
public struct SourceRange: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var offset: Int
    public var length: Int
    public init(offset: Int, length: Int) {
        self.offset = offset
        self.length = length
    }
    public var end: Int { offset + length }
    public var description: String { "\(offset)+\(length)" }
}

/// One request, parsed.
public struct SpeechProgram: Sendable, Equatable {
    public var items: [SpeechItem]
    /// `xml:lang` of `<speak>`, if given.
    public var language: String?

    public init(items: [SpeechItem], language: String? = nil) {
        self.items = items
        self.language = language
    }
}

public enum SpeechItem: Sendable, Equatable {
    /// Words to speak in one style.
    case text(TextRun)
    /// `<break>`: silence of this many seconds.
    case pause(seconds: Double, source: SourceRange)
    /// `<mark name>`: a bookmark at this point of the audio.
    case mark(name: String, source: SourceRange)
    /// The start of a `<p>` or `<s>`: the engine ends the sentence before it, and reports it.
    case boundary(Boundary, source: SourceRange)
    /// `<audio src>`: a local sound file, with the items to speak instead when it cannot be played.
    case audio(AudioClip)
}

public enum Boundary: String, Sendable, Equatable {
    case paragraph, sentence
}

public struct AudioClip: Sendable, Equatable {
    /// A local file path (a `file://` URL is turned into its path; relative paths stay relative
    /// to the current directory of whoever plays it).
    public var path: String
    public var fallback: [SpeechItem]
    public var style: Style
    public var source: SourceRange
    public init(path: String, fallback: [SpeechItem], style: Style, source: SourceRange) {
        self.path = path
        self.fallback = fallback
        self.style = style
        self.source = source
    }
}

/// Text spoken in one style.
public struct TextRun: Sendable, Equatable {
    /// What the engine should say: the text content with entities decoded, or the words that
    /// `<say-as>` and `<sub>` stand for.
    public var text: String
    /// Where `text` came from in the request, piece by piece.
    public var sourceMap: SourceMap
    public var style: Style
    /// `<phoneme>`: the pronunciation to use instead of reading `text`.
    public var phonemes: Phonemes?
    /// `<say-as>` with `interpret-as="characters"` or `"spell-out"`: speak letter by letter
    /// (`text` already holds the characters separated by spaces).
    public var spellOut: Bool

    public init(text: String, sourceMap: SourceMap, style: Style, phonemes: Phonemes? = nil, spellOut: Bool = false) {
        self.text = text
        self.sourceMap = sourceMap
        self.style = style
        self.phonemes = phonemes
        self.spellOut = spellOut
    }

    /// The request range that the UTF-8 bytes `range` of `text` came from.
    public func source(ofTextBytes range: Range<Int>) -> SourceRange {
        sourceMap.source(of: range)
    }
}

public struct Phonemes: Sendable, Equatable {
    public var alphabet: String  // "ipa", or an engine's own ("x-espeak")
    public var symbols: String
    public init(alphabet: String, symbols: String) {
        self.alphabet = alphabet
        self.symbols = symbols
    }
}

/// Maps UTF-8 byte offsets of a run's `text` back to the request.
/// Text copied verbatim maps byte for byte; a decoded entity (`&amp;`), or words that stand for
/// markup (`<sub alias>`, `<say-as>`), map as a whole to the markup they came from.
public struct SourceMap: Sendable, Equatable {
    public struct Piece: Sendable, Equatable {
        /// Offset of this piece in the run's text (UTF-8 bytes).
        public var textOffset: Int
        public var textLength: Int
        public var source: SourceRange
        public init(textOffset: Int, textLength: Int, source: SourceRange) {
            self.textOffset = textOffset
            self.textLength = textLength
            self.source = source
        }
        /// Verbatim pieces map byte for byte.
        public var isVerbatim: Bool { textLength == source.length }
    }
    public var pieces: [Piece]
    public init(pieces: [Piece] = []) { self.pieces = pieces }

    /// One piece covering the whole text.
    public init(text: String, source: SourceRange) {
        pieces = [Piece(textOffset: 0, textLength: text.utf8.count, source: source)]
    }

    public func source(of range: Range<Int>) -> SourceRange {
        guard let first = pieces.first, let last = pieces.last else { return SourceRange(offset: 0, length: 0) }
        let start = location(of: range.lowerBound, end: false) ?? first.source.offset
        let end = location(of: max(range.upperBound, range.lowerBound), end: true) ?? last.source.end
        return SourceRange(offset: start, length: max(0, end - start))
    }

    private func location(of textOffset: Int, end: Bool) -> Int? {
        for piece in pieces {
            let inside = end
                ? (textOffset > piece.textOffset && textOffset <= piece.textOffset + piece.textLength)
                : (textOffset >= piece.textOffset && textOffset < piece.textOffset + piece.textLength)
            guard inside else { continue }
            if piece.isVerbatim { return piece.source.offset + (textOffset - piece.textOffset) }
            return end ? piece.source.end : piece.source.offset
        }
        return nil
    }
}

/// How a run is spoken. Multipliers are relative to the voice's defaults (1 = unchanged) and
/// compose by multiplication through nested `<prosody>`.
public struct Style: Sendable, Equatable {
    public var language: String?
    public var voice: VoiceSelection
    /// Speaking rate multiplier (2 = twice as fast).
    public var rate: Double
    /// Multiplier of the voice's base pitch.
    public var pitch: Double
    /// An absolute base pitch in Hz (`pitch="150Hz"`), further scaled by `pitch`.
    public var pitchHz: Double?
    /// Multiplier of the voice's pitch range (intonation), 0 = monotone.
    public var pitchRange: Double
    /// Linear amplitude gain (0 = silent, 2 = +6 dB).
    public var volume: Double
    public var emphasis: Emphasis?

    public init(language: String? = nil, voice: VoiceSelection = VoiceSelection(), rate: Double = 1, pitch: Double = 1,
                pitchHz: Double? = nil, pitchRange: Double = 1, volume: Double = 1, emphasis: Emphasis? = nil) {
        self.language = language
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.pitchHz = pitchHz
        self.pitchRange = pitchRange
        self.volume = volume
        self.emphasis = emphasis
    }
}

public enum Emphasis: String, Sendable, Equatable {
    case strong, moderate, none, reduced
}

/// `<voice>` attributes. An empty selection means the request's default voice.
public struct VoiceSelection: Sendable, Equatable {
    public var name: String?
    public var gender: String?   // "male", "female", "neutral"
    public var age: Int?
    public var variant: Int?
    public var languages: [String]
    public init(name: String? = nil, gender: String? = nil, age: Int? = nil, variant: Int? = nil, languages: [String] = []) {
        self.name = name
        self.gender = gender
        self.age = age
        self.variant = variant
        self.languages = languages
    }
    public var isEmpty: Bool { name == nil && gender == nil && age == nil && variant == nil && languages.isEmpty }
}

/// An SSML document that cannot be spoken: where it goes wrong and why.
public struct SSMLError: Error, Equatable, CustomStringConvertible, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        // One line: libxml2 quotes the input in some messages (an unfinished CDATA section).
        self.message = message.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }
    public var description: String { "SSML line \(line), column \(column): \(message)" }
}
