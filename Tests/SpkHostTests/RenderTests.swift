import Foundation
import SpkTestSupport
import XCTest

/// `spkhost render` end to end: the real spkhost, lilv, the espeak-ng plugin and real files.
final class RenderTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = Fixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Renders and returns the signal and markers, failing the test on a non-zero exit.
    func render(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (Signal, [MarkerEntry]) {
        try renderWithMarkers(arguments, in: dir, spkhost: { Fixture.spkhost($0) }, file: file, line: line)
    }

    func testAppleExampleHasOneSecondBreakAndFastSecondHalf() throws {
        try assertAppleExample(render: { try render($0) })
    }

    func testOutputIsBitIdenticalAcrossBlockSizes() throws {
        let request = #"<speak>The quick brown fox <break time="300ms"/> jumps <mark name="m"/>over the lazy dog.</speak>"#
        var files: [Data] = []
        for block in ["64", "256", "4096"] {
            let output = path("block-\(block).wav")
            let result = Fixture.spkhost(["render", "--ssml", request, "--block", block, "--output", output])
            XCTAssertEqual(result.status, 0, result.stderr)
            files.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        XCTAssertGreaterThan(files[0].count, 48000, "a second of audio at least")
        XCTAssertEqual(files[0], files[1], "block 64 and 256 differ")
        XCTAssertEqual(files[0], files[2], "block 64 and 4096 differ")
    }

    func testOneWordMarkerPerWordInOrder() throws {
        let text = "The quick brown fox"
        let (_, markers) = try render(["--text", text])
        let words = markers.filter { $0.type == "word" }
        let utf8 = Array(text.utf8)
        XCTAssertEqual(words.map { String(decoding: utf8[$0.textOffset..<$0.textOffset + $0.textLength], as: UTF8.self) },
                       ["The", "quick", "brown", "fox"])
        XCTAssertEqual(words.map(\.frame), words.map(\.frame).sorted())
        XCTAssertEqual(Set(words.map(\.frame)).count, 4, "frames must increase")
        for word in words { XCTAssertEqual(word.seconds, Double(word.frame) / 48000, accuracy: 1e-9) }
    }

    func testBookmarkFallsWhereTheNextWordStarts() throws {
        let ssml = #"<speak>Look <mark name="here"/>there is a fox.</speak>"#
        let (_, markers) = try render(["--ssml", ssml])
        guard let mark = markers.first(where: { $0.type == "bookmark" }) else { return XCTFail("no bookmark in \(markers)") }
        XCTAssertEqual(mark.name, "here")
        let thereOffset = Array(ssml.utf8).firstRange(of: Array("there".utf8))!.lowerBound
        guard let there = markers.first(where: { $0.type == "word" && $0.textOffset == thereOffset }) else {
            return XCTFail("no word marker for 'there' in \(markers)")
        }
        XCTAssertEqual(Double(abs(mark.frame - there.frame)) / 48000, 0, accuracy: 0.010)
    }

    func testWordOffsetsPointIntoTheSSMLAsSent() throws {
        let ssml = "<speak>Caf\u{E9} &amp; cr\u{E8}me <prosody pitch=\"high\">br\u{FB}l\u{E9}e</prosody></speak>"
        let (_, markers) = try render(["--ssml", ssml])
        let utf8 = Array(ssml.utf8)
        let words = markers.filter { $0.type == "word" }.map { String(decoding: utf8[$0.textOffset..<$0.textOffset + $0.textLength], as: UTF8.self) }
        XCTAssertEqual(words.first, "Caf\u{E9}")
        XCTAssertTrue(words.contains("cr\u{E8}me"), "\(words)")
        XCTAssertEqual(words.last, "br\u{FB}l\u{E9}e")
    }

    func testControlsChangeTheSound() throws {
        let text = "Speech at a steady pace."
        let (plain, _) = try render(["--text", text])
        let (fast, _) = try render(["--text", text, "--rate", "2"])
        let (quiet, _) = try render(["--text", text, "--volume", "0.5"])
        XCTAssertLessThan(fast.spokenDuration, plain.spokenDuration * 0.7)
        XCTAssertEqual(quiet.rms() / plain.rms(), 0.5, accuracy: 0.02)
    }

    func testSampleRateAndFlacOutput() throws {
        let output = path("speech.flac")
        let result = Fixture.spkhost(["render", "--text", "Hello there", "--sample-rate", "22050", "--output", output])
        XCTAssertEqual(result.status, 0, result.stderr)
        let signal = try Signal(path: output)
        XCTAssertEqual(signal.sampleRate, 22050)
        XCTAssertGreaterThan(signal.spokenDuration, 0.3)
    }

    func testInputFileAndStandardInput() throws {
        let input = path("request.ssml")
        try #"<speak><s>From a file.</s></speak>"#.write(toFile: input, atomically: true, encoding: .utf8)
        let fromFile = Fixture.spkhost(["render", "--input", input, "--output", path("a.wav")])
        XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
        let fromStdin = Fixture.spkhost(["render", "-", "--output", path("b.wav")], stdin: "From standard input.")
        XCTAssertEqual(fromStdin.status, 0, fromStdin.stderr)
        XCTAssertGreaterThan(try Signal(path: path("b.wav")).spokenDuration, 0.5)
    }
}
