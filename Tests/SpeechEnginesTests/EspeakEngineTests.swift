import SSML
import SpeechEngines
import SpkProtocol
import SpkTestSupport
import XCTest

/// The espeak-ng adapter against the real libespeak-ng.
final class EspeakEngineTests: XCTestCase {
    var engine: EspeakEngine!
    override func setUpWithError() throws { engine = try EspeakEngine.shared() }

    func speak(_ text: String, voice: String = "en-us", prosody: EngineProsody = EngineProsody(),
               spellOut: Bool = false, phonemes: Phonemes? = nil) throws -> SynthesisOutput {
        var output = SynthesisOutput()
        try engine.synthesize(SynthesisText(text: text, spellOut: spellOut, phonemes: phonemes),
                              voice: try engine.requireVoice(named: voice), prosody: prosody, into: &output, isCancelled: { false })
        return output
    }

    func testVoicesHaveIdentifiersAndLanguages() {
        XCTAssertEqual(engine.sampleRate, 22050)
        XCTAssertGreaterThan(engine.voices.count, 80)
        XCTAssertEqual(Set(engine.voices.map(\.identifier)).count, engine.voices.count, "identifiers are unique")
        let us = engine.voice(named: "spk.espeak-ng.en-us")
        XCTAssertEqual(us?.primaryLanguages, ["en-US"])
        XCTAssertEqual(us?.plugin, "urn:spk:synth:espeak-ng")
        XCTAssertTrue(engine.voices.allSatisfy { $0.identifier.hasPrefix("spk.espeak-ng.") && !$0.supportedLanguages.isEmpty })
        XCTAssertNotNil(engine.voice(named: "en-us"), "short names resolve too")
    }

    func testWordBoundariesCarryByteRangesAndRisingSamples() throws {
        let text = "na\u{EF}ve caf\u{E9} owners"
        let output = try speak(text)
        let words = output.boundaries.filter { $0.kind == .word }
        let utf8 = Array(text.utf8)
        XCTAssertEqual(words.map { String(decoding: utf8[$0.textRange], as: UTF8.self) }, ["na\u{EF}ve", "caf\u{E9}", "owners"])
        XCTAssertEqual(words.map(\.sample), words.map(\.sample).sorted())
        XCTAssertLessThan(words.last!.sample, output.samples.count)
        // The word really starts near its boundary: little sound before the second word's mark
        // belongs to it, and there is sound right after.
        let second = words[1].sample
        let after = output.samples[second..<min(second + 2205, output.samples.count)].map { abs($0) }.max() ?? 0
        XCTAssertGreaterThan(after, 0.05)
    }

    func testAWordAfterAFullStopThatDoesNotEndTheSentenceIsMarked() throws {
        // espeak-ng reports "then" as the space before it; the adapter moves it onto the word.
        let text = "Cafe and more. then we go"
        let words = try speak(text).boundaries.filter { $0.kind == .word }
        let utf8 = Array(text.utf8)
        XCTAssertEqual(words.map { String(decoding: utf8[$0.textRange], as: UTF8.self) }, ["Cafe", "and", "more", "then", "we", "go"])
    }

    func testAudioComesInChunksAsItIsMade() throws {
        let paragraph = String(repeating: "A long paragraph is spoken one buffer at a time. ", count: 8)
        var chunks: [SynthesisOutput] = []
        try engine.synthesize(SynthesisText(text: paragraph), voice: try engine.requireVoice(named: "en-us"),
                              prosody: EngineProsody()) { chunks.append($0); return true }
        let total = chunks.reduce(0) { $0 + $1.samples.count }
        XCTAssertGreaterThan(chunks.count, 20, "handed on while synthesizing, not at the end")
        XCTAssertLessThan(chunks[0].samples.count, total / 20)
        // Boundaries index their own chunk.
        for chunk in chunks { for b in chunk.boundaries { XCTAssertLessThanOrEqual(b.sample, chunk.samples.count) } }
        var stoppedAfter = 0
        try engine.synthesize(SynthesisText(text: paragraph), voice: try engine.requireVoice(named: "en-us"),
                              prosody: EngineProsody()) { _ in stoppedAfter += 1; return stoppedAfter < 3 }
        XCTAssertEqual(stoppedAfter, 3, "returning false stops the engine")
    }

    func testRateChangesLength() throws {
        let normal = try speak("This sentence is spoken at two speeds.")
        let fast = try speak("This sentence is spoken at two speeds.", prosody: EngineProsody(rate: 2))
        let ratio = Double(fast.samples.count) / Double(normal.samples.count)
        XCTAssertGreaterThan(ratio, 0.4)
        XCTAssertLessThan(ratio, 0.65)
    }

    func testPitchChangesFundamental() throws {
        func f0(_ pitch: Double) throws -> Double {
            let output = try speak("aaaah", prosody: EngineProsody(pitch: pitch))
            let third = output.samples.count / 3
            return Signal(samples: output.samples, sampleRate: 22050).pitch(in: third..<third + 2048)
        }
        let low = try f0(0.8), normal = try f0(1), high = try f0(1.5)
        XCTAssertLessThan(low, normal * 0.92, "low \(low) vs \(normal)")
        XCTAssertGreaterThan(high, normal * 1.3, "high \(high) vs \(normal)")
    }

    func testSpellOutReadsLetters() throws {
        let word = try speak("cat")
        let letters = try speak("c a t", spellOut: true)
        // "see ay tee" takes far longer than "cat".
        XCTAssertGreaterThan(Double(letters.samples.count), Double(word.samples.count) * 1.5)
    }

    func testIPAPhonemesAreSpoken() throws {
        let tomato = try speak("tomato", phonemes: Phonemes(alphabet: "ipa", symbols: "təˈmɑːtoʊ"))
        XCTAssertGreaterThan(tomato.samples.count, 22050 / 4)
        let other = try speak("x", phonemes: Phonemes(alphabet: "ipa", symbols: "təˈmɑːtoʊ"))
        XCTAssertEqual(Double(other.samples.count), Double(tomato.samples.count), accuracy: Double(tomato.samples.count) * 0.02,
                       "the phonemes are read, not the text")
        XCTAssertGreaterThan(Double(other.samples.count), Double(try speak("x").samples.count) * 1.25, "longer than \"x\" read as text")
    }

    func testUnknownVoiceIsAnError() {
        XCTAssertThrowsError(try engine.requireVoice(named: "no-such-voice")) { error in
            XCTAssertTrue("\(error)".contains("unknown voice 'no-such-voice'"))
        }
    }

    func testLanguageSelectsAVoice() throws {
        let us = try engine.requireVoice(named: "en-us")
        let german = try choose(engine, VoiceSelection(), language: "de", requestVoice: us)
        XCTAssertEqual(german.primaryLanguages.first?.hasPrefix("de"), true, german.identifier)
        let same = try choose(engine, VoiceSelection(), language: "en", requestVoice: us)
        XCTAssertEqual(same, us, "a request voice that speaks the language stays")
        let female = try choose(engine, VoiceSelection(gender: "female"), language: nil, requestVoice: us)
        XCTAssertTrue(LanguageTag.matches(female.supportedLanguages, wanted: ["en"]))
    }
}
