import NeuralVoices
import SSML

/// What SSML gives a neural voice besides text: `<phoneme alphabet="ipa">` and spelled-out text.
enum NeuralPhonemeInput {
    /// IPA as the voice's phoneme codepoints, or nil when the alphabet is not IPA or a symbol is
    /// one the voice has no id for (then the element's text is read, as SSML asks). Tie bars
    /// go, and an ASCII g becomes IPA ɡ, as people often write it.
    static func codepoints(_ phonemes: Phonemes, symbols: Set<Unicode.Scalar>) -> [Int32]? {
        guard phonemes.alphabet.lowercased() == "ipa" else { return nil }
        var ipa = String.UnicodeScalarView()
        for scalar in phonemes.symbols.unicodeScalars {
            switch scalar {
            case "\u{361}", "\u{35C}": continue
            case "g": ipa.append("ɡ")
            case _ where scalar.properties.isWhitespace: ipa.append(" ")
            default: ipa.append(scalar)
            }
        }
        let codepoints = NeuralPhonemizer.codepoints(String(ipa))
        guard !codepoints.isEmpty, codepoints.allSatisfy({ Unicode.Scalar(UInt32($0)).map(symbols.contains) ?? false }) else { return nil }
        return codepoints
    }

    /// Letters to be read by name: espeak-ng reads a lone letter followed by a hyphen by its
    /// name ("c- a- t-"), where "a" alone would be the article.
    static func spelledOut(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).map { token in
            token.count == 1 && token.first!.isLetter ? token + "-" : String(token)
        }.joined(separator: " ")
    }
}
