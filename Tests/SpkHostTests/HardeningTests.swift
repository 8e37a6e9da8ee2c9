import Foundation
import VoiceRegistry
import XCTest

/// Hostile and careless input to the real spkhost: one `error:` line, nothing left behind,
/// nothing lost, no crash or hang. Each test has a home, data directory and output directory of
/// its own.
final class HardeningTests: XCTestCase {
    var home: URL!
    var data: URL { home.appendingPathComponent("data") }
    var out: URL { home.appendingPathComponent("out") }

    override func setUpWithError() throws {
        home = Fixture.temporaryDirectory()
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: home) }

    var environment: [String: String] {
        ["LV2_PATH": Fixture.lv2Path, "XDG_DATA_HOME": data.path, "HOME": home.path, "SPK_CLIENT": "hardening-tests"]
    }

    @discardableResult
    func spkhost(_ arguments: [String]) -> Fixture.Result {
        Fixture.run(Fixture.spkhost, arguments, environment: environment)
    }

    // MARK: usage errors

    func testUsageErrorsAreOneErrorLine() {
        let output = out.appendingPathComponent("x.wav").path
        for (arguments, expected) in [
            (["render", "--text", "hi", "--bogus", "--output", output], "Unknown option '--bogus'"),
            (["render", "--text", "hi"], "Missing expected argument '--output <output>'"),
            (["render", "--text", "hi", "--rate", "abc", "--output", output], "'abc' is invalid for '--rate <rate>'"),
            (["voice", "create", "--name", "x", "--base", "spk.espeak-ng.en-us", "--rate", "1e308"], "--rate 1e+308 is outside 0.25...4"),
            (["voice", "create", "--name", "x", "--base", "spk.espeak-ng.en-us", "--pitch=-5"], "--pitch -5.0 is outside 0.5...2"),
            (["voice", "create", "--name", "x", "--base", "spk.espeak-ng.en-us", "--volume", "nan"], "--volume nan is outside 0...2"),
            (["no-such-command"], "no-such-command"),
        ] {
            assertFailsCleanly(spkhost(arguments), mentioning: [expected], leaving: out)
        }
    }

    /// Found by the SSML fuzzer: bytes that look like UCS-4 made libxml2 print conversion errors
    /// to stderr, several lines before (or instead of) spk's own error.
    func testBytesThatLookLikeAnotherEncodingGiveOneErrorLine() throws {
        let input = home.appendingPathComponent("ucs4.ssml")
        try Data([0x3C, 0, 0, 0, 0xEF, 0xBF, 0xBD, 0]).write(to: input)
        assertFailsCleanly(spkhost(["render", "--input", input.path, "--output", out.appendingPathComponent("x.wav").path]),
                           mentioning: ["SSML line 1"], leaving: out)
    }

    func testHelpStillWorks() {
        let result = spkhost(["render", "--help"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("USAGE: spkhost render"), result.stdout)
    }

    // MARK: the registry

    func writeRegistry(_ text: String) throws -> String {
        let dir = data.appendingPathComponent("spk")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("voices.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testARegistryThatIsNotAnObjectNamesItsPath() throws {
        let path = try writeRegistry("[1,2,3]")
        assertFailsCleanly(spkhost(["voices"]), mentioning: [path, "expected a JSON object at the top level"], leaving: out)
    }

    func testACustomVoiceOutOfRangeInTheRegistryNamesTheFileAndTheVoice() throws {
        let path = try writeRegistry("""
            {"version": 1, "installed": [], "custom": [{"identifier": "spk.espeak-ng.odd", "name": "Odd",
             "base": "spk.espeak-ng.en-us", "rate": 1, "pitch": -5, "volume": 1}]}
            """)
        assertFailsCleanly(spkhost(["voices"]), mentioning: [path, "spk.espeak-ng.odd", "pitch -5.0 is outside 0.5...2"], leaving: out)
        // The plugin reads the same registry: the request is spoken or refused, never a crash.
        let output = out.appendingPathComponent("odd.wav").path
        let render = spkhost(["render", "--voice", "spk.espeak-ng.odd", "--text", "Hello", "--output", output])
        XCTAssertTrue([0, 1].contains(render.status), "status \(render.status): \(render.stderr)")
        try? FileManager.default.removeItem(atPath: output)
    }

    /// 60 `voice create` at once, each a different name: all succeed, and the registry and the
    /// presets bundle agree on all 60.
    func testConcurrentVoiceCreatesAllSucceedAndAgree() throws {
        let group = DispatchGroup()
        final class Failures: @unchecked Sendable { let lock = NSLock(); var list: [String] = [] }
        let failures = Failures()
        for n in 1...60 {
            DispatchQueue.global().async(group: group) {
                let result = self.spkhost(["voice", "create", "--name", "Concurrent \(n)", "--base", "spk.espeak-ng.en-us"])
                if result.status != 0 { failures.lock.withLock { failures.list.append("\(n): \(result.stderr)") } }
            }
        }
        group.wait()
        XCTAssertEqual(failures.list, [])
        let registry = try VoiceRegistry(directory: data.path + "/spk").load()
        XCTAssertEqual(registry.custom.filter { $0.name.hasPrefix("Concurrent ") }.count, 60)
        let presets = try String(contentsOfFile: home.path + "/.lv2/spk-user-voices.lv2/voices.ttl", encoding: .utf8)
        for n in 1...60 { XCTAssertTrue(presets.contains("spk.espeak-ng.concurrent-\(n)\""), "preset \(n) missing") }
        let left = try FileManager.default.contentsOfDirectory(atPath: home.path + "/.lv2").filter { $0.hasPrefix(".spk-user-voices.lv2.") }
        XCTAssertEqual(left, [])
    }

    func testAStagingBundleOfAKilledWriterIsRemovedByTheNextOne() throws {
        let lv2 = home.appendingPathComponent(".lv2")
        let stale = lv2.appendingPathComponent(".spk-user-voices.lv2.\(deadPID())")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        XCTAssertEqual(spkhost(["voice", "create", "--name", "After", "--base", "spk.espeak-ng.en-us"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path))
    }

    // MARK: personal voices

    func testHostilePersonalVoiceNamesDeleteNothing() throws {
        let personal = data.appendingPathComponent("spk/personal")
        let keep = personal.appendingPathComponent("keep")
        try FileManager.default.createDirectory(at: keep, withIntermediateDirectories: true)
        try "{}".write(to: personal.appendingPathComponent("authorization.json"), atomically: true, encoding: .utf8)
        for name in ["..", ".", "/", "", "../..", "a/../..", "--"] {
            let result = spkhost(["personal-voice", "delete", "--", name])
            XCTAssertNotEqual(result.status, 0, "'\(name)' must be refused")
            XCTAssertTrue(result.stderr.hasPrefix("error: "), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: keep.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: personal.appendingPathComponent("authorization.json").path))
    }

    func testDeletingAnotherUsersVoiceSaysItIsNotYours() throws {
        try XCTSkipUnless(getuid() == 0, "needs root to make a directory another user owns")
        let theirs = data.appendingPathComponent("spk/personal/theirs")
        try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: true)
        XCTAssertEqual(chown(theirs.path, 65534, 65534), 0)
        let result = spkhost(["personal-voice", "delete", "theirs"])
        assertFailsCleanly(result, mentioning: ["'theirs'", "is not yours"], leaving: out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: theirs.path))
    }

    func testAFIFOAsATakeIsLeftOutNotWaitedOn() throws {
        let takes = home.appendingPathComponent("takes")
        try FileManager.default.createDirectory(at: takes, withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(takes.appendingPathComponent("001.wav").path, 0o600), 0)
        XCTAssertEqual(mkfifo(takes.appendingPathComponent("002.txt").path, 0o600), 0)
        try "Hello there.".write(to: takes.appendingPathComponent("001.txt"), atomically: true, encoding: .utf8)
        let result = spkhost(["personal-voice", "create", "--name", "Fifo", "--from", takes.path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("not a regular file"), result.stderr + result.stdout)
    }

    /// A create killed half way (a bank, no voice.json) is cleaned up by the next create; one
    /// still being built by a live process, and the recordings, are left alone.
    func testAHalfMadePersonalVoiceIsRemovedByTheNextCreate() throws {
        let personal = data.appendingPathComponent("spk/personal")
        let fm = FileManager.default
        for name in ["killed", "recorded", "building"] {
            try fm.createDirectory(at: personal.appendingPathComponent("\(name)/bank"), withIntermediateDirectories: true)
            XCTAssertTrue(fm.createFile(atPath: personal.appendingPathComponent("\(name)/bank/001.wav").path, contents: Data([0])))
        }
        XCTAssertTrue(fm.createFile(atPath: personal.appendingPathComponent("killed/.building.\(deadPID())").path, contents: nil))
        try fm.createDirectory(at: personal.appendingPathComponent("recorded/recordings"), withIntermediateDirectories: true)
        XCTAssertTrue(fm.createFile(atPath: personal.appendingPathComponent("building/.building.\(getpid())").path, contents: nil))
        let takes = home.appendingPathComponent("none")
        try fm.createDirectory(at: takes, withIntermediateDirectories: true)
        XCTAssertNotEqual(spkhost(["personal-voice", "create", "--name", "Other", "--from", takes.path]).status, 0)
        XCTAssertFalse(fm.fileExists(atPath: personal.appendingPathComponent("killed").path))
        XCTAssertFalse(fm.fileExists(atPath: personal.appendingPathComponent("recorded/bank").path))
        XCTAssertTrue(fm.fileExists(atPath: personal.appendingPathComponent("recorded/recordings").path))
        XCTAssertTrue(fm.fileExists(atPath: personal.appendingPathComponent("building/bank/001.wav").path))
    }

    // MARK: signals and leftovers

    /// A process id no process has.
    func deadPID() -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try? child.run()
        child.waitUntilExit()
        return child.processIdentifier
    }

    func testSIGTERMDuringARenderRemovesItsPartFile() throws {
        // A request that renders for a while: long enough to be stopped half way.
        let text = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 400)
        for signalNumber in [SIGTERM, SIGINT] {
            let output = out.appendingPathComponent("long.wav").path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Fixture.spkhost)
            process.arguments = ["render", "--text", text, "--output", output]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardError = FileHandle.nullDevice
            try process.run()
            let partPrefix = ".long.wav.\(process.processIdentifier)"
            var sawPart = false
            for _ in 0..<200 where !sawPart {
                usleep(20_000)
                sawPart = ((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).contains { $0.hasPrefix(partPrefix) }
            }
            XCTAssertTrue(sawPart, "the render never started its .part file")
            kill(process.processIdentifier, signalNumber)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), [], "signal \(signalNumber)")
        }
    }

    func testAPartFileOfAKilledRenderIsRemovedByTheNextRender() throws {
        let stale = out.appendingPathComponent(".hello.wav.\(deadPID()).part")
        let live = out.appendingPathComponent(".hello.wav.\(getpid()).part")  // a running process's: kept
        XCTAssertTrue(FileManager.default.createFile(atPath: stale.path, contents: Data([1, 2, 3])))
        XCTAssertTrue(FileManager.default.createFile(atPath: live.path, contents: Data([1, 2, 3])))
        XCTAssertEqual(spkhost(["render", "--text", "Hello", "--output", out.appendingPathComponent("hello.wav").path]).status, 0)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)), ["hello.wav", live.lastPathComponent])
    }

    // MARK: limits through the command line

    func testLimitsGiveTheirOwnErrors() throws {
        let output = out.appendingPathComponent("x.wav").path
        let fifo = home.appendingPathComponent("clip.wav").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for (ssml, expected) in [
            ("<speak>a<break time=\"99999999999999999999ms\"/>b</speak>", "a break may last at most 60 s"),
            ("<speak>a<break time=\"9223372036854775807ms\"/>b</speak>", "a break may last at most 60 s"),
            ("<speak>a<break time=\"99999999999999s\"/>b</speak>", "a break may last at most 60 s"),
            ("<speak><phoneme alphabet=\"ipa\" ph=\"\(String(repeating: "tʃ", count: 200))\">x</phoneme></speak>", "a phoneme string may have at most 128"),
            ("<speak>a <audio src=\"\(fifo)\">b</audio></speak>", "not a regular file (a FIFO)"),
            ("<speak>a <audio src=\"/dev/zero\">b</audio></speak>", "not a regular file (a character device)"),
            ("<speak>a <audio src=\"\(home.path)\">b</audio></speak>", "not a regular file (a directory)"),
        ] {
            assertFailsCleanly(spkhost(["render", "--ssml", ssml, "--output", output]), mentioning: [expected], leaving: out)
        }
        for voice in ["spk.flite.kal16"] {
            let ssml = "<speak><phoneme alphabet=\"ipa\" ph=\"\(String(repeating: "ə", count: 3000))\">x</phoneme></speak>"
            assertFailsCleanly(spkhost(["render", "--voice", voice, "--ssml", ssml, "--output", output]), mentioning: ["at most 128"], leaving: out)
        }
    }
}

