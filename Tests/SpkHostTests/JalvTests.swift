import Foundation
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
}
