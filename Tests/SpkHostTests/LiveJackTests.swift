import Foundation
import SpkAudio
import SpkTestSupport
import XCTest

/// spkhost play and live against a real jackd (dummy backend), recorded with jack_capture.
final class LiveJackTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = Fixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func startRecorder(_ jack: JackServer, seconds: Int) throws -> (Process, String) {
        let path = dir.appendingPathComponent("capture-\(UUID().uuidString).wav").path
        return (try jack.startCapture(path: path, seconds: seconds), path)
    }

    func spkhost(_ arguments: [String], jack: JackServer?, stdin: String? = nil) -> Fixture.Result {
        Fixture.run(Fixture.spkhost, arguments, stdin: stdin,
                    environment: ["LV2_PATH": Fixture.lv2Path].merging(jack?.environment ?? ["JACK_NO_START_SERVER": "1"]) { $1 })
    }

    func testPlaySpeaksIntoJackAndPrintsEvents() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let (recorder, path) = try startRecorder(jack, seconds: 4)
        let text = "The quick brown fox jumps."
        let result = spkhost(["play", "--text", text, "--connect", "jack_capture:input1"], jack: jack)
        XCTAssertEqual(result.status, 0, result.stderr)
        for word in ["started", "word", "quick", "fox", "finished"] { XCTAssertTrue(result.stdout.contains(word), result.stdout) }
        JackServer.finishCapture(recorder, seconds: 4)

        let recorded = try Signal(path: path)
        let rendered = dir.appendingPathComponent("rendered.wav").path
        XCTAssertEqual(Fixture.spkhost(["render", "--text", text, "--output", rendered]).status, 0)
        XCTAssertGreaterThan(recorded.rms(), 0.01, "speech reached JACK")
        XCTAssertEqual(recorded.spokenDuration, try Signal(path: rendered).spokenDuration, accuracy: 0.05)
    }

    func testPlayWithoutAServerFailsFast() {
        let start = Date()
        let result = spkhost(["play", "--text", "Hello", "--server", "spk-no-such-server-\(getpid())"], jack: nil)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
        XCTAssertTrue(result.stderr.hasPrefix("error: ") && result.stderr.contains("JACK"), result.stderr)
    }

    func testPlayReportsAServerThatDiesMidUtterance() throws {
        let jack = try JackServer()
        let (play, err) = try jack.startLongPlay()
        jack.stop()
        XCTAssertTrue(JackServer.exits(play, within: 5), "spkhost play hangs after the server died")
        XCTAssertNotEqual(play.terminationStatus, 0)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(message.contains("error: ") && message.contains("JACK"), message)
    }

    func testLiveSpeaksEachLineFromAPipeInTurn() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let result = spkhost(["live", "--connect", "system:playback_1"], jack: jack, stdin: "Hello there.\n/pause\n/resume\nSecond line.\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("finished") }.count, 2, result.stdout)
        // In order: the second line starts after the first has finished.
        let firstFinished = lines.firstIndex { $0.contains("#1") && $0.contains("finished") }
        let secondStarted = lines.firstIndex { $0.contains("#2") && $0.contains("started") }
        XCTAssertNotNil(firstFinished)
        XCTAssertNotNil(secondStarted)
        if let a = firstFinished, let b = secondStarted { XCTAssertLessThan(a, b) }
    }
}
