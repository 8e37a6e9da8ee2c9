import SSML

/// `<phoneme>` pronunciations as flite phone names (the CMU US English set, ARPAbet in lower
/// case), which `flite_synth_phones` speaks.
///
/// `x-arpabet` / `x-cmu` pass through in lower case without stress digits; IPA is converted symbol
/// by symbol for the phonemes of English (rhotic, as the US voices speak). A symbol without an
/// equivalent gives nil, and the element's text is read instead.
enum FlitePhonemes {
    static func convert(_ phonemes: Phonemes) -> String? {
        let phones: [String]?
        switch phonemes.alphabet.lowercased() {
        case "x-arpabet", "arpabet", "x-cmu", "x-flite":
            phones = phonemes.symbols.lowercased().split(whereSeparator: { $0 == " " }).map { $0.filter { !$0.isNumber } }
        case "ipa":
            phones = fromIPA(phonemes.symbols)
        default:
            phones = nil
        }
        guard let phones, !phones.isEmpty, phones.allSatisfy(inventory.contains) else { return nil }
        return (["pau"] + phones + ["pau"]).joined(separator: " ")
    }

    /// flite's US English phone set.
    private static let inventory: Set<String> = [
        "aa", "ae", "ah", "ao", "aw", "ax", "ay", "b", "ch", "d", "dh", "eh", "er", "ey", "f", "g", "hh", "ih", "iy",
        "jh", "k", "l", "m", "n", "ng", "ow", "oy", "p", "r", "s", "sh", "t", "th", "uh", "uw", "v", "w", "y", "z", "zh", "pau",
    ]

    /// Longest match first: diphthongs, affricates and long vowels before their parts. An empty
    /// list marks what carries no phone of its own (stress, length, syllable breaks).
    private static let table: [(ipa: String, phones: [String])] = [
        ("t͡ʃ", ["ch"]), ("d͡ʒ", ["jh"]), ("tʃ", ["ch"]), ("dʒ", ["jh"]),
        ("aɪ", ["ay"]), ("aʊ", ["aw"]), ("eɪ", ["ey"]), ("ɔɪ", ["oy"]), ("oʊ", ["ow"]), ("əʊ", ["ow"]),
        ("ɪə", ["ih", "r"]), ("eə", ["eh", "r"]), ("ɛə", ["eh", "r"]), ("ʊə", ["uh", "r"]),
        ("ɑː", ["aa"]), ("ɜː", ["er"]), ("iː", ["iy"]), ("uː", ["uw"]), ("ɔː", ["ao"]),
        ("ɑ", ["aa"]), ("æ", ["ae"]), ("ʌ", ["ah"]), ("ə", ["ax"]), ("ɚ", ["er"]), ("ɝ", ["er"]), ("ɜ", ["er"]),
        ("ɛ", ["eh"]), ("e", ["eh"]), ("ɪ", ["ih"]), ("i", ["iy"]), ("ɔ", ["ao"]), ("ɒ", ["aa"]), ("ʊ", ["uh"]),
        ("u", ["uw"]), ("o", ["ow"]), ("a", ["aa"]), ("ɐ", ["ah"]),
        ("θ", ["th"]), ("ð", ["dh"]), ("ʃ", ["sh"]), ("ʒ", ["zh"]), ("ŋ", ["ng"]), ("ɹ", ["r"]), ("r", ["r"]),
        ("ɾ", ["d"]), ("ɡ", ["g"]), ("g", ["g"]), ("j", ["y"]), ("w", ["w"]), ("h", ["hh"]),
        ("p", ["p"]), ("b", ["b"]), ("t", ["t"]), ("d", ["d"]), ("k", ["k"]), ("f", ["f"]), ("v", ["v"]),
        ("s", ["s"]), ("z", ["z"]), ("m", ["m"]), ("n", ["n"]), ("l", ["l"]), ("ɫ", ["l"]),
        ("ˈ", []), ("ˌ", []), ("ː", []), (".", []), (" ", []), ("\u{0329}", []),
    ]

    static func fromIPA(_ ipa: String) -> [String]? {
        var rest = Substring(ipa).unicodeScalars
        var phones: [String] = []
        outer: while !rest.isEmpty {
            for (symbol, converted) in table where rest.starts(with: symbol.unicodeScalars) {
                phones += converted
                rest = rest.dropFirst(symbol.unicodeScalars.count)
                continue outer
            }
            return nil
        }
        return phones
    }
}
