// The values of `<prosody>`'s rate, pitch, range and volume attributes, parsed into changes
// to the enclosing style. Every form yields a change relative to the enclosing `<prosody>`, so
// nested elements compose by multiplication; the keyword "default" returns to the voice's own value.

import Glibc

/// A change to a multiplier (rate, volume).
enum ScaleChange: Equatable {
    case scale(Double)
    case reset
}

/// A change to the pitch or the pitch range, which may also be given in Hz.
enum PitchChange: Equatable {
    case scale(Double)
    case reset
    /// An absolute value ("150Hz").
    case hertz(Double)
    /// A change in Hz ("+20Hz", "-20Hz").
    case relativeHertz(Double)
}

enum ProsodyValues {
    static func rate(_ text: String) throws(ValueError) -> ScaleChange {
        let forms = "x-slow, slow, medium, fast, x-fast, default, a percentage (\"150%\", \"+10%\") or a positive number"
        switch keyword(text) {
        case "x-slow": return .scale(0.5)
        case "slow": return .scale(0.75)
        case "medium": return .scale(1)
        case "fast": return .scale(1.5)
        case "x-fast": return .scale(2)
        case "default": return .reset
        default: break
        }
        guard let quantity = Quantity(text) else { throw invalid("rate", text, expected: forms) }
        let factor: Double
        switch (quantity.unit, quantity.sign) {
        case ("%", .none): factor = quantity.magnitude / 100
        case ("%", _): factor = 1 + quantity.signedValue / 100
        case ("", .none): factor = quantity.magnitude
        case ("", .minus): throw ValueError("rate \"\(text)\" is negative: a rate must be greater than zero")
        default: throw invalid("rate", text, expected: forms)
        }
        guard factor > 0 else { throw ValueError("rate \"\(text)\" is not valid: a rate must be greater than zero") }
        return .scale(factor)
    }

    static func pitch(_ text: String) throws(ValueError) -> PitchChange {
        try pitchChange("pitch", text, allowingZero: false)
    }

    static func range(_ text: String) throws(ValueError) -> PitchChange {
        try pitchChange("range", text, allowingZero: true)
    }

    static func volume(_ text: String) throws(ValueError) -> ScaleChange {
        let forms = "silent, x-soft, soft, medium, loud, x-loud, default, decibels (\"+6dB\"), a percentage or a number from 0 to 100"
        switch keyword(text) {
        case "silent": return .scale(0)
        case "x-soft": return .scale(0.25)
        case "soft": return .scale(0.5)
        case "medium": return .scale(1)
        case "loud": return .scale(1.5)
        case "x-loud": return .scale(2)
        case "default": return .reset
        default: break
        }
        guard let quantity = Quantity(text) else { throw invalid("volume", text, expected: forms) }
        let factor: Double
        switch (quantity.unit, quantity.sign) {
        case ("db", _): factor = pow(10, quantity.signedValue / 20)
        case ("%", .none): factor = quantity.magnitude / 100
        case ("%", _): factor = 1 + quantity.signedValue / 100
        case ("", .none):  // SSML 1.0: 0 (silent) to 100 (loudest)
            guard quantity.magnitude <= 100 else {
                throw ValueError("volume \"\(text)\" is out of range: a plain number must be from 0 to 100")
            }
            factor = quantity.magnitude / 100
        default: throw invalid("volume", text, expected: forms)
        }
        guard factor >= 0 else { throw ValueError("volume \"\(text)\" is not valid: a volume cannot be below silent") }
        return .scale(factor)
    }

    private static func pitchChange(_ attribute: String, _ text: String, allowingZero: Bool) throws(ValueError) -> PitchChange {
        let forms = "x-low, low, medium, high, x-high, default, Hz (\"150Hz\", \"+20Hz\"), semitones (\"+2st\") or a percentage (\"+10%\")"
        switch keyword(text) {
        case "x-low": return .scale(0.7)
        case "low": return .scale(0.85)
        case "medium": return .scale(1)
        case "high": return .scale(1.15)
        case "x-high": return .scale(1.3)
        case "default": return .reset
        default: break
        }
        guard let quantity = Quantity(text) else { throw invalid(attribute, text, expected: forms) }
        let change: PitchChange
        switch (quantity.unit, quantity.sign) {
        case ("st", _): change = .scale(pow(2, quantity.signedValue / 12))
        case ("%", .none): change = .scale(quantity.magnitude / 100)
        case ("%", _): change = .scale(1 + quantity.signedValue / 100)
        case ("hz", .none): change = .hertz(quantity.magnitude)
        case ("hz", _): return .relativeHertz(quantity.signedValue)
        default: throw invalid(attribute, text, expected: forms)
        }
        switch change {
        case .scale(let value), .hertz(let value):
            if value < 0 || (value == 0 && !allowingZero) {
                throw ValueError("\(attribute) \"\(text)\" is not valid: the \(attribute) must be greater than zero")
            }
        default: break
        }
        return change
    }

    private static func keyword(_ text: String) -> String {
        text.trimmingWhitespace.lowercased()
    }

    private static func invalid(_ attribute: String, _ text: String, expected forms: String) -> ValueError {
        ValueError("\(attribute) \"\(text)\" is not valid: expected \(forms)")
    }
}
