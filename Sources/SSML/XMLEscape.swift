/// Escaping for text put into SSML (or any XML): the one place it is written.
public enum XMLEscape {
    /// Character data: `&`, `<` and `>` as entities.
    public static func text<S: StringProtocol>(_ s: S) -> String { escape(s, quotes: false) }

    /// An attribute value in double quotes: `"` too.
    public static func attribute<S: StringProtocol>(_ s: S) -> String { escape(s, quotes: true) }

    private static func escape<S: StringProtocol>(_ s: S, quotes: Bool) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
