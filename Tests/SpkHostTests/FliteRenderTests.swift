import Foundation
import SpkTestSupport
import XCTest

/// `spkhost render` end to end with the flite plugin: the real spkhost, lilv, spk.lv2 (urn:spk:synth:flite).
final class FliteRenderTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = Fixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Renders with a flite voice and returns the signal and markers, failing on a non-zero exit.
    func render(_ arguments: [String], voice: String = "spk.flite.slt",
                file: StaticString = #filePath, line: UInt = #line) throws -> (Signal, [MarkerEntry]) {
        try renderWithMarkers(["--voice", voice] + arguments, in: dir, spkhost: { Fixture.spkhost($0) }, file: file, line: line)
    }

    func testWordMarkersPerWordInOrderAt48kHz() throws {
        let text = "The quick brown fox"
        for voice in ["spk.flite.slt", "spk.flite.kal16"] {
            let (signal, markers) = try render(["--text", text], voice: voice)
            XCTAssertEqual(signal.sampleRate, 48000, voice)
            XCTAssertGreaterThan(signal.spokenDuration, 0.8, voice)
            let words = markers.filter { $0.type == "word" }
            let utf8 = Array(text.utf8)
            XCTAssertEqual(words.map { String(decoding: utf8[$0.textOffset..<$0.textOffset + $0.textLength], as: UTF8.self) },
                           ["The", "quick", "brown", "fox"], voice)
            XCTAssertEqual(words.map(\.frame), words.map(\.frame).sorted(), voice)
            XCTAssertEqual(Set(words.map(\.frame)).count, 4, "\(voice): frames must increase")
            XCTAssertLessThan(words.last?.frame ?? .max, signal.samples.count, voice)
            for word in words { XCTAssertEqual(word.seconds, Double(word.frame) / 48000, accuracy: 1e-9) }
        }
    }

    func testAppleExampleHasOneSecondBreakAndFastSecondHalf() throws {
        // flite's own pauses at a run's edges are trimmed, so the gap is the break itself.
        try assertAppleExample(render: { try render($0) })
    }

    func testOutputIsBitIdenticalAcrossBlockSizes() throws {
        let request = #"<speak>The quick brown fox <break time="300ms"/> jumps <mark name="m"/>over the lazy dog.</speak>"#
        var files: [Data] = []
        for block in ["64", "4096"] {
            let output = path("block-\(block).wav")
            let result = Fixture.spkhost(["render", "--voice", "spk.flite.slt", "--ssml", request, "--block", block, "--output", output])
            XCTAssertEqual(result.status, 0, result.stderr)
            files.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        XCTAssertGreaterThan(files[0].count, 48000, "a second of audio at least")
        XCTAssertEqual(files[0], files[1], "block 64 and 4096 differ")
    }

    func testVoicesListsTheFiveFliteVoices() throws {
        let result = Fixture.spkhost(["voices", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let voices = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        let flite = voices.filter { ($0["identifier"] as? String)?.hasPrefix("spk.flite.") == true }
        XCTAssertEqual(Set(flite.compactMap { $0["identifier"] as? String }),
                       Set(["slt", "rms", "awb", "kal16", "kal"].map { "spk.flite.\($0)" }), result.stdout)
        let slt = flite.first { $0["identifier"] as? String == "spk.flite.slt" }
        XCTAssertEqual(slt?["primaryLanguages"] as? [String], ["en-US"])
        XCTAssertEqual(slt?["gender"] as? String, "female")
    }

    func testUnknownFliteVoiceIsAnError() {
        let result = Fixture.spkhost(["render", "--voice", "spk.flite.nobody", "--text", "Hello", "--output", path("x.wav")])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("spk.flite.nobody"), result.stderr)
    }
}
