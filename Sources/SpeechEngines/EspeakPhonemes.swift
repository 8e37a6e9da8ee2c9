import SSML

/// `<phoneme>` pronunciations in espeak-ng's own phoneme notation.
///
/// `x-espeak` passes through; IPA is converted symbol by symbol for the phonemes of English
/// (espeak's phoneme names differ per language, and these are the `en` ones). A symbol without
/// an equivalent gives nil, and the element's text is read instead.
enum EspeakPhonemes {
    static func convert(_ phonemes: Phonemes) -> String? {
        switch phonemes.alphabet.lowercased() {
        case "x-espeak", "espeak": return phonemes.symbols
        case "ipa": return fromIPA(phonemes.symbols)
        default: return nil
        }
    }

    /// Longest match first: diphthongs and affricates before their parts.
    private static let table: [(ipa: String, espeak: String)] = [
        ("tʃ", "tS"), ("dʒ", "dZ"), ("t͡ʃ", "tS"), ("d͡ʒ", "dZ"),
        ("aɪ", "aI"), ("aʊ", "aU"), ("eɪ", "eI"), ("ɔɪ", "OI"), ("oʊ", "oU"), ("əʊ", "oU"),
        ("ɪə", "i@"), ("eə", "e@"), ("ɛə", "e@"), ("ʊə", "U@"),
        ("ɑː", "A:"), ("ɜː", "3:"), ("iː", "i:"), ("uː", "u:"), ("ɔː", "O:"),
        ("ɑ", "A:"), ("æ", "a"), ("ʌ", "V"), ("ə", "@"), ("ɚ", "3"), ("ɝ", "3:"), ("ɜ", "3:"),
        ("ɛ", "E"), ("e", "e"), ("ɪ", "I"), ("i", "i"), ("ɔ", "O"), ("ɒ", "0"), ("ʊ", "U"), ("u", "u"),
        ("o", "o"), ("a", "a"), ("ɐ", "a#"),
        ("θ", "T"), ("ð", "D"), ("ʃ", "S"), ("ʒ", "Z"), ("ŋ", "N"), ("ɹ", "r"), ("r", "r"), ("ɾ", "t"),
        ("ɡ", "g"), ("g", "g"), ("ʔ", "?"), ("x", "x"), ("ç", "C"), ("j", "j"), ("w", "w"), ("h", "h"),
        ("p", "p"), ("b", "b"), ("t", "t"), ("d", "d"), ("k", "k"), ("f", "f"), ("v", "v"),
        ("s", "s"), ("z", "z"), ("m", "m"), ("n", "n"), ("l", "l"), ("ɫ", "l"),
        ("ˈ", "'"), ("ˌ", ","), ("ː", ":"), (".", ""), (" ", " "),
    ]

    static func fromIPA(_ ipa: String) -> String? {
        var rest = Substring(ipa)
        var out = ""
        outer: while !rest.isEmpty {
            for (symbol, espeak) in table where rest.hasPrefix(symbol) {
                out += espeak
                rest = rest.dropFirst(symbol.count)
                continue outer
            }
            return nil
        }
        return out
    }
}
