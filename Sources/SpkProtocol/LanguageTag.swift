/// BCP 47 language tags, as far as voice lists need them.
public enum LanguageTag {
    /// `en-us` -> `en-US`, `zh-hans` -> `zh-Hans`, `sr-latn-rs` -> `sr-Latn-RS`.
    public static func normalized(_ tag: String) -> String {
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" })
        return parts.enumerated().map { index, part -> String in
            if index == 0 { return part.lowercased() }
            if part.count == 2 && part.allSatisfy(\.isLetter) { return part.uppercased() }
            if part.count == 4 && part.allSatisfy(\.isLetter) { return part.prefix(1).uppercased() + part.dropFirst().lowercased() }
            return part.lowercased()
        }.joined(separator: "-")
    }

    /// Whether a voice speaking `languages` serves a request for any of `wanted`: equal tags, or
    /// one a prefix of the other (`en` serves `en-GB`, and a request for `en` takes `en-US`).
    public static func matches(_ languages: [String], wanted: [String]) -> Bool {
        wanted.contains { w in
            let w = w.lowercased()
            return languages.contains { l in
                let l = l.lowercased()
                return l == w || l.hasPrefix(w + "-") || w.hasPrefix(l + "-")
            }
        }
    }
}

