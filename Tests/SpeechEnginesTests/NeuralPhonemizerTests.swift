@testable import SpeechEngines
import XCTest

/// espeak-ng's IPA with the punctuation put back as Piper does, through the real libespeak-ng.
final class NeuralPhonemizerTests: XCTestCase {
    func phonemes(_ text: String) throws -> [String] {
        let bytes = Array(text.utf8)
        return try NeuralPhonemizer.phonemize(bytes, clauses: NeuralClauses.split(bytes), espeakVoice: "en-us").map {
            String(String.UnicodeScalarView($0.phonemes.compactMap { Unicode.Scalar(UInt32($0)) }))
        }
    }

    func testClausesCarryTheirPunctuationAsPiperWritesIt() throws {
        XCTAssertEqual(try phonemes("Hello, nice to meet you! How are you?"),
                       ["həlˈoʊ, ", "nˈaɪs tə mˈiːt juː!", "hˈaʊ ɑːɹ juː?"])
    }

    func testWordsAreWeighedByTheirPhonemes() throws {
        let bytes = Array("I paid 1999 dollars.".utf8)
        let clause = try XCTUnwrap(NeuralPhonemizer.phonemize(bytes, clauses: NeuralClauses.split(bytes), espeakVoice: "en-us").first)
        XCTAssertEqual(clause.wordWeights.count, 4)
        XCTAssertGreaterThan(clause.wordWeights[2], clause.wordWeights[1] * 2, "a year read out is long: \(clause.wordWeights)")
    }

    func testPrecomposedSymbolsAreDecomposedAsPiperDoes() {
        XCTAssertEqual(NeuralPhonemizer.codepoints("ça"), [0x63, 0x327, 0x61])
    }

    func testTheEspeakEngineStillSpeaksItsOwnVoiceAfterwards() throws {
        let engine = try EspeakEngine.shared()
        let french = try engine.requireVoice(named: "spk.espeak-ng.fr")
        var before = SynthesisOutput()
        try engine.synthesize(SynthesisText(text: "bonjour"), voice: french, prosody: EngineProsody(), into: &before, isCancelled: { false })
        _ = try phonemes("Hello there.")
        var after = SynthesisOutput()
        try engine.synthesize(SynthesisText(text: "bonjour"), voice: french, prosody: EngineProsody(), into: &after, isCancelled: { false })
        XCTAssertEqual(Double(after.samples.count), Double(before.samples.count), accuracy: Double(before.samples.count) * 0.05,
                       "the phonemizer's en-us must not be left loaded for the espeak-ng engine")
    }
}
