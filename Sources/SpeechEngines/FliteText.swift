/// The text flite reads for a run, and where each of its UTF-8 bytes came from in the run's text.
///
/// flite's English front end reads ASCII only: it drops other bytes from words ("café" becomes
/// "caf") and keeps typographic quotes inside tokens. So accented Latin letters lose their accents,
/// typographic punctuation and spaces become ASCII, and spelled-out letters are marked so that
/// flite says their names. Everything else passes through unchanged.
struct FliteText {
    private(set) var bytes: [UInt8] = []
    /// `sourceOffsets[i]` is the byte of the run's text that byte `i` came from; one more entry
    /// holds the end of the text.
    private(set) var sourceOffsets: [Int] = []

    init(_ text: String, spellOut: Bool = false) {
        var offset = 0
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            if let ascii = Self.asciiReplacement[scalar] {
                append(ascii.utf8, from: offset)
            } else {
                append(String(scalar).utf8, from: offset, eachByteItsOwn: true)
            }
            offset += width
        }
        sourceOffsets.append(offset)
        if spellOut { markLetters() }
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// The run's text bytes that `range` of these bytes came from.
    func sourceRange(_ range: Range<Int>) -> Range<Int> {
        sourceOffsets[range.lowerBound]..<max(sourceOffsets[range.lowerBound], sourceOffsets[range.upperBound])
    }

    private mutating func append(_ utf8: some Collection<UInt8>, from offset: Int, eachByteItsOwn: Bool = false) {
        for (index, byte) in utf8.enumerated() {
            bytes.append(byte)
            sourceOffsets.append(eachByteItsOwn ? offset + index : offset)
        }
    }

    /// Spelled-out text has its characters separated by spaces. flite reads a lone letter as a
    /// word, so "a" would be the article; a letter inside a longer token is read by name ("a" as
    /// "ey"), and a trailing hyphen adds no sound and no pause: "c a t" is read as "c- a- t-".
    private mutating func markLetters() {
        var index = bytes.count
        while index > 0 {
            index -= 1
            let isLetter = Self.isASCIILetter(bytes[index])
            let alone = (index == 0 || Self.isSpace(bytes[index - 1])) && (index + 1 == bytes.count || Self.isSpace(bytes[index + 1]))
            if isLetter && alone {
                bytes.insert(UInt8(ascii: "-"), at: index + 1)
                sourceOffsets.insert(sourceOffsets[index + 1], at: index + 1)
            }
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
    static func isASCIILetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    /// Latin letters with diacritics, ligatures, typographic punctuation and spaces.
    private static let asciiReplacement: [Unicode.Scalar: String] = {
        var table: [Unicode.Scalar: String] = [:]
        let letters: [(String, String)] = [
            ("ÀÁÂÃÄÅĀĂĄ", "A"), ("àáâãäåāăą", "a"), ("ÇĆĈĊČ", "C"), ("çćĉċč", "c"), ("ĎĐ", "D"), ("ďđ", "d"),
            ("ÈÉÊËĒĔĖĘĚ", "E"), ("èéêëēĕėęě", "e"), ("ĜĞĠĢ", "G"), ("ĝğġģ", "g"), ("ĤĦ", "H"), ("ĥħ", "h"),
            ("ÌÍÎÏĨĪĬĮİ", "I"), ("ìíîïĩīĭįı", "i"), ("Ĵ", "J"), ("ĵ", "j"), ("Ķ", "K"), ("ķ", "k"),
            ("ĹĻĽĿŁ", "L"), ("ĺļľŀł", "l"), ("ÑŃŅŇ", "N"), ("ñńņň", "n"), ("ÒÓÔÕÖØŌŎŐ", "O"), ("òóôõöøōŏő", "o"),
            ("ŔŖŘ", "R"), ("ŕŗř", "r"), ("ŚŜŞŠ", "S"), ("śŝşš", "s"), ("ŢŤŦ", "T"), ("ţťŧ", "t"),
            ("ÙÚÛÜŨŪŬŮŰŲ", "U"), ("ùúûüũūŭůűų", "u"), ("Ŵ", "W"), ("ŵ", "w"), ("ÝŸŶ", "Y"), ("ýÿŷ", "y"),
            ("ŹŻŽ", "Z"), ("źżž", "z"),
            ("Æ", "AE"), ("æ", "ae"), ("Œ", "OE"), ("œ", "oe"), ("ß", "ss"), ("Þ", "Th"), ("þ", "th"), ("Ð", "D"), ("ð", "d"),
            ("‘’‚‛′", "'"), ("“”„‟″«»", "\""), ("‐‑‒–—―−", "-"), ("…", "..."),
            ("\u{A0}\u{2002}\u{2003}\u{2009}\u{200A}\u{202F}\u{3000}", " "),
        ]
        for (scalars, ascii) in letters {
            for scalar in scalars.unicodeScalars { table[scalar] = ascii }
        }
        return table
    }()
}
