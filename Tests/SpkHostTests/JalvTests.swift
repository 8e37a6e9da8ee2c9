import Foundation
import SpkTestSupport
import XCTest

/// The plugin in a host nobody here wrote: jalv, against a jackd with the dummy backend.
final class JalvTests: XCTestCase {
    func testJalvInstantiatesThePluginAndMakesItsPorts() throws {
        _ = Fixture.lv2Path
        let jack = try JackServer()
        defer { jack.stop() }

        let jalv = Process()
        jalv.executableURL = URL(fileURLWithPath: "/usr/bin/jalv")
        jalv.arguments = ["-n", "spk-jalv", "urn:spk:synth:espeak-ng"]
        var env = ProcessInfo.processInfo.environment
        env.merge(jack.environment) { $1 }
        env["LV2_PATH"] = Fixture.lv2Path
        jalv.environment = env
        let input = Pipe(), output = Pipe()
        jalv.standardInput = input       // kept open: jalv's console reads commands from it
        jalv.standardOutput = output
        jalv.standardError = output
        try jalv.run()
        defer { JackServer.stop(jalv) }

        // jalv registers its JACK ports once the plugin is instantiated and activated.
        var ports: [String] = []
        for _ in 0..<100 {
            ports = jack.ports().filter { $0.hasPrefix("spk-jalv:") }
            if ports.contains("spk-jalv:out") || !jalv.isRunning { break }
            usleep(100_000)
        }
        XCTAssertTrue(jalv.isRunning, "jalv exited")
        XCTAssertTrue(ports.contains("spk-jalv:out"), "ports: \(ports)")
        XCTAssertTrue(ports.contains("spk-jalv:control"), "the MIDI-capable control input: \(ports)")
        JackServer.stop(jalv)
        let log = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertFalse(log.contains("Failed to instantiate"), log)
    }

    func testMIDINoteSpeaksThePresetText() throws {
        // A preset that sets spk:text, as a state directory jalv loads with -l (the preset is
        // the file itself, `<>`, as jalv saves them).
        let stateDir = Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: stateDir) }
        try writeJalvState(in: stateDir, properties: "spk:text \"Hello from a MIDI key, held down.\"", label: "MIDI test")

        let jack = try JackServer()
        defer { jack.stop() }
        func start(_ program: String, _ arguments: [String]) throws -> Process {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: program)
            p.arguments = arguments
            var env = ProcessInfo.processInfo.environment.merging(jack.environment) { $1 }
            env["LV2_PATH"] = Fixture.lv2Path
            p.environment = env
            p.standardInput = Pipe()
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            return p
        }
        let jalv = try start("/usr/bin/jalv", ["-l", stateDir.path, "-n", "spk-jalv"])
        defer { JackServer.stop(jalv) }
        XCTAssertTrue(jack.waitForPort("spk-jalv:out"), "jalv did not start")
        let path = stateDir.appendingPathComponent("midi.wav").path
        let recorder = try jack.startCapture(path: path, seconds: 3)
        // A key held for 1.9 s of every 2 s.
        let sequencer = try start("/usr/bin/jack_midiseq", ["spk-seq", "96000", "0", "60", "91200"])
        defer { JackServer.stop(sequencer) }
        jack.waitForPort("spk-seq:out")
        XCTAssertEqual(Fixture.run("jack_connect", ["spk-jalv:out", "jack_capture:input1"], environment: jack.environment).status, 0)
        XCTAssertEqual(Fixture.run("jack_connect", ["spk-seq:out", "spk-jalv:control"], environment: jack.environment).status, 0)
        JackServer.finishCapture(recorder, seconds: 3)
        let recorded = try Signal(path: path)
        XCTAssertGreaterThan(recorded.rms(), 0.01, "the note made the plugin speak")
        XCTAssertGreaterThan(recorded.spokenDuration, 0.3, "the sequencer may be mid-loop when connected: some speech, not all")
    }
}