/// A render never writes over what it reads or writes twice.
final class OutputClashTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = Fixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func testMarkersNamingTheOutputAreRefused() {
        let output = dir.appendingPathComponent("a.wav").path
        assertFailsCleanly(Fixture.spkhost(["render", "--text", "Hi", "--output", output, "--markers", output]),
                           mentioning: ["--markers", "same file as --output"], leaving: dir)
        let viaDots = dir.appendingPathComponent("sub/../a.wav").path
        try? FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let result = Fixture.spkhost(["render", "--text", "Hi", "--output", output, "--markers", viaDots])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("same file as --output"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testARequestWhoseAudioIsItsOwnOutputIsRefusedBeforeWriting() throws {
        let clip = dir.appendingPathComponent("a.wav").path
        XCTAssertEqual(Fixture.spkhost(["render", "--text", "Original", "--output", clip]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: clip))
        let link = dir.appendingPathComponent("link.wav").path
        XCTAssertEqual(symlink(clip, link), 0)
        for src in [clip, "file://" + clip, link] {
            let result = Fixture.spkhost(["render", "--ssml", "<speak>x <audio src=\"\(src)\">y</audio></speak>", "--output", clip])
            XCTAssertNotEqual(result.status, 0, src)
            XCTAssertTrue(result.stderr.hasPrefix("error: ") && result.stderr.contains("would overwrite a file it plays"), result.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: clip)), before)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)), ["a.wav", "link.wav"])
    }

    func testInputFileNamingTheOutputIsRefused() throws {
        let input = dir.appendingPathComponent("a.flac").path
        try "Hello".write(toFile: input, atomically: true, encoding: .utf8)
        let result = Fixture.spkhost(["render", "--input", input, "--output", input])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("would overwrite its own request"), result.stderr)
        XCTAssertEqual(try String(contentsOfFile: input, encoding: .utf8), "Hello")
    }
}

