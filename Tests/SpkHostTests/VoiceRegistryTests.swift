import Foundation
import LV2Host
import SpkTestSupport
import VoiceRegistry
import XCTest

/// The voice registry: spkhost voices and voice install/remove/create/show, --watch, running
/// plugins following it, and the presets, each with a registry and home of its own.
final class VoiceRegistryTests: XCTestCase {
    var home: URL!
    var data: URL { home.appendingPathComponent("data") }
    var registryFile: String { data.path + "/spk/voices.json" }

    override func setUp() {
        home = Fixture.temporaryDirectory()
    }
    override func tearDown() { try? FileManager.default.removeItem(at: home) }

    var environment: [String: String] {
        ["LV2_PATH": Fixture.lv2Path + ":" + home.path + "/.lv2", "XDG_DATA_HOME": data.path, "HOME": home.path]
    }

    @discardableResult
    func spkhost(_ arguments: [String]) -> Fixture.Result {
        Fixture.run(Fixture.spkhost, arguments, environment: environment)
    }

    func voices(_ arguments: [String] = []) throws -> [[String: Any]] {
        let result = spkhost(["voices", "--json"] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
    }

    func identifiers(_ list: [[String: Any]]) -> Set<String> { Set(list.compactMap { $0["identifier"] as? String }) }

    func testAllListsEveryEspeakLanguageAndTheFiveFliteVoices() throws {
        let all = try voices(["--all"])
        let espeak = all.filter { ($0["identifier"] as? String)?.hasPrefix("spk.espeak-ng.") == true }
        XCTAssertGreaterThan(espeak.count, 80)
        XCTAssertEqual(identifiers(all).filter { $0.hasPrefix("spk.flite.") },
                       Set(["spk.flite.slt", "spk.flite.awb", "spk.flite.rms", "spk.flite.kal16", "spk.flite.kal"]))
        XCTAssertTrue(all.allSatisfy { !(($0["supportedLanguages"] as? [String]) ?? []).isEmpty })
    }

    func testInstallCreateRemoveRoundTrip() throws {
        // Neural voices need their model installed first; every other voice is there already.
        let everything = identifiers(try voices(["--all"])).filter { !$0.hasPrefix("spk.neural.") }
        XCTAssertEqual(identifiers(try voices()).filter { !$0.hasPrefix("spk.neural.") }, everything,
                       "without a registry every voice is installed")

        XCTAssertEqual(spkhost(["voice", "remove", "spk.flite.awb"]).status, 0)
        XCTAssertFalse(identifiers(try voices()).contains("spk.flite.awb"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: registryFile))
        XCTAssertEqual(spkhost(["voice", "install", "spk.flite.awb"]).status, 0)
        XCTAssertTrue(identifiers(try voices()).contains("spk.flite.awb"))

        let created = spkhost(["voice", "create", "--name", "Reading Voice", "--base", "spk.flite.slt", "--rate", "0.8", "--pitch", "0.9"])
        XCTAssertEqual(created.status, 0, created.stderr)
        XCTAssertTrue(identifiers(try voices()).contains("spk.flite.reading-voice"))
        let shown = spkhost(["voice", "show", "spk.flite.reading-voice", "--json"])
        XCTAssertTrue(shown.stdout.contains("\"base\" : \"spk.flite.slt\""), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("0.8"), shown.stdout)

        XCTAssertEqual(spkhost(["voice", "remove", "spk.flite.reading-voice"]).status, 0)
        XCTAssertFalse(identifiers(try voices(["--all"])).contains("spk.flite.reading-voice"))
        let missing = spkhost(["voice", "install", "spk.flite.nobody"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.hasPrefix("error: ") && missing.stderr.contains("spk.flite.nobody"), missing.stderr)
    }

    func testWatchReportsAnInstallByAnotherProcess() throws {
        XCTAssertEqual(spkhost(["voice", "remove", "spk.espeak-ng.fr"]).status, 0)
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: Fixture.spkhost)
        watch.arguments = ["voices", "--watch"]
        watch.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        watch.standardOutput = out
        watch.standardError = err
        try watch.run()
        defer { JackServer.stop(watch) }
        // Ready once it says what it watches.
        let ready = err.fileHandleForReading.availableData
        XCTAssertTrue(String(decoding: ready, as: UTF8.self).contains("watching"))

        let installedAt = Date()
        XCTAssertEqual(spkhost(["voice", "install", "spk.espeak-ng.fr"]).status, 0)
        var seen = ""
        while Date().timeIntervalSince(installedAt) < 2 && !seen.contains("added spk.espeak-ng.fr") {
            seen += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        }
        XCTAssertTrue(seen.contains("added spk.espeak-ng.fr"), "within 2 s: \(seen)")
        XCTAssertLessThan(Date().timeIntervalSince(installedAt), 2.5)
    }

    func testARunningPluginSpeaksACustomVoiceMadeAfterItStarted() throws {
        _ = Fixture.lv2Path
        setenv("XDG_DATA_HOME", data.path, 1)
        defer { setenv("XDG_DATA_HOME", Fixture.dataHome, 1) }
        let synth = try SpeechSynth(world: LV2World(), uri: "urn:spk:synth:espeak-ng", sampleRate: 48000, block: 256)
        XCTAssertFalse(try synth.voices().contains { $0.identifier == "spk.espeak-ng.quick" })

        let created = spkhost(["voice", "create", "--name", "Quick", "--base", "spk.espeak-ng.en-us", "--rate", "2"])
        XCTAssertEqual(created.status, 0, created.stderr)
        XCTAssertTrue(try synth.voices().contains { $0.identifier == "spk.espeak-ng.quick" }, "the voice list follows the registry")

        let text = "A custom voice speaks this sentence twice as fast."
        var quick: [Float] = [], base: [Float] = []
        _ = try synth.render(ssml: text, voice: "spk.espeak-ng.quick") { quick += $0 }
        _ = try synth.render(ssml: text, voice: "spk.espeak-ng.en-us") { base += $0 }
        let ratio = Signal(samples: quick, sampleRate: 48000).spokenDuration / Signal(samples: base, sampleRate: 48000).spokenDuration
        XCTAssertEqual(ratio, 0.5, accuracy: 0.12)
    }

    func testAGarbageRegistryIsReportedAndKept() throws {
        try FileManager.default.createDirectory(atPath: data.path + "/spk", withIntermediateDirectories: true)
        let garbage = Data("{ this is not a registry".utf8)
        try garbage.write(to: URL(fileURLWithPath: registryFile))
        for arguments in [["voices"], ["voice", "install", "spk.flite.slt"], ["voice", "create", "--name", "X", "--base", "spk.flite.slt"]] {
            let result = spkhost(arguments)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stderr.hasPrefix("error: ") && result.stderr.contains(registryFile), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: registryFile)), garbage, "left as it was")
    }

    func testConcurrentWritersLoseNothing() throws {
        let registry = VoiceRegistry(directory: data.path + "/spk")
        DispatchQueue.concurrentPerform(iterations: 4) { writer in
            for n in 0..<15 {
                _ = try? registry.update { c in
                    c.custom.append(CustomVoice(identifier: "spk.flite.w\(writer)-\(n)", name: "w\(writer) \(n)", base: "spk.flite.slt"))
                }
            }
        }
        XCTAssertEqual(try registry.load().custom.count, 60)
    }

    func testPresetsShowInLv2InfoAndLoad() throws {
        let info = Fixture.run("lv2info", ["urn:spk:synth:espeak-ng"], environment: environment)
        XCTAssertTrue(info.stdout.contains("Screen Reader Voice") && info.stdout.contains("Reading Voice"), info.stdout)

        let synth = try SpeechSynth(world: LV2World(), uri: "urn:spk:synth:espeak-ng", sampleRate: 48000, block: 256)
        let text = "Presets change how this sentence sounds."
        var plain: [Float] = [], fast: [Float] = []
        _ = try synth.render(ssml: text, voice: nil) { plain += $0 }
        try synth.plugin.applyPreset("Screen Reader Voice")
        XCTAssertEqual(synth.plugin.controls[try synth.plugin.port("rate").index]?.pointee, 2.2)
        _ = try synth.render(ssml: text, voice: nil) { fast += $0 }
        XCTAssertLessThan(Signal(samples: fast, sampleRate: 48000).spokenDuration,
                          Signal(samples: plain, sampleRate: 48000).spokenDuration * 0.6)
        XCTAssertThrowsError(try synth.plugin.applyPreset("No Such Preset"))
    }

    func testInstalledVoicesGetPresetsInTheUserLV2Path() throws {
        XCTAssertEqual(spkhost(["voice", "create", "--name", "Announcer", "--base", "spk.flite.awb", "--rate", "0.9"]).status, 0)
        let info = Fixture.run("lv2info", ["urn:spk:synth:flite"], environment: environment)
        XCTAssertTrue(info.stdout.contains("Announcer"), info.stdout)
        // Each installed voice has one, under its own name.
        let presets = try String(contentsOfFile: home.path + "/.lv2/spk-user-voices.lv2/voices.ttl", encoding: .utf8)
        XCTAssertTrue(presets.contains("spk:voice \"spk.flite.announcer\""), presets)
        XCTAssertTrue(presets.contains("spk:voice \"spk.espeak-ng.en-us\""))
    }
}
