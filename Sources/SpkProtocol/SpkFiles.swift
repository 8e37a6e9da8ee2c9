import Glibc

/// Where spk keeps what people make, and how names become file and identifier parts.
public enum SpkFiles {
    /// `$XDG_DATA_HOME/spk`, or `~/.local/share/spk`: the voice registry and personal voices.
    public static func dataDirectory() -> String {
        if let xdg = getenv("XDG_DATA_HOME"), xdg.pointee != 0 { return String(cString: xdg) + "/spk" }
        let home = getenv("HOME").map { String(cString: $0) } ?? "/tmp"
        return home + "/.local/share/spk"
    }

    /// A name as lowercase letters and digits joined by `-` ("Screen Reader Voice" ->
    /// "screen-reader-voice"); empty when the name has neither.
    public static func slug(_ name: String) -> String {
        var slug = ""
        for scalar in name.lowercased().unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty && !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }
}