/// Graph files: a value beyond Float's range named where it is, and a graph too big to build
/// refused before anything is instantiated.
final class GraphLimitTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = Fixture.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func render(graph json: String) -> (Fixture.Result, URL) {
        let graphs = Fixture.temporaryDirectory()
        let file = graphs.appendingPathComponent("g.json")
        try? json.write(to: file, atomically: true, encoding: .utf8)
        return (Fixture.spkhost(["render", "--text", "Hi", "--graph", file.path, "--output", dir.appendingPathComponent("g.wav").path]), graphs)
    }

    func testAControlBeyondFloatNamesTheValueAndWhere() {
        let (result, graphs) = render(graph: """
            {"nodes": [{"id": "voice", "plugin": "urn:spk:synth:espeak-ng"},
                       {"id": "amp", "plugin": "http://plugin.org.uk/swh-plugins/amp", "controls": {"gain": 1e39}}],
             "connections": [{"from": "voice:out", "to": "amp:input"}], "outputs": ["amp:output"]}
            """)
        defer { try? FileManager.default.removeItem(at: graphs) }
        assertFailsCleanly(result, mentioning: ["nodes[1].controls.gain", "1e+39", "outside the range of a 32-bit float", "'amp'"], leaving: dir)
    }

    func testATenThousandNodeGraphFailsFastAndSmall() {
        let nodes = (0..<10_000).map { "{\"id\": \"n\($0)\", \"plugin\": \"http://plugin.org.uk/swh-plugins/amp\"}" }.joined(separator: ",")
        let (result, graphs) = render(graph: "{\"nodes\": [\(nodes)], \"outputs\": [\"n0:output\"]}")
        defer { try? FileManager.default.removeItem(at: graphs) }
        assertFailsCleanly(result, mentioning: ["10000 nodes", "at most 256"], leaving: dir)
    }

    func testTooManyConnectionsAreRefused() {
        let connections = (0..<5000).map { _ in "{\"from\": \"a:output\", \"to\": \"b:input\"}" }.joined(separator: ",")
        let (result, graphs) = render(graph: """
            {"nodes": [{"id": "a", "plugin": "http://plugin.org.uk/swh-plugins/amp"}, {"id": "b", "plugin": "http://plugin.org.uk/swh-plugins/amp"}],
             "connections": [\(connections)], "outputs": ["b:output"]}
            """)
        defer { try? FileManager.default.removeItem(at: graphs) }
        assertFailsCleanly(result, mentioning: ["5000 connections", "at most 4096"], leaving: dir)
    }
}
