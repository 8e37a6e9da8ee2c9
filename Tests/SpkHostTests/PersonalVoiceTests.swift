import Foundation
import PersonalVoice
import SpkAudio
import SpkTestSupport
import XCTest

/// Personal voices end to end: "recordings" made with flite's awb (real speech of a known
/// speaker), built into a voice, spoken through the personal plugin, kept private, and offered
/// only to clients the person authorized.
final class PersonalVoiceTests: XCTestCase {
    static let phrases = ["Yes.", "No.", "Thank you.", "Please.", "Hello.", "Goodbye.", "I love you.", "I need help.",
                          "I am tired.", "I am in pain.", "I'm hungry.", "I'm thirsty.", "Could you call my family?",
                          "I need to use the bathroom.", "Please give me a moment.", "I don't understand.",
                          "Can you repeat that?", "Good morning.", "Good night.", "See you soon."]

    var home: URL!
    var takes: URL { home.appendingPathComponent("takes") }
    var personal: String { home.path + "/data/spk/personal" }

    /// The twenty takes, made once for all tests; each test works on its own copy.
    static let recordedTakes: URL = {
        let dir = Fixture.temporaryDirectory().appendingPathComponent("takes")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (n, phrase) in phrases.enumerated() {
            let name = String(format: "%03d", n + 1)
            let result = Fixture.spkhost(["render", "--voice", "spk.flite.awb", "--text", phrase, "--sample-rate", "44100",
                                          "--output", dir.appendingPathComponent("\(name).wav").path])
            precondition(result.status == 0, result.stderr)
            try! (phrase + "\n").write(to: dir.appendingPathComponent("\(name).txt"), atomically: true, encoding: .utf8)
        }
        return dir
    }()

