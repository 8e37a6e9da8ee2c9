import Glibc
import SSML

/// The SSML spk speaks for a message from the server.
public struct MessageText: Equatable, Sendable {
    public var ssml: String
    /// Why the client's markup was not used as it came (it is then spoken as plain text): for
    /// the log.
    public var problem: String?

    public init(ssml: String, problem: String? = nil) {
        self.ssml = ssml
        self.problem = problem
    }

    /// `body` is what followed SPEAK/CHAR/KEY/SOUND_ICON; `soundIcons` the directory holding
    /// sound icon files.
    public static func make(_ kind: MessageKind, _ body: String, settings: ModuleSettings,
                            mapping: ProsodyMapping = ProsodyMapping(), soundIcons: String? = nil) -> MessageText {
        switch kind {
        case .text: return text(body, settings: settings, mapping: mapping)
        case .char: return MessageText(ssml: speak(character(body, settings: settings)))
        case .key: return MessageText(ssml: speak(key(body)))
        case .soundIcon: return MessageText(ssml: speak(soundIcon(body, directory: soundIcons)))
        }
    }

    /// A SPEAK message: the client's SSML through spk's own parser; markup that does not parse
    /// is spoken as plain text (clients send sloppy markup) and the problem reported.
    static func text(_ body: String, settings: ModuleSettings, mapping: ProsodyMapping) -> MessageText {
        var problem: String?
        var inner: String
        if isMarkup(body) {
            do {
                _ = try SSMLParser.parse(body)
                let range = mapping.rangePercent(settings.pitchRange)
                guard range != 0, let wrapped = wrapContent(of: body, open: "<prosody range=\"\(range >= 0 ? "+" : "")\(range)%\">", close: "</prosody>") else {
                    return MessageText(ssml: body)
                }
                return MessageText(ssml: wrapped)
            } catch {
                problem = "\(error)"
                inner = XMLEscape.text(body)
            }
        } else {
            inner = XMLEscape.text(body)
        }
        if settings.spelling { inner = "<say-as interpret-as=\"characters\">\(inner)</say-as>" }
        let range = mapping.rangePercent(settings.pitchRange)
        if range != 0 { inner = "<prosody range=\"\(range >= 0 ? "+" : "")\(range)%\">\(inner)</prosody>" }
        return MessageText(ssml: speak(inner), problem: problem)
    }

    static func isMarkup(_ body: String) -> Bool {
        body.unicodeScalars.first { !$0.properties.isWhitespace && $0 != "\u{FEFF}" } == "<"
    }

    /// Puts `open`/`close` just inside the document's `<speak>` element.
    static func wrapContent(of document: String, open: String, close: String) -> String? {
        guard let start = document.firstRange(of: "<speak"), let tagEnd = document[start.upperBound...].firstIndex(of: ">"),
              document[document.index(before: tagEnd)] != "/",
              let end = document.ranges(of: "</speak>").last else { return nil }
        let contentStart = document.index(after: tagEnd)
        return String(document[..<contentStart]) + open + document[contentStart..<end.lowerBound] + close + document[end.lowerBound...]
    }

    /// CHAR: one character, read as a character; "space" is how the server sends a space.
    /// With capital-letter recognition on, a capital letter is said as such.
    static func character(_ body: String, settings: ModuleSettings) -> String {
        if body == "space" || body == " " { return "space" }
        let capital = settings.capitalLetters != .none && body.count == 1 && body.first!.isUppercase
        let said = "<say-as interpret-as=\"characters\">\(XMLEscape.text(body))</say-as>"
        return capital ? "capital " + said : said
    }

    /// KEY: SSIP key names ("a", "shift_a", "control_alt_delete", "kp-enter", "double-quote").
    static func key(_ body: String) -> String {
        if body.count == 1 { return "<say-as interpret-as=\"characters\">\(XMLEscape.text(body))</say-as>" }
        let parts = body.split(separator: "_").map { part -> String in
            part.count == 1 ? "<say-as interpret-as=\"characters\">\(XMLEscape.text(String(part)))</say-as>"
                : XMLEscape.text(String(part).replacing("-", with: " "))
        }
        return parts.joined(separator: " ")
    }

    /// SOUND_ICON: the icon's file where there is one, else its name spoken.
    static func soundIcon(_ name: String, directory: String?) -> String {
        let spoken = XMLEscape.text(name.replacing("_", with: " ").replacing("-", with: " "))
        guard let directory, !name.contains("/"), !name.isEmpty else { return spoken }
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        guard access(path, R_OK) == 0 else { return spoken }
        return "<audio src=\"\(XMLEscape.attribute(path))\">\(spoken)</audio>"
    }

    static func speak(_ inner: String) -> String { "<speak>\(inner)</speak>" }
}
