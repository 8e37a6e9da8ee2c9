// Small text operations the standard library lacks (this module avoids Foundation).

extension StringProtocol {
    /// Without leading and trailing whitespace (including line ends and no-break spaces).
    var trimmingWhitespace: String {
        guard let first = firstIndex(where: { $0.isWhitespace == false }),
              let last = lastIndex(where: { $0.isWhitespace == false }) else { return "" }
        return String(self[first...last])
    }

    /// The parts between runs of whitespace.
    var whitespaceSeparated: [String] {
        split(whereSeparator: { (character: Character) in character.isWhitespace }).map { String($0) }
    }

    var isBlank: Bool { allSatisfy { $0.isWhitespace } }
}
