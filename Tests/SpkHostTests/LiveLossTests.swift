import Foundation
import XCTest

/// `spkhost live` under a fast or careless writer: every line is spoken, none dropped.
final class LiveLossTests: XCTestCase {
    func live(_ stdin: String, jack: JackServer, arguments: [String] = []) -> Fixture.Result {
        Fixture.run(Fixture.spkhost, ["live", "--connect", "system:playback_1"] + arguments, stdin: stdin,
                    environment: ["LV2_PATH": Fixture.lv2Path].merging(jack.environment) { $1 })
    }

    /// 500 lines at once on a pipe (twice the plugin's queue): all 500 finish, in order.
    func testFiveHundredPipedLinesAreAllSpoken() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        // Requests that take almost no time to play, so the test is about the queue, not speech.
        let lines = (1...500).map { "<speak><mark name=\"line\($0)\"/><break time=\"1ms\"/></speak>\n" }.joined()
        let result = live(lines, jack: jack)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("too many requests"), result.stderr)
        let finished = result.stdout.split(separator: "\n").filter { $0.contains("finished") }
        XCTAssertEqual(finished.count, 500, String(result.stderr.prefix(2000)))
    }

    /// Requests that crashed a live session (a phoneme string of 400 symbols, a huge break) or
    /// would hang it (an <audio> FIFO) are each refused, and the session goes on speaking.
    func testHostileLinesAreRefusedAndTheSessionGoesOn() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("spk-live-fifo-\(UUID().uuidString)").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        let hostile = [
            "<speak><phoneme alphabet=\"x-espeak\" ph=\"\(String(repeating: "tS", count: 400))\">x</phoneme></speak>",
            "<speak>a<break time=\"9223372036854775807ms\"/>b</speak>",
            "<speak>a <audio src=\"\(fifo)\">b</audio></speak>",
            "<speak><unclosed",
        ]
        let result = live((hostile + ["Still speaking."]).joined(separator: "\n") + "\n", jack: jack)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").filter { $0.contains("finished") }.count, 1, result.stdout + result.stderr)
        for expected in ["at most 128", "at most 60 s", "not a regular file"] {
            XCTAssertTrue((result.stdout + result.stderr).contains(expected), expected + ": " + result.stdout + result.stderr)
        }
    }

    func testAnUnknownVoiceLeavesTheNextLineSpoken() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        let result = live("/voice bogus\nStill spoken.\n", jack: jack)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("error: unknown voice 'bogus'"), result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").filter { $0.contains("finished") }.count, 1, result.stdout + result.stderr)
    }
}
