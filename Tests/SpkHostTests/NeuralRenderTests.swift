import Foundation
import SpkTestSupport
import XCTest

/// `spkhost render` end to end with the neural plugin and the installed Piper voice: the real
/// spkhost, lilv, spk.lv2 (urn:spk:synth:neural), sherpa-onnx and onnxruntime.
final class NeuralRenderTests: XCTestCase {
    var home: String!
    var dir: URL!
    override func setUpWithError() throws {
        try NeuralFixture.requireInstalled()
        home = try NeuralFixture.home()
        dir = Fixture.temporaryDirectory()
    }
    override func tearDown() {
        if let dir { try? FileManager.default.removeItem(at: dir) }
        if let home { try? FileManager.default.removeItem(atPath: home) }
    }

    func render(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (Signal, [MarkerEntry]) {
        try renderWithMarkers(["--voice", NeuralFixture.voice] + arguments, in: dir,
                              spkhost: { NeuralFixture.spkhost($0, home: self.home) }, file: file, line: line)
    }

    func testAppleExampleHasOneSecondBreakAndFastSecondHalf() throws {
        let example = #"<speak>Hello <break time="1s"/><prosody rate="200%">nice to meet you!</prosody></speak>"#
        let (signal, markers) = try render(["--ssml", example])
        XCTAssertEqual(signal.sampleRate, 48000)
        let segments = signal.soundingSegments()
        XCTAssertEqual(segments.count, 2, "expected 'Hello' and the rest, found \(segments)")
        guard segments.count == 2 else { return }
        XCTAssertEqual(segments[1].start - segments[0].end, 1.0, accuracy: 0.1, "silence between Hello and the rest")

        let (normal, _) = try render(["--ssml", "<speak>nice to meet you!</speak>"])
        let ratio = (segments[1].end - segments[1].start) / normal.spokenDuration
        XCTAssertGreaterThan(ratio, 0.4, "rate 200% should halve the length, ratio \(ratio)")
        XCTAssertLessThan(ratio, 0.65, "rate 200% should halve the length, ratio \(ratio)")

        let utf8 = Array(example.utf8)
        let words = markers.filter { $0.type == "word" }
        XCTAssertEqual(words.map { String(decoding: utf8[$0.textOffset..<$0.textOffset + $0.textLength], as: UTF8.self) },
                       ["Hello", "nice", "to", "meet", "you"])
        XCTAssertEqual(markers.map(\.frame), markers.map(\.frame).sorted(), "markers in order")
        XCTAssertEqual(Double(words[0].frame) / 48000, segments[0].start, accuracy: 0.05)
        XCTAssertEqual(Double(words[1].frame) / 48000, segments[1].start, accuracy: 0.05)
    }

    func testMarkersOfAParagraphAreInOrderAndPointIntoTheRequest() throws {
        let ssml = #"<speak><p><s>Hello, I am Joe.</s><s>I speak <mark name="here"/>with a neural voice, from Piper.</s></p></speak>"#
        let (signal, markers) = try render(["--ssml", ssml])
        let utf8 = Array(ssml.utf8)
        func text(_ m: MarkerEntry) -> String { String(decoding: utf8[m.textOffset..<m.textOffset + m.textLength], as: UTF8.self) }
        XCTAssertEqual(markers.filter { $0.type == "word" }.map(text),
                       ["Hello", "I", "am", "Joe", "I", "speak", "with", "a", "neural", "voice", "from", "Piper"])
        // As with every engine: the <s> elements' markers, and the engine's at each sentence it speaks.
        XCTAssertEqual(markers.filter { $0.type == "sentence" }.map(text).filter { !$0.hasPrefix("<") }, ["Hello, I am Joe.", "I speak", "with a neural voice, from Piper."])
        XCTAssertEqual(markers.filter { $0.type == "paragraph" }.count, 1)
        XCTAssertEqual(markers.map(\.frame), markers.map(\.frame).sorted())
        let words = markers.filter { $0.type == "word" }
        XCTAssertEqual(Set(words.map(\.frame)).count, words.count, "each word later than the last")
        XCTAssertLessThan(words.last!.frame, signal.samples.count)
        let mark = try XCTUnwrap(markers.first { $0.type == "bookmark" })
        XCTAssertEqual(mark.name, "here")
        let with = try XCTUnwrap(words.first { text($0) == "with" })
        XCTAssertEqual(Double(abs(mark.frame - with.frame)) / 48000, 0, accuracy: 0.05)
    }

    func testSayAsSubPhonemeAndVolume() throws {
        let ssml = #"<speak><say-as interpret-as="characters">abc</say-as> <sub alias="World Wide Web">WWW</sub> "#
            + #"<phoneme alphabet="ipa" ph="təmˈɑːtoʊ">tomato</phoneme> <prosody volume="-6dB">quiet</prosody></speak>"#
        let (signal, markers) = try render(["--ssml", ssml])
        let utf8 = Array(ssml.utf8)
        let words = markers.filter { $0.type == "word" }.map { String(decoding: utf8[$0.textOffset..<$0.textOffset + $0.textLength], as: UTF8.self) }
        XCTAssertTrue(words.contains { $0.contains("abc") }, "\(words)")
        XCTAssertTrue(words.contains { $0.contains("WWW") }, "\(words)")
        XCTAssertTrue(words.contains { $0.contains("tomato") }, "\(words)")
        XCTAssertEqual(words.last, "quiet")
        XCTAssertGreaterThan(signal.spokenDuration, 2.0, "a b c, World Wide Web, tomato, quiet")

        let (loud, _) = try render(["--text", "Speech at a steady pace."])
        let (quiet, _) = try render(["--text", "Speech at a steady pace.", "--volume", "0.5"])
        XCTAssertEqual(quiet.rms() / loud.rms(), 0.5, accuracy: 0.12, "volume halves the level")
    }
}
