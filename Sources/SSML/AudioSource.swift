// `<audio src>`: only local files can be played, given as a path or a `file:` URL.

import Glibc

enum AudioSource {
    /// The file path for `src`: "file:///tmp/a%20b.wav" → "/tmp/a b.wav"; a plain path stays as it is.
    static func localPath(_ src: String) throws(ValueError) -> String {
        let text = src.trimmingWhitespace
        guard !text.isEmpty else { throw ValueError("src is empty") }
        guard let scheme = scheme(of: text) else { return text }
        guard scheme == "file" else {
            throw ValueError("src \"\(src)\" is not allowed: only local files can be played (a path or a file: URL)")
        }
        var rest = text.dropFirst("file:".count)
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let host = rest.prefix { $0 != "/" }
            guard host.isEmpty || host.lowercased() == "localhost" else {
                throw ValueError("src \"\(src)\" is not allowed: only local files can be played, not files on host \"\(host)\"")
            }
            rest = rest.dropFirst(host.count)
        }
        let path = percentDecoded(rest)
        guard !path.isEmpty else { throw ValueError("src \"\(src)\" names no file") }
        return path
    }

    /// `soundLevel`: a change in decibels ("+6dB", "-3dB") as a linear gain.
    static func soundLevel(_ text: String) throws(ValueError) -> Double {
        guard let quantity = Quantity(text), quantity.unit == "db" else {
            throw ValueError("soundLevel \"\(text)\" is not valid: expected decibels such as \"+6dB\" or \"-3dB\"")
        }
        return pow(10, quantity.signedValue / 20)
    }

    /// A URL scheme (RFC 3986: a letter, then letters, digits, "+", "-" or "."), lower-cased.
    private static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon]
        guard let first = name.first, first.isASCII, first.isLetter,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return name.lowercased()
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            let hex = utf8.prefix(2)
            if byte == UInt8(ascii: "%"), hex.count == 2, hex.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
               let value = UInt8(String(decoding: hex, as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
