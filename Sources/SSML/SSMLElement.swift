// The SSML 1.1 elements spk understands, and the attributes each accepts.

enum SSMLElement: String {
    case speak, p, s, `break`, prosody, emphasis, sayAs = "say-as", sub, phoneme, voice, lang, mark, audio
    case desc, lexicon, meta, metadata, token, w

    /// SSML elements are written without a namespace or in SSML's own.
    init?(_ element: XMLElementStart) {
        guard element.namespaceURI == nil || element.namespaceURI == XMLNamespace.ssml else { return nil }
        self.init(rawValue: element.localName)
    }

    var tag: String { "<\(rawValue)>" }

    /// Elements accepted and ignored, together with everything inside them.
    var isSkipped: Bool {
        switch self {
        case .desc, .lexicon, .meta, .metadata: return true
        default: return false
        }
    }

    /// The attributes without a namespace that SSML 1.1 defines for the element. Those spk does
    /// not use are accepted and ignored (see `SSMLParser`); any other is an error, which catches
    /// misspellings such as `<break tiem="1s"/>`. Attributes in other namespaces are ignored.
    var attributes: Set<String> {
        switch self {
        case .speak: return ["version", "onlangfailure"]
        case .p, .s, .lang: return ["onlangfailure"]
        case .break: return ["time", "strength"]
        case .prosody: return ["rate", "pitch", "range", "volume", "contour", "duration"]
        case .emphasis: return ["level"]
        case .sayAs: return ["interpret-as", "format", "detail"]
        case .sub: return ["alias"]
        case .phoneme: return ["ph", "alphabet", "type"]
        case .voice: return ["name", "gender", "age", "variant", "languages", "required", "ordering", "onvoicefailure"]
        case .mark: return ["name"]
        case .audio: return ["src", "fetchtimeout", "fetchhint", "maxage", "maxstale", "clipBegin", "clipEnd",
                             "repeatCount", "repeatDur", "soundLevel", "speed"]
        case .token, .w: return ["role", "onlangfailure"]
        case .desc, .lexicon, .meta, .metadata: return []  // skipped, never checked
        }
    }
}
