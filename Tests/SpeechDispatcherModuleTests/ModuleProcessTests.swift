import Foundation
import SpeechDispatcherModule
import XCTest

/// sd_spk spoken to directly over its protocol, with the real plugins.
final class ModuleProcessTests: XCTestCase {
    var data: URL!

    override func setUp() { data = ModuleFixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: data) }

    var environment: [String: String] { ["LV2_PATH": ModuleFixture.lv2Path, "XDG_DATA_HOME": data.path] }

    func started(config: String? = nil) throws -> ModuleProcess {
        var path: String?
        if let config {
            path = data.appendingPathComponent("spk.conf").path
            try config.write(toFile: path!, atomically: true, encoding: .utf8)
        }
        let module = try ModuleProcess(environment: environment, config: path)
        module.send("INIT\n")
        XCTAssertTrue(module.waitForLine("299 OK LOADED SUCCESSFULLY"), "\(module.lines)")
        module.send("AUDIO\naudio_output_method=server\n.\n")
        XCTAssertTrue(module.waitForLine("203 OK AUDIO INITIALIZED"), "\(module.lines)")
        return module
    }

    func testStopEndsTheMessageWithinABlockOfAudio() throws {
        // A bound on how far ahead of playing time audio goes: otherwise the whole message is
        // made and sent before any STOP can come.
        let module = try started(config: "SpkAheadSeconds 1\n")
        defer { module.stop() }
        module.send("SPEAK\n" + SpeechdEndToEndTests.longText + "\n.\n")
        XCTAssertTrue(module.wait { $0.contains { if case .audio = $0 { true } else { false } } })
        usleep(300_000)
        let atStop = module.messages.count
        module.send("STOP\n")
        XCTAssertTrue(module.waitForLine("703 STOP"), "\(module.lines)")
        let messages = module.messages
        func samples(_ m: ArraySlice<ModuleProcess.Message>) -> Int {
            m.reduce(0) { if case .audio(let s) = $1 { $0 + s.count } else { $0 } }
        }
        let before = samples(messages[..<atStop]), after = samples(messages[atStop...])
        print("STOP: \(Double(before) / 22050) s of audio sent before it, \(after) samples after")
        XCTAssertLessThanOrEqual(after, 2 * 1024, "at most the block being sent when STOP came, and one more")
        XCTAssertLessThan(Double(before) / 22050, 3, "audio is sent a little ahead of playing time, not all at once")
        XCTAssertFalse(messages.contains(.line("702 END")))
        // The module takes the next message at once.
        module.send("SPEAK\nAgain.\n.\n")
        XCTAssertTrue(module.wait { $0.filter { $0 == .line("702 END") }.count == 1 }, "\(module.lines)")
    }

    /// PAUSE stops right after the next of speech-dispatcher's own `__spd_` marks, where the
    /// server resumes the message later.
    func testPauseStopsAfterTheNextResumableMark() throws {
        let module = try started(config: "SpkAheadSeconds 1\n")
        defer { module.stop() }
        let sentences = SpeechdEndToEndTests.longText.split(separator: ".").map { $0 + "." }
        let ssml = "<speak>" + sentences.enumerated().map { "\($1)<mark name=\"__spd_\($0)\"/>" }.joined() + "</speak>"
        module.send("SPEAK\n\(ssml)\n.\n")
        XCTAssertTrue(module.wait { $0.contains { if case .audio = $0 { true } else { false } } })
        module.send("PAUSE\n")
        XCTAssertTrue(module.waitForLine("704 PAUSE"), "\(module.lines)")
        let lines = module.lines
        let pause = lines.firstIndex(of: "704 PAUSE")!
        XCTAssertEqual(lines[pause - 1], "700 INDEX MARK")
        XCTAssertTrue(lines[pause - 2].hasPrefix("700-__spd_"), "\(lines)")
        XCTAssertFalse(lines.contains("700-__spd_\(sentences.count - 1)"), "paused before the end: \(lines)")
        XCTAssertFalse(lines.contains("702 END"))
    }

    func testAudioComesBackDecodableAndAudible() throws {
        let module = try started()
        defer { module.stop() }
        module.send("SPEAK\n<speak>Hello <mark name=\"m\"/>world</speak>\n.\n")
        XCTAssertTrue(module.waitForLine("702 END"), "\(module.lines)")
        let messages = module.messages
        let samples = messages.flatMap { if case .audio(let s) = $0 { s } else { [Int16]() } }
        XCTAssertGreaterThan(samples.count, 22050 / 2)
        XCTAssertGreaterThan(samples.map { abs(Int($0)) }.max() ?? 0, 3000, "speech, not silence")
        let mark = try XCTUnwrap(messages.firstIndex(of: .line("700-m")))
        XCTAssertEqual(messages[mark + 1], .line("700 INDEX MARK"))
        XCTAssertTrue(messages[..<mark].contains { if case .audio = $0 { true } else { false } }, "Hello is before the mark")
        XCTAssertTrue(messages[mark...].contains { if case .audio = $0 { true } else { false } }, "world after it")
        XCTAssertEqual(module.lines.filter { $0.hasPrefix("70") && !$0.hasPrefix("700") }, ["701 BEGIN", "702 END"])
    }

    /// A message larger than the plugin's control port (a "say all" of a long page) is spoken
    /// whole: its mark lies past the first 64 KiB.
    func testAMessageLargerThanTheControlPortIsSpokenWhole() throws {
        let module = try started()
        defer { module.stop() }
        let padding = String(repeating: "spk ", count: 70_000 / 4)
        module.send("SPEAK\n<speak><!-- \(padding) -->Hello <mark name=\"far\"/>world</speak>\n.\n")
        XCTAssertTrue(module.waitForLine("702 END"), "\(module.lines)")
        XCTAssertTrue(module.lines.contains("700-far"), "\(module.lines)")
        let samples = module.messages.flatMap { if case .audio(let s) = $0 { s } else { [Int16]() } }
        XCTAssertGreaterThan(samples.map { abs(Int($0)) }.max() ?? 0, 3000, "speech, not silence")
    }

    func testInitFailsNamingMissingPlugins() throws {
        let empty = data.appendingPathComponent("no-plugins")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let module = try ModuleProcess(environment: ["LV2_PATH": empty.path, "XDG_DATA_HOME": data.path])
        defer { module.stop() }
        module.send("INIT\n")
        XCTAssertEqual(module.waitForExit(), 1)
        XCTAssertTrue(module.lines.contains { $0.hasPrefix("399-no spk synth plugins found") && $0.contains(empty.path) }, "\(module.lines)")
        XCTAssertEqual(module.lines.last, "399 ERR CANT INIT MODULE")
    }

    func testInitFailsNamingABrokenVoiceRegistry() throws {
        try FileManager.default.createDirectory(at: data.appendingPathComponent("spk"), withIntermediateDirectories: true)
        try "{ not json".write(to: data.appendingPathComponent("spk/voices.json"), atomically: true, encoding: .utf8)
        let module = try ModuleProcess(environment: environment)
        defer { module.stop() }
        module.send("INIT\n")
        XCTAssertEqual(module.waitForExit(), 1)
        XCTAssertTrue(module.lines.contains { $0.hasPrefix("399-") && $0.contains("voices.json") }, "\(module.lines)")
    }

    func testInitFailsNamingABadConfigLine() throws {
        let config = data.appendingPathComponent("spk.conf")
        try "SpkSampleRate fast\n".write(to: config, atomically: true, encoding: .utf8)
        let module = try ModuleProcess(environment: environment, config: config.path)
        defer { module.stop() }
        module.send("INIT\n")
        XCTAssertEqual(module.waitForExit(), 1)
        XCTAssertTrue(module.lines.contains { $0.hasPrefix("399-") && $0.contains("spk.conf:1") && $0.contains("SpkSampleRate") }, "\(module.lines)")
    }

    func testSettingsAreAnsweredAndBadValuesRefused() throws {
        let module = try started()
        defer { module.stop() }
        module.send("SET\nrate=20\npitch=-10\nvoice=female1\nlanguage=en\nsynthesis_voice=NULL\n.\n")
        XCTAssertTrue(module.waitForLine("203 OK SETTINGS RECEIVED"), "\(module.lines)")
        module.send("SET\nrate=fast\n.\n")
        XCTAssertTrue(module.waitForLine("303 ERROR INVALID PARAMETER OR VALUE"), "\(module.lines)")
        module.send("QUIT\n")
        XCTAssertTrue(module.waitForLine("210 OK QUIT"))
        XCTAssertEqual(module.waitForExit(), 0)
    }
}
