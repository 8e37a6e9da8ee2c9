// `<say-as interpret-as>`: the words to speak for content of a given kind. Content that does
// not fit its kind is spoken as written, as SSML asks of processors.

/// What `<say-as>` content is spoken as.
struct SayAsReading: Equatable {
    var text: String
    /// Letter by letter (`interpret-as="characters"`).
    var spellOut: Bool = false
}

enum SayAs {
    /// Checks `format` against `interpret-as` when the start tag is read, so that a bad format
    /// is reported at the element.
    static func validate(interpretAs: String, format: String?) throws(ValueError) {
        guard let format else { return }
        switch normalized(interpretAs) {
        case "date":
            guard DateFormat(format) != nil else {
                throw ValueError("format \"\(format)\" is not a date format: expected mdy, dmy, ymd, md, dm, ym, my, y, m or d")
            }
        case "time":
            guard TimeFormat(rawValue: normalized(format)) != nil else {
                throw ValueError("format \"\(format)\" is not a time format: expected hms24 or hms12")
            }
        default:
            break
        }
    }

    /// `format` must have passed `validate`. `language` is the content's `xml:lang`.
    static func read(_ content: String, interpretAs: String, format: String?, language: String?) -> SayAsReading {
        let written = content.trimmingWhitespace
        let english = isEnglish(language)
        switch normalized(interpretAs) {
        case "characters", "spell-out", "verbatim":
            return SayAsReading(text: separated(written.filter { !$0.isWhitespace }), spellOut: true)
        case "cardinal", "number":
            return SayAsReading(text: cardinal(written) ?? written)
        case "ordinal":
            return SayAsReading(text: ordinal(written, english: english) ?? written)
        case "digits":
            let digits = written.filter { $0.isLetter || $0.isNumber }
            return SayAsReading(text: digits.isEmpty ? written : separated(digits))
        case "date":
            let dateFormat = format.flatMap(DateFormat.init) ?? DateFormat.guessed(for: written)
            return SayAsReading(text: SayAsDate.read(written, format: dateFormat, english: english) ?? written)
        case "time":
            let timeFormat = format.flatMap { TimeFormat(rawValue: normalized($0)) }
            return SayAsReading(text: SayAsTime.read(written, format: timeFormat, english: english) ?? written)
        case "telephone":
            return SayAsReading(text: telephone(written) ?? written)
        default:
            return SayAsReading(text: content)
        }
    }

    /// English unless `xml:lang` names another language.
    static func isEnglish(_ language: String?) -> Bool {
        guard let language = language?.lowercased(), !language.isEmpty else { return true }
        return language == "en" || language.hasPrefix("en-") || language.hasPrefix("en_")
    }

    /// "12,345" → "12345", "-1 234.5" → "-1234.5": grouping removed, sign and decimal point kept.
    static func cardinal(_ text: String) -> String? {
        let plain = text.filter { $0 != "," && !$0.isWhitespace }
        var rest = Substring(plain)
        if rest.first == "+" || rest.first == "-" { rest.removeFirst() }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else {
            return nil
        }
        return plain
    }

    /// "1" → "1st", "22" → "22nd", "11" → "11th"; in other languages "1.".
    static func ordinal(_ text: String, english: Bool) -> String? {
        let digits = text.filter { $0 != "," && !$0.isWhitespace }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return english ? digits + englishOrdinalSuffix(digits) : digits + "."
    }

    static func englishOrdinalSuffix(_ digits: String) -> String {
        let lastTwo = Int(String(digits.suffix(2))) ?? 0
        if (11...13).contains(lastTwo) { return "th" }
        switch lastTwo % 10 {
        case 1: return "st"
        case 2: return "nd"
        case 3: return "rd"
        default: return "th"
        }
    }

    /// "555-1234" → "5 5 5, 1 2 3 4": each group's characters one by one, a pause between groups.
    static func telephone(_ text: String) -> String? {
        let groups = text.split { !($0.isLetter || $0.isNumber) }.map(separated)
        guard !groups.isEmpty else { return nil }
        let spoken = groups.joined(separator: ", ")
        return text.first == "+" ? "+ " + spoken : spoken
    }

    private static func separated<S: StringProtocol>(_ characters: S) -> String {
        characters.map(String.init).joined(separator: " ")
    }

    private static func normalized(_ value: String) -> String {
        value.trimmingWhitespace.lowercased()
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
