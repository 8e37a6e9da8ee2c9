import Foundation
import XCTest

/// `spkhost plugins` and `spkhost voices`, and what other LV2 tools make of the bundle.
final class DiscoveryTests: XCTestCase {
    func testPluginsListsTheSynth() throws {
        let result = Fixture.spkhost(["plugins", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let plugins = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        let synth = plugins.first { $0["uri"] as? String == "urn:spk:synth:espeak-ng" }
        XCTAssertNotNil(synth, result.stdout)
        let ports = (synth?["ports"] as? [[String: Any]] ?? []).compactMap { $0["symbol"] as? String }
        XCTAssertEqual(ports, ["control", "notify", "out", "rate", "pitch", "volume", "trim"])
    }

    func testVoicesListsEveryEspeakVoiceWithLanguages() throws {
        let result = Fixture.spkhost(["voices", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let voices = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        // espeak-ng 1.51 ships voices for about a hundred languages.
        XCTAssertGreaterThan(voices.count, 80)
        let us = voices.first { $0["identifier"] as? String == "spk.espeak-ng.en-us" }
        XCTAssertEqual(us?["primaryLanguages"] as? [String], ["en-US"])
        XCTAssertTrue(voices.allSatisfy { !(($0["supportedLanguages"] as? [String]) ?? []).isEmpty })

        let french = Fixture.spkhost(["voices", "--language", "fr"])
        XCTAssertEqual(french.status, 0, french.stderr)
        XCTAssertTrue(french.stdout.contains("spk.espeak-ng.fr"), french.stdout)
        XCTAssertFalse(french.stdout.contains("spk.espeak-ng.en-us"), french.stdout)
    }

    func testEveryListedVoiceSpeaks() throws {
        let dir = Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for voice in ["spk.espeak-ng.de", "spk.espeak-ng.fr", "spk.espeak-ng.cmn"] {
            let output = dir.appendingPathComponent("\(voice).wav").path
            let result = Fixture.spkhost(["render", "--text", "1 2 3", "--voice", voice, "--output", output])
            XCTAssertEqual(result.status, 0, "\(voice): \(result.stderr)")
        }
    }

    func testLv2InfoDescribesAndLv2ValidateAcceptsTheBundle() {
        assertDescribedAndValid("urn:spk:synth:espeak-ng", named: "spk espeak-ng")
    }

    /// espeak-ng and flite keep process-wide state, and each serves two plugins: every spk synth
    /// comes from one library, so one copy of each engine and its lock serves the process.
    func testEverySynthComesFromOneLibrary() {
        var binaries: Set<String> = []
        for uri in ["urn:spk:synth:espeak-ng", "urn:spk:synth:flite", "urn:spk:synth:neural", "urn:spk:synth:personal"] {
            let info = Fixture.run("lv2info", [uri], environment: ["LV2_PATH": Fixture.lv2Path])
            XCTAssertEqual(info.status, 0, info.stderr)
            let binary = info.stdout.split(separator: "\n").first { $0.contains("Binary:") }
            XCTAssertNotNil(binary, "\(uri): \(info.stdout)")
            binaries.insert(binary.map { String($0.split(separator: " ").last ?? "") } ?? "")
        }
        XCTAssertEqual(binaries.count, 1, "\(binaries)")
        XCTAssertTrue(binaries.first?.hasSuffix("/spk.lv2/spk.so") == true, "\(binaries)")
    }
}
