import Foundation
import XCTest

/// An Xvfb server on a display of its own for a test, and the X tools that drive it (xdotool,
/// xwininfo). Stopped by its PID.
final class XServer {
    let display: String
    private let process = Process()

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else {
            throw XCTSkip("Xvfb and xdotool are needed (scripts/install-deps.sh installs them)")
        }
        // A display number no other server holds (other test runs go on in parallel).
        var number = 200 + Int(getpid() % 500)
        while FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") { number += 1 }
        display = ":\(number)"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        // -noreset: with no client left between two windows, Xvfb would otherwise reset and refuse
        // the next connection while it does.
        process.arguments = [display, "-screen", "0", "1024x768x24", "-nolisten", "tcp", "-noreset"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            if run("xdpyinfo", []).status == 0 || run("xwininfo", ["-root"]).status == 0 { return }
            usleep(50_000)
        }
        stop()
        throw XCTSkip("Xvfb did not start on \(display)")
    }

    var environment: [String: String] { ["DISPLAY": display] }

    @discardableResult
    func run(_ program: String, _ arguments: [String]) -> Fixture.Result {
        Fixture.run(program, arguments, environment: environment)
    }

    /// The first window whose name is exactly `name`, waiting up to `seconds`.
    func waitForWindow(named name: String, seconds: Double = 10) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let found = run("xdotool", ["search", "--name", "^\(name)$"]).stdout.split(separator: "\n").first
            if let found { return String(found) }
            usleep(100_000)
        }
        return nil
    }

    func stop() { JackServer.stop(process) }

    deinit { stop() }
}

/// Waits until `condition` holds, polling every 50 ms, up to `seconds`.
@discardableResult
func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(50_000)
    }
    return condition()
}
