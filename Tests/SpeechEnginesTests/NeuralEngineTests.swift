import NeuralVoices
import SSML
@testable import SpeechEngines
import SpkProtocol
import SpkTestSupport
import XCTest

/// The neural engine with the installed Piper voice and the real sherpa-onnx runtime.
final class NeuralEngineTests: XCTestCase {
    static let engine = NeuralEngine(paths: { NeuralTestVoice.paths })
    static let piperWay = NeuralEngine(paths: { NeuralTestVoice.paths }, chunking: .sentences)
    var engine: NeuralEngine { Self.engine }

    override func setUpWithError() throws { try NeuralTestVoice.require() }

    /// The chunks as the engine hands them on (the empty one after loading left out).
    func chunks(_ text: String, engine: NeuralEngine = engine, prosody: EngineProsody = EngineProsody(),
                spellOut: Bool = false, phonemes: Phonemes? = nil, stopAfter: Int = .max) throws -> [SynthesisOutput] {
        var chunks: [SynthesisOutput] = []
        try engine.synthesize(SynthesisText(text: text, spellOut: spellOut, phonemes: phonemes),
                              voice: try engine.requireVoice(named: NeuralTestVoice.identifier), prosody: prosody) { chunk in
            if !chunk.samples.isEmpty || !chunk.boundaries.isEmpty { chunks.append(chunk) }
            return chunks.count < stopAfter
        }
        return chunks
    }

    func whole(_ chunks: [SynthesisOutput]) -> SynthesisOutput {
        chunks.reduce(into: SynthesisOutput()) { $0.append($1) }
    }

    /// The words of each chunk that has any (the run's last bit of pause has none).
    func chunkWords(_ chunks: [SynthesisOutput], in text: String) -> [[String]] {
        chunks.map { words($0, in: text) }.filter { !$0.isEmpty }
    }

    func words(_ output: SynthesisOutput, in text: String) -> [String] {
        let utf8 = Array(text.utf8)
        return output.boundaries.filter { $0.kind == .word }.map { String(decoding: utf8[$0.textRange], as: UTF8.self) }
    }

    func testTheFirstClauseComesAloneThenWholeSentences() throws {
        let text = "Hello, nice to meet you! How are you today?"
        let ours = try chunks(text)
        XCTAssertEqual(chunkWords(ours, in: text), [["Hello"], ["nice", "to", "meet", "you"], ["How", "are", "you", "today"]])
        let pipers = try chunks(text, engine: Self.piperWay)
        XCTAssertEqual(chunkWords(pipers, in: text), [["Hello", "nice", "to", "meet", "you"], ["How", "are", "you", "today"]])
        // The clause spoken alone joins the rest with the voice's own pause: the two ways last about as long.
        let oursLength = Double(whole(ours).samples.count), pipersLength = Double(whole(pipers).samples.count)
        XCTAssertEqual(oursLength, pipersLength, accuracy: pipersLength * 0.15)
    }

    func testBoundariesAreInOrderInsideTheAudioAndSentencesComeFirst() throws {
        let text = "The quick brown fox jumps over the lazy dog. It was not amused, said the fox."
        let output = whole(try chunks(text))
        XCTAssertEqual(words(output, in: text), ["The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog",
                                                 "It", "was", "not", "amused", "said", "the", "fox"])
        XCTAssertEqual(output.boundaries.map(\.sample), output.boundaries.map(\.sample).sorted())
        let words = output.boundaries.filter { $0.kind == .word }
        XCTAssertEqual(Set(words.map(\.sample)).count, words.count, "each word starts later than the one before")
        XCTAssertLessThan(words.last!.sample, output.samples.count)
        let sentences = output.boundaries.filter { $0.kind == .sentence }
        let utf8 = Array(text.utf8)
        XCTAssertEqual(sentences.map { String(decoding: utf8[$0.textRange], as: UTF8.self) },
                       ["The quick brown fox jumps over the lazy dog.", "It was not amused, said the fox."])
        XCTAssertEqual(sentences[1].sample, words[9].sample)
        // "said" follows the comma's pause: it starts after a stretch of silence.
        let said = words[13].sample
        let before = Signal(samples: Array(output.samples[(said - 1500)..<(said - 200)]), sampleRate: 22050)
        XCTAssertLessThan(before.rms(), 0.01, "the word after the comma starts after its pause")
    }

