import Foundation
import SpkTestSupport
import XCTest

/// `spkhost play` with effects and with a request that switches engines: the graph runs in
/// JACK's process callback (a dummy jackd, recorded with jack_capture).
final class GraphPlayTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws {
        dir = Fixture.temporaryDirectory()
        try GraphSupport.requirePlugins([GraphSupport.amp, GraphSupport.liveOnlyReverb])
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func play(_ arguments: [String], jack: JackServer) -> Fixture.Result {
        GraphSupport.spkhost(["play"] + arguments, environment: jack.environment)
    }

    /// Plays into a fresh recorder and returns what it recorded.
    func record(_ arguments: [String], jack: JackServer, file: StaticString = #filePath, line: UInt = #line) throws -> Signal {
        let path = dir.appendingPathComponent("capture-\(UUID().uuidString).wav").path
        let recorder = try jack.startCapture(path: path, seconds: 4)
        let result = play(arguments + ["--connect", "jack_capture:input1"], jack: jack)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        JackServer.finishCapture(recorder, seconds: 4)
        return try Signal(path: path)
    }

    func testAnEffectAppliesLive() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let text = ["--text", "The quick brown fox jumps."]
        let plain = try record(text, jack: jack)
        let quiet = try record(text + ["--effect", GraphSupport.amp, "--set", "gain=-6"], jack: jack)
        XCTAssertGreaterThan(plain.rms(), 0.01, "speech reached JACK")
        XCTAssertEqual(quiet.rms() / plain.rms(), 0.5, accuracy: 0.06)
        XCTAssertEqual(quiet.spokenDuration, plain.spokenDuration, accuracy: 0.05)
    }

    func testADialogueOfTwoEnginesPlaysInOrder() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let request = #"<speak><voice name="spk.flite.slt">Good morning.</voice> <voice name="spk.espeak-ng.en-us">Good morning to you.</voice></speak>"#
        let result = play(["--ssml", request, "--connect", "system:playback_1"], jack: jack)
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("started") }.count, 1, result.stdout)
        XCTAssertEqual(lines.filter { $0.contains(" word ") }.map { String($0.split(separator: " ").last!) },
                       ["Good", "morning", "Good", "morning", "to", "you"], result.stdout)
        let finished = lines.firstIndex { $0.contains("finished") }, lastWord = lines.lastIndex { $0.contains(" word ") }
        XCTAssertNotNil(finished, result.stdout)
        if let finished, let lastWord { XCTAssertGreaterThan(finished, lastWord, "finished after the last word") }
    }

    func testALivePluginRunsWhenPlaying() throws {
        // fomp's reverb requires lv2:isLive: refused offline, fine in JACK.
        let jack = try JackServer()
        defer { jack.stop() }
        let result = play(["--text", "Reverb.", "--effect", GraphSupport.liveOnlyReverb, "--connect", "system:playback_1"], jack: jack)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("finished"), result.stdout)
    }
}