    override func setUpWithError() throws {
        home = Fixture.temporaryDirectory()
        try FileManager.default.copyItem(at: Self.recordedTakes, to: takes)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: home) }

    func environment(client: String = "test-app") -> [String: String] {
        ["LV2_PATH": Fixture.lv2Path, "XDG_DATA_HOME": home.path + "/data", "HOME": home.path, "SPK_CLIENT": client]
    }

    @discardableResult
    func spkhost(_ arguments: [String], client: String = "test-app") -> Fixture.Result {
        Fixture.run(Fixture.spkhost, arguments, environment: environment(client: client))
    }

    func create() -> Fixture.Result {
        let result = spkhost(["personal-voice", "create", "--name", "My Voice", "--from", takes.path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        return result
    }

    func profile() throws -> PersonalProfile {
        try PersonalProfile.load(from: personal + "/my-voice/voice.json", store: PersonalStore(root: personal))
    }

    func testCreateBanksEveryTakeAndNamesTheBadOnes() throws {
        // A silent take, a clipped one, and one without its transcript.
        let silent = MonoAudio(samples: [Float](repeating: 0.0001, count: 44100), sampleRate: 44100)
        var clipped = try AudioFileReader.readMono(path: takes.appendingPathComponent("003.wav").path)
        clipped.samples = clipped.samples.map { max(-1, min(1, $0 * 40)) }
        for (name, audio) in [("silent", silent), ("clipped", clipped)] {
            let writer = try AudioFileWriter(path: takes.appendingPathComponent("\(name).wav").path, sampleRate: 44100)
            try writer.write(audio.samples)
            try writer.commit()
            try "Some words.\n".write(to: takes.appendingPathComponent("\(name).txt"), atomically: true, encoding: .utf8)
        }
        try FileManager.default.copyItem(at: takes.appendingPathComponent("004.wav"), to: takes.appendingPathComponent("untold.wav"))

        let result = create()
        XCTAssertTrue(result.stdout.contains("20 phrases banked"), result.stdout)
        XCTAssertTrue(result.stdout.contains("left out silent: silent"), result.stdout)
        XCTAssertTrue(result.stdout.contains("left out clipped: clipped"), result.stdout)
        XCTAssertTrue(result.stdout.contains("left out untold: missing transcript"), result.stdout)
        XCTAssertTrue(result.stdout.contains("analysing 20/20"), "progress is shown")
        let voice = try profile()
        XCTAssertEqual(voice.bank.count, 20)
        XCTAssertEqual(Set(voice.bank.map(\.key)).count, 20)
        XCTAssertEqual(voice.synthetic.base, "spk.flite.awb", "the recordings are awb's: the nearest voice is awb")
    }

    func testTooFewGoodTakesFailClearly() throws {
        for n in 4...20 {
            try FileManager.default.removeItem(at: takes.appendingPathComponent(String(format: "%03d.txt", n)))
        }
        let result = spkhost(["personal-voice", "create", "--name", "My Voice", "--from", takes.path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("only 3 good takes") && result.stderr.contains("at least 5"), result.stderr)
    }

    func testABankedSentenceComesOutAsItsTake() throws {
        create()
        spkhost(["personal-voice", "authorize", "test-app"])
        let output = home.appendingPathComponent("banked.wav").path
        let rendered = spkhost(["render", "--voice", "spk.personal.my-voice", "--text", "Thank you.", "--sample-rate", "44100", "--output", output])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let voice = try profile()
        let take = try XCTUnwrap(voice.take(for: "thank you"))
        let banked = try AudioFileReader.readMono(path: personal + "/my-voice/" + take.file).samples
        let spoken = try AudioFileReader.readMono(path: output).samples
        XCTAssertGreaterThan(bestCorrelation(spoken, banked, maxLag: 4410), 0.9)
    }

    func testAnUnbankedSentenceHasThePersonsPitch() throws {
        create()
        spkhost(["personal-voice", "authorize", "test-app"])
        let output = home.appendingPathComponent("synthetic.wav").path
        let rendered = spkhost(["render", "--voice", "spk.personal.my-voice", "--sample-rate", "16000", "--output", output,
                                "--text", "The garden looks wonderful after the rain this morning."])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let samples = try AudioFileReader.readMono(path: output).samples
        let pitches = PitchTracker(sampleRate: 16000).track(samples)
        let mean = pitches.reduce(0, +) / Double(pitches.count)
        let target = try profile().analysis.meanPitch
        XCTAssertEqual(mean, target, accuracy: target * 0.15)
    }

    func testEverythingIsPrivate() throws {
        create()
        spkhost(["personal-voice", "authorize", "test-app"])
        let enumerator = FileManager.default.enumerator(atPath: personal)!
        var checked = 0
        for case let relative as String in enumerator {
            let path = personal + "/" + relative
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode = (attributes[.posixPermissions] as! NSNumber).intValue
            let isDirectory = attributes[.type] as? FileAttributeType == .typeDirectory
            XCTAssertEqual(mode, isDirectory ? 0o700 : 0o600, "\(relative) is \(String(mode, radix: 8))")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 22, "voice.json, authorization.json, 20 takes and the directories")
        let rootMode = (try FileManager.default.attributesOfItem(atPath: personal)[.posixPermissions] as! NSNumber).intValue
        XCTAssertEqual(rootMode, 0o700)
    }

    func testOnlyAuthorizedClientsSeeOrUseThePersonalVoice() throws {
        create()
        func listed() throws -> [[String: Any]] {
            let result = spkhost(["voices", "--json"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let voices = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
            return voices.filter { $0["identifier"] as? String == "spk.personal.my-voice" }
        }
        XCTAssertEqual(spkhost(["personal-voice", "status", "test-app"]).stdout, "test-app: notDetermined\n")
        XCTAssertTrue(try listed().isEmpty, "not determined: not listed")
        let refused = spkhost(["render", "--voice", "spk.personal.my-voice", "--text", "Hi", "--output", home.path + "/x.wav"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("not authorized for test-app"), refused.stderr)

        spkhost(["personal-voice", "authorize", "test-app"])
        let voice = try XCTUnwrap(try listed().first)
        XCTAssertEqual(voice["traits"] as? [String], ["personal"])
        XCTAssertTrue(try listed(client: "other-app").isEmpty, "another app still does not see it")

        spkhost(["personal-voice", "revoke", "test-app"])
        XCTAssertEqual(spkhost(["personal-voice", "status", "test-app"]).stdout, "test-app: denied\n")
        XCTAssertTrue(try listed().isEmpty)

        func listed(client: String) throws -> [[String: Any]] {
            let result = spkhost(["voices", "--json"], client: client)
            let voices = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
            return voices.filter { $0["identifier"] as? String == "spk.personal.my-voice" }
        }
    }

    func testRecordImportsGoodTakesAndDeleteRemovesEverything() throws {
        try Data(repeating: 0, count: 100).write(to: takes.appendingPathComponent("broken.wav"))
        try "Broken.\n".write(to: takes.appendingPathComponent("broken.txt"), atomically: true, encoding: .utf8)
        let recorded = spkhost(["personal-voice", "record", "--name", "My Voice", "--from", takes.path])
        XCTAssertEqual(recorded.status, 0, recorded.stderr)
        XCTAssertTrue(recorded.stdout.contains("20 takes kept"), recorded.stdout)
        XCTAssertEqual(spkhost(["personal-voice", "create", "--name", "My Voice"]).status, 0)
        XCTAssertTrue(spkhost(["personal-voice", "list"]).stdout.contains("spk.personal.my-voice"))
        XCTAssertEqual(spkhost(["personal-voice", "delete", "My Voice"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: personal + "/my-voice"))
        XCTAssertFalse(spkhost(["personal-voice", "list"]).stdout.contains("my-voice"))
    }

    func testRecordTakesFromAJACKInputPhraseByPhrase() throws {
        let jack = try JackServer()
        defer { jack.stop() }
        var env = ProcessInfo.processInfo.environment.merging(environment()) { $1 }
        env.merge(jack.environment) { $1 }
        // Speech to record: spkhost play, speaking for a while into nowhere but our recorder.
        let speaker = Process()
        speaker.executableURL = URL(fileURLWithPath: Fixture.spkhost)
        speaker.arguments = ["play", "--voice", "spk.flite.awb", "--connect", "system:playback_1",
                             "--text", String(repeating: "Yes, I am speaking into the microphone now. ", count: 6)]
        speaker.environment = env
        speaker.standardOutput = FileHandle.nullDevice
        try speaker.run()
        defer { JackServer.stop(speaker) }
        XCTAssertTrue(jack.waitForPort("spkhost:out"))

        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: Fixture.spkhost)
        recorder.arguments = ["personal-voice", "record", "--name", "My Voice", "--port", "spkhost:out"]
        recorder.environment = env
        let input = Pipe(), output = Pipe()
        recorder.standardInput = input
        recorder.standardOutput = output
        recorder.standardError = output
        try recorder.run()
        defer { JackServer.stop(recorder) }
        func say(_ line: String, after seconds: Double) {
            Thread.sleep(forTimeInterval: seconds)
            input.fileHandleForWriting.write(Data((line + "\n").utf8))
        }
        say("", after: 1)        // record the first phrase
        say("", after: 2)        // stop: a good take
        say("q", after: 1)       // finish
        recorder.waitUntilExit()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(recorder.terminationStatus, 0, printed)
        XCTAssertTrue(printed.contains("Say: \"Yes.\"") && printed.contains("kept"), printed)
        let take = personal + "/my-voice/recordings/001"
        XCTAssertEqual(try String(contentsOfFile: take + ".txt", encoding: .utf8), "Yes.\n")
        let audio = try AudioFileReader.readMono(path: take + ".wav")
        XCTAssertEqual(audio.seconds, 2, accuracy: 0.5)
        XCTAssertNil(TakeCheck.problem(in: audio.samples, sampleRate: audio.sampleRate))
    }

    /// The highest normalised cross-correlation of `a` against `b` over lags within `maxLag`
    /// (searched coarsely, then finely around the best).
    func bestCorrelation(_ a: [Float], _ b: [Float], maxLag: Int) -> Double {
        func correlation(_ lag: Int) -> Double {
            var ab = 0.0, aa = 0.0, bb = 0.0
            for i in 0..<b.count {
                let j = i + lag
                guard j >= 0 && j < a.count else { continue }
                ab += Double(a[j]) * Double(b[i]); aa += Double(a[j]) * Double(a[j]); bb += Double(b[i]) * Double(b[i])
            }
            return aa > 0 && bb > 0 ? ab / (aa * bb).squareRoot() : -1
        }
        let coarse = stride(from: -maxLag, through: maxLag, by: 8).max { correlation($0) < correlation($1) } ?? 0
        return (coarse - 8...coarse + 8).map(correlation).max() ?? -1
    }
}