    func testACancelStopsBetweenClauses() throws {
        let text = "First, a clause. Then a sentence that is never spoken. And another one."
        let first = try chunks(text, stopAfter: 1)
        XCTAssertEqual(first.count, 1)
        XCTAssertEqual(words(first[0], in: text), ["First"])
    }

    func testRateGoesToTheLengthScaleAndPitchToSonic() throws {
        let text = "Speech at a steady pace."
        let plain = Signal(samples: whole(try chunks(text)).samples, sampleRate: 22050)
        let fast = Signal(samples: whole(try chunks(text, prosody: EngineProsody(rate: 2))).samples, sampleRate: 22050)
        let slowest = Signal(samples: whole(try chunks(text, prosody: EngineProsody(rate: 0.25))).samples, sampleRate: 22050)
        XCTAssertEqual(fast.spokenDuration / plain.spokenDuration, 0.5, accuracy: 0.12)
        XCTAssertEqual(slowest.spokenDuration / plain.spokenDuration, 4, accuracy: 0.8, "beyond the length scale, libsonic")
        let high = try chunks(text, prosody: EngineProsody(pitch: 1.5))
        XCTAssertEqual(medianF0(whole(high).samples) / medianF0(plain.samples), 1.5, accuracy: 0.2)
        XCTAssertEqual(Signal(samples: whole(high).samples, sampleRate: 22050).spokenDuration, plain.spokenDuration,
                       accuracy: plain.spokenDuration * 0.15, "pitch keeps the length")
    }

    func testIPAPhonemesAreSpokenAndUnknownOnesFallBackToTheText() throws {
        let spoken = try chunks("tomato", phonemes: Phonemes(alphabet: "ipa", symbols: "təmˈɑːtoʊ"))
        XCTAssertEqual(spoken.flatMap(\.boundaries).filter { $0.kind == .word }.map(\.textRange), [0..<6])
        XCTAssertGreaterThan(whole(spoken).samples.count, 22050 / 4)
        let fallback = try chunks("tomato", phonemes: Phonemes(alphabet: "ipa", symbols: "tə☃"))
        XCTAssertGreaterThan(whole(fallback).samples.count, 22050 / 4, "the text is read instead")
    }

    func testSpelledOutLettersAreReadByName() throws {
        let spelled = Signal(samples: whole(try chunks("a b c", spellOut: true)).samples, sampleRate: 22050)
        let word = Signal(samples: whole(try chunks("abc")).samples, sampleRate: 22050)
        XCTAssertGreaterThan(spelled.spokenDuration, word.spokenDuration, "three letter names take longer than one word")
    }

    func testAnUninstalledVoiceSaysHowToInstallIt() throws {
        let empty = NeuralEngine(paths: { NeuralPaths(root: "/nonexistent/spk/neural") })
        let voice = try empty.requireVoice(named: NeuralTestVoice.identifier)
        XCTAssertFalse(empty.isInstalled(voice))
        XCTAssertThrowsError(try empty.synthesize(SynthesisText(text: "Hi"), voice: voice, prosody: EngineProsody()) { _ in true }) {
            XCTAssertTrue("\($0)".contains("spkhost voice install spk.neural.en-us-joe"), "\($0)")
        }
        XCTAssertNil(VoiceCatalog(engine: empty).listing(installed: VoiceCatalog(engine: empty).installed).first,
                     "without a registry, a voice not downloaded is not listed")
    }

    /// The median fundamental frequency over loud 40 ms windows: the first autocorrelation peak
    /// near the highest (so a subharmonic is not taken for the pitch).
    func medianF0(_ samples: [Float], rate: Double = 22050) -> Double {
        let window = Int(rate * 0.04), minLag = Int(rate / 400), maxLag = Int(rate / 60)
        var estimates: [Double] = []
        var start = 0
        while start + window + maxLag < samples.count {
            defer { start += window / 2 }
            let x = samples[start..<start + window + maxLag].map(Double.init)
            let energy = x[0..<window].reduce(0) { $0 + $1 * $1 }
            guard energy / Double(window) > 0.03 * 0.03 else { continue }
            let ac = (minLag...maxLag).map { lag in (0..<window).reduce(0.0) { $0 + x[$1] * x[$1 + lag] } }
            guard let best = ac.max(), best > 0.5 * energy, let lag = ac.firstIndex(where: { $0 >= 0.85 * best }) else { continue }
            estimates.append(rate / Double(minLag + lag))
        }
        return estimates.sorted()[estimates.count / 2]
    }
}
