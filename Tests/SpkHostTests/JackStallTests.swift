import Foundation
import XCTest

/// A JACK server that stops answering (SIGSTOP) while spkhost play speaks: noticed within a
/// few seconds, one `error:` line, exit 1, never a wait for ever.
final class JackStallTests: XCTestCase {
    func testPlayNoticesAStoppedServer() throws {
        let jack = try JackServer()
        defer {
            kill(jack.pid, SIGCONT)
            jack.stop()
        }
        let (play, err) = try jack.startLongPlay()
        XCTAssertEqual(kill(jack.pid, SIGSTOP), 0)
        XCTAssertTrue(JackServer.exits(play, within: 10), "spkhost play waits for ever on a stopped server")
        XCTAssertEqual(play.terminationStatus, 1)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = message.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, message)
        XCTAssertTrue(message.hasPrefix("error: ") && message.contains("stopped answering"), message)
    }
}
