import Foundation
import XCTest

/// The build's products (sd_spk, spkhost, the plugin library) and the bundles staged from them.
enum ModuleFixture {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let productsDirectory: URL = {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }()

    static let sdSpk = productsDirectory.appendingPathComponent("sd_spk").path
    static let spkhost = productsDirectory.appendingPathComponent("spkhost").path
    static let pacedSink = packageRoot.appendingPathComponent("scripts/paced-alsa-sink.py").path

    /// The plugins built with these tests, staged into a temporary LV2 path.
    static let lv2Path: String = {
        let dest = FileManager.default.temporaryDirectory.appendingPathComponent("spk-sd-tests-lv2-\(getpid())").path
        let result = run(packageRoot.appendingPathComponent("scripts/stage-bundles.sh").path, [productsDirectory.path, dest])
        precondition(result.status == 0, "staging bundles failed: \(result.stderr)")
        return dest
    }()

    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spk-sd-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    struct Result { var status: Int32; var stdout: String; var stderr: String }

    @discardableResult
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
        process.arguments = program.hasPrefix("/") ? arguments : [program] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out"), err = dir.appendingPathComponent("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try? FileHandle(forWritingTo: out)
        process.standardError = try? FileHandle(forWritingTo: err)
        let input = Pipe()
        process.standardInput = input
        do { try process.run() } catch { return Result(status: -1, stdout: "", stderr: "\(program): \(error)") }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}

/// A private speech-dispatcher with sd_spk (and its own espeak-ng module) added, playing into a
/// headless ALSA device: the file plugin pipes the stream into scripts/paced-alsa-sink.py, which
/// takes it at the pace of a real card and logs when each piece arrived. Started per test and
/// stopped by its PID.
final class SpeechdServer {
    let directory: URL
    var socket: String { directory.path + "/sock" }
    var audioPath: String { directory.path + "/device.raw" }
    var deviceLog: String { directory.path + "/device.log" }
    var moduleLog: String { directory.path + "/log" }
    var stderrPath: String { directory.path + "/server.stderr" }
    let dataHome: String
    private let process = Process()

    init(dataHome: String? = nil, moduleConfig: String = "SpkSampleRate 22050\n") throws {
        directory = ModuleFixture.temporaryDirectory()
        self.dataHome = dataHome ?? directory.path + "/data"
        let fm = FileManager.default
        for sub in ["home", "conf/modules", "log", "data"] {
            try fm.createDirectory(atPath: directory.path + "/" + sub, withIntermediateDirectories: true)
        }
        try """
        pcm.!default {
            type file
            slave.pcm "null"
            file "|\(ModuleFixture.pacedSink) %r \(audioPath) \(deviceLog)"
            format "raw"
        }
        """.write(toFile: directory.path + "/home/.asoundrc", atomically: true, encoding: .utf8)
        try moduleConfig.write(toFile: directory.path + "/conf/modules/spk.conf", atomically: true, encoding: .utf8)
        try """
        AudioOutputMethod "alsa"
        AddModule "spk" "\(ModuleFixture.sdSpk)" "\(directory.path)/conf/modules/spk.conf"
        AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
        DefaultModule spk
        LogLevel 3
        LogDir "\(moduleLog)"
        """.write(toFile: directory.path + "/conf/speechd.conf", atomically: true, encoding: .utf8)

        process.executableURL = URL(fileURLWithPath: "/usr/bin/speech-dispatcher")
        process.arguments = ["-s", "-C", directory.path + "/conf", "-S", socket, "-t", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        // Modules added with AddModule log to the server's stderr.
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        try process.run()
        for _ in 0..<200 where !fm.fileExists(atPath: socket) { usleep(25_000) }
        guard fm.fileExists(atPath: socket) else {
            stop()
            throw XCTSkip("speech-dispatcher did not open its socket")
        }
    }

    /// What the server and its modules run with: a home of their own (for .asoundrc), the
    /// staged plugins, a data directory for the voice registry and personal voices.
    var environment: [String: String] {
        ["HOME": directory.path + "/home", "LV2_PATH": ModuleFixture.lv2Path, "XDG_DATA_HOME": dataHome,
         "XDG_RUNTIME_DIR": directory.path, "XDG_CONFIG_HOME": directory.path + "/home/.config"]
    }

    var clientEnvironment: [String: String] { environment.merging(["SPEECHD_ADDRESS": "unix_socket:" + socket]) { $1 } }

    @discardableResult
    func say(_ arguments: [String]) -> ModuleFixture.Result {
        ModuleFixture.run("spd-say", arguments, environment: clientEnvironment)
    }

    /// Runs a Python program with python3-speechd, SPEECHD_ADDRESS pointing here.
    func python(_ program: String) -> ModuleFixture.Result {
        ModuleFixture.run("/usr/bin/python3", ["-c", program], environment: clientEnvironment)
    }

    /// The device's audio so far, once it has been quiet for `settle` seconds.
    func audio(settle: Double = 0.5) -> [Float] {
        var last = -1
        for _ in 0..<400 {
            let size = (try? FileManager.default.attributesOfItem(atPath: audioPath)[.size] as? Int) ?? 0
            if size == last && size > 0 { break }
            last = size
            usleep(UInt32(settle * 1_000_000))
        }
        guard let data = FileManager.default.contents(atPath: audioPath) else { return [] }
        return data.withUnsafeBytes { raw in raw.bindMemory(to: Int16.self).map { Float($0) / 32768 } }
    }

    /// The device's log: each piece's arrival time (wall clock), byte offset, length and whether it held sound.
    struct Piece { var time: Double; var offset: Int; var length: Int; var nonzero: Bool }
    func pieces() -> [Piece] {
        let text = (try? String(contentsOfFile: deviceLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count == 5, f[0] == "chunk", let t = Double(f[1]), let o = Int(f[2]), let n = Int(f[3]) else { return nil }
            return Piece(time: t, offset: o, length: n, nonzero: f[4] == "1")
        }
    }

    /// The server's log and its modules' (their stderr, in $XDG_RUNTIME_DIR/speech-dispatcher/log/).
    func log() -> String {
        let modules = directory.path + "/speech-dispatcher/log"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: moduleLog)) ?? []).map { moduleLog + "/" + $0 }
            + ((try? FileManager.default.contentsOfDirectory(atPath: modules)) ?? []).map { modules + "/" + $0 }
        return (files + [stderrPath])
            .map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }.joined(separator: "\n")
    }

    func stop() {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        for _ in 0..<60 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
