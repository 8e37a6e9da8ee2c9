// The numeric attribute values of SSML: an optional sign, a decimal number and a unit,
// as in "+10%", "1.5s", "-3st", "150Hz", "500ms", "0.8".

/// A bad attribute value; the parser adds the element and its position.
struct ValueError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

struct Quantity: Equatable {
    enum Sign { case none, plus, minus }

    var sign: Sign
    /// The number without its sign.
    var magnitude: Double
    /// Lower-cased: "", "%", "st", "hz", "db", "s", "ms", ...
    var unit: String

    var isSigned: Bool { sign != .none }
    var signedValue: Double { sign == .minus ? -magnitude : magnitude }

    /// SSML numbers are plain decimals (`[0-9]+(\.[0-9]*)?|\.[0-9]+`): no exponent, no "inf".
    init?(_ text: String) {
        var rest = Substring(text.trimmingWhitespace)
        switch rest.first {
        case "+": sign = .plus; rest.removeFirst()
        case "-": sign = .minus; rest.removeFirst()
        default: sign = .none
        }
        let number = rest.prefix { ("0"..."9").contains($0) || $0 == "." }
        let points = number.filter { $0 == "." }.count
        guard number.count > points, points <= 1 else { return nil }
        // Spelled out in full so that ".5" and "5." read as Double does.
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts[0].isEmpty ? "0" : String(parts[0])
        let fraction = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : "0"
        guard let value = Double("\(whole).\(fraction)") else { return nil }
        magnitude = value
        unit = rest.dropFirst(number.count).lowercased()
        guard unit.allSatisfy({ $0 == "%" || ($0.isASCII && $0.isLetter) }) else { return nil }
    }
}
