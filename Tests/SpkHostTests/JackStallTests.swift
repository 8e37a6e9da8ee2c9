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
        let play = Process()
        play.executableURL = URL(fileURLWithPath: Fixture.spkhost)
        play.arguments = ["play", "--text", String(repeating: "This goes on for a long while. ", count: 20)]
        play.environment = ProcessInfo.processInfo.environment.merging(jack.environment) { $1 }.merging(["LV2_PATH": Fixture.lv2Path]) { $1 }
        let err = Pipe()
        play.standardError = err
        play.standardOutput = FileHandle.nullDevice
        try play.run()
        usleep(1_500_000)
        XCTAssertTrue(play.isRunning, "still speaking")
        XCTAssertEqual(kill(jack.pid, SIGSTOP), 0)
        let deadline = Date().addingTimeInterval(10)
        while play.isRunning && Date() < deadline { usleep(20_000) }
        XCTAssertFalse(play.isRunning, "spkhost play waits for ever on a stopped server")
        if play.isRunning { play.terminate() }
        play.waitUntilExit()
        XCTAssertEqual(play.terminationStatus, 1)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = message.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, message)
        XCTAssertTrue(message.hasPrefix("error: ") && message.contains("stopped answering"), message)
    }
}
