// `<break>`: how long a pause its `time` or `strength` asks for.

enum BreakDuration {
    /// A `<break/>` without attributes.
    static let medium = 0.5
    /// The longest break a request may ask for (`SSMLLimits.maxBreakSeconds`).
    static let maximum = SSMLLimits.maxBreakSeconds

    /// "1s", "500ms", "1.5s".
    static func seconds(time text: String) throws(ValueError) -> Double {
        guard let quantity = Quantity(text), quantity.sign == .none else {
            throw ValueError("time \"\(text)\" is not valid: expected a duration such as \"1s\" or \"500ms\"")
        }
        let seconds: Double
        switch quantity.unit {
        case "s": seconds = quantity.magnitude
        case "ms": seconds = quantity.magnitude / 1000
        default: throw ValueError("time \"\(text)\" is not valid: a duration needs the unit \"s\" or \"ms\"")
        }
        // Checked here, before anything turns it into frames: a huge time overflows Int.
        guard seconds.isFinite, seconds <= maximum else {
            throw ValueError("time \"\(text)\" is too long: a break may last at most \(Int(maximum)) s")
        }
        return seconds
    }

    static func seconds(strength text: String) throws(ValueError) -> Double {
        switch text.trimmingWhitespace.lowercased() {
        case "none": return 0
        case "x-weak": return 0.1
        case "weak": return 0.25
        case "medium": return medium
        case "strong": return 0.8
        case "x-strong": return 1.2
        default:
            throw ValueError("strength \"\(text)\" is not valid: expected none, x-weak, weak, medium, strong or x-strong")
        }
    }
}
