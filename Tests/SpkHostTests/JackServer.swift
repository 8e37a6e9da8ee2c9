import Foundation
import XCTest

/// A jackd with the dummy backend under a private server name, started for a test and
/// stopped by its PID (TERM, then KILL if it lingers).
final class JackServer {
    let name: String
    let sampleRate: Int
    let period: Int
    private let process = Process()

    init(sampleRate: Int = 48000, period: Int = 256) throws {
        name = "spk-test-\(getpid())-\(UInt32.random(in: 0..<1_000_000))"
        self.sampleRate = sampleRate
        self.period = period
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jackd")
        process.arguments = ["--no-realtime", "-n", name, "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let wait = Fixture.run("jack_wait", ["-s", name, "-w", "-t", "10"])
        guard wait.status == 0 else {
            stop()
            throw XCTSkip("jackd (dummy backend) did not start: \(wait.stdout)\(wait.stderr)")
        }
    }

    var environment: [String: String] { ["JACK_DEFAULT_SERVER": name, "JACK_NO_START_SERVER": "1"] }

    /// The server's ports, as jack_lsp prints them.
    func ports() -> [String] {
        Fixture.run("jack_lsp", ["-s", name]).stdout.split(separator: "\n").map(String.init)
    }

    func stop() {
        Self.stop(process)
    }

    /// TERM, then KILL after three seconds.
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<300 where process.isRunning { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }
}
