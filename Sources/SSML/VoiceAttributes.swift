// `<voice>` and `<emphasis>` attributes as style values.

enum VoiceAttributes {
    /// The voice a `<voice>` element asks for; it needs at least one of its selecting attributes.
    static func selection(_ element: XMLElementStart) throws(ValueError) -> VoiceSelection {
        var voice = VoiceSelection()
        if let name = element.attribute("name")?.trimmingWhitespace, !name.isEmpty {
            voice.name = name
        }
        if let gender = element.attribute("gender") {
            let value = gender.trimmingWhitespace.lowercased()
            guard ["male", "female", "neutral"].contains(value) else {
                throw ValueError("gender \"\(gender)\" is not valid: expected male, female or neutral")
            }
            voice.gender = value
        }
        if let age = element.attribute("age") {
            guard let years = wholeNumber(age) else {
                throw ValueError("age \"\(age)\" is not valid: expected a whole number of years")
            }
            voice.age = years
        }
        if let variant = element.attribute("variant") {
            guard let number = wholeNumber(variant), number >= 1 else {
                throw ValueError("variant \"\(variant)\" is not valid: expected a whole number from 1")
            }
            voice.variant = number
        }
        if let languages = element.attribute("languages") {
            voice.languages = languages.whitespaceSeparated
        }
        guard !voice.isEmpty else {
            throw ValueError("needs at least one of name, gender, age, variant or languages")
        }
        return voice
    }

    static func emphasis(_ level: String?) throws(ValueError) -> Emphasis {
        guard let level else { return .moderate }
        guard let emphasis = Emphasis(rawValue: level.trimmingWhitespace.lowercased()) else {
            throw ValueError("level \"\(level)\" is not valid: expected strong, moderate, none or reduced")
        }
        return emphasis
    }

    private static func wholeNumber(_ text: String) -> Int? {
        let digits = text.trimmingWhitespace
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits)
    }
}
