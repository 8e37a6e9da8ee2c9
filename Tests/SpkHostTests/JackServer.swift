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

    /// jackd's process id (to stop it with SIGSTOP, as a hung server).
    var pid: Int32 { process.processIdentifier }

    var environment: [String: String] { ["JACK_DEFAULT_SERVER": name, "JACK_NO_START_SERVER": "1"] }

    /// The server's ports, as jack_lsp prints them.
    func ports() -> [String] {
        Fixture.run("jack_lsp", ["-s", name]).stdout.split(separator: "\n").map(String.init)
    }

    func stop() {
        Self.stop(process)
    }

    /// Waits up to five seconds for a port to appear.
    @discardableResult
    func waitForPort(_ port: String) -> Bool {
        for _ in 0..<100 {
            if ports().contains(port) { return true }
            usleep(50_000)
        }
        return false
    }

    /// Records `seconds` of a new mono input port, `jack_capture:input1`, that nothing is
    /// connected to yet, into `path`.
    func startCapture(path: String, seconds: Int) throws -> Process {
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/jack_capture")
        recorder.arguments = ["-c", "1", "--manual-connections", "--daemon", "-d", "\(seconds)", path]
        recorder.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // jack_capture quits at once when its output goes to /dev/null or a file: give it a pipe.
        let output = Pipe()
        recorder.standardOutput = output
        recorder.standardError = output
        try recorder.run()
        guard waitForPort("jack_capture:input1") else {
            Self.stop(recorder)
            throw XCTSkip("jack_capture did not start")
        }
        return recorder
    }

    /// Waits for a recorder started with `seconds` to finish, at most that long and 20 s more:
    /// on a loaded machine jack_capture has been seen to write its whole file and then hang in
    /// a futex, deaf to TERM. A hung recorder is stopped, so a test fails instead of hanging.
    static func finishCapture(_ recorder: Process, seconds: Int) {
        let deadline = Date().addingTimeInterval(Double(seconds) + 20)
        while recorder.isRunning && Date() < deadline { usleep(20_000) }
        stop(recorder)
    }

    /// `spkhost play` of a long text into this server, speaking for 1.5 s already: for tests of
    /// what it does when the server goes wrong. Its standard error is in the pipe.
    func startLongPlay() throws -> (play: Process, stderr: Pipe) {
        let play = Process()
        play.executableURL = URL(fileURLWithPath: Fixture.spkhost)
        play.arguments = ["play", "--text", String(repeating: "This goes on for a long while. ", count: 20)]
        play.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }.merging(["LV2_PATH": Fixture.lv2Path]) { $1 }
        let err = Pipe()
        play.standardError = err
        play.standardOutput = FileHandle.nullDevice
        try play.run()
        usleep(1_500_000)
        XCTAssertTrue(play.isRunning, "still speaking")
        return (play, err)
    }

    /// Waits at most `seconds` for `process` to exit; true if it did (else it is stopped).
    static func exits(_ process: Process, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let exited = !process.isRunning
        stop(process)
        return exited
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
