import Foundation
import XCTest

/// The built products (spkhost, the plugin libraries) and the LV2 bundles made from them.
///
/// Tests load the plugin built with them, never one installed elsewhere: the bundles are staged
/// from plugins/ and the build directory into a temporary LV2 path, and LV2_PATH points there only.
enum Fixture {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The directory holding spkhost and the plugin libraries of this build.
    static let productsDirectory: URL = {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }()

    static let spkhost = productsDirectory.appendingPathComponent("spkhost").path

    /// A temporary LV2 path holding the bundles built with these tests; set as LV2_PATH.
    static let lv2Path: String = {
        let dest = FileManager.default.temporaryDirectory.appendingPathComponent("spk-tests-lv2-\(getpid())").path
        let result = run(packageRoot.appendingPathComponent("scripts/stage-bundles.sh").path, [productsDirectory.path, dest])
        precondition(result.status == 0, "staging bundles failed: \(result.stderr)")
        setenv("LV2_PATH", dest, 1)
        // Plugins and spkhost read the voice registry: give the tests an empty one of their own.
        setenv("XDG_DATA_HOME", dataHome, 1)
        return dest
    }()

    /// An empty XDG data directory, so no test sees the voice registry of whoever runs them.
    static let dataHome: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spk-tests-data-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spk-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a program to its end and collects its output.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
        process.arguments = program.hasPrefix("/") ? arguments : [program] + arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        // Output goes to files, so neither stream can fill a pipe and stall the process.
        let outURL = temporaryDirectory().appendingPathComponent("stdout"), errURL = outURL.deletingLastPathComponent().appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outURL.deletingLastPathComponent()) }
        let input = Pipe()
        process.standardOutput = try? FileHandle(forWritingTo: outURL)
        process.standardError = try? FileHandle(forWritingTo: errURL)
        process.standardInput = input
        do { try process.run() } catch { return Result(status: -1, stdout: "", stderr: "\(program): \(error)") }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    /// Runs spkhost with the staged bundles.
    @discardableResult
    static func spkhost(_ arguments: [String], stdin: String? = nil) -> Result {
        run(spkhost, arguments, stdin: stdin, environment: ["LV2_PATH": lv2Path, "XDG_DATA_HOME": dataHome])
    }
}

/// lv2info describes the synth `uri` (its name and the worker interface), and lv2_validate
/// accepts the bundle that holds it: every .ttl in spk.lv2, since its manifest declares every
/// spk synth and each needs its own description.
func assertDescribedAndValid(_ uri: String, named name: String, file: StaticString = #filePath, line: UInt = #line) {
    let info = Fixture.run("lv2info", [uri], environment: ["LV2_PATH": Fixture.lv2Path])
    XCTAssertEqual(info.status, 0, info.stderr, file: file, line: line)
    XCTAssertTrue(info.stdout.contains(name), info.stdout, file: file, line: line)
    XCTAssertTrue(info.stdout.contains("http://lv2plug.in/ns/ext/worker#interface"), info.stdout, file: file, line: line)

    let bundle = Fixture.lv2Path + "/spk.lv2"
    let ttls = ((try? FileManager.default.contentsOfDirectory(atPath: bundle)) ?? []).filter { $0.hasSuffix(".ttl") }.sorted()
    XCTAssertTrue(ttls.contains("manifest.ttl") && ttls.count > 1, "\(ttls)", file: file, line: line)
    let validate = Fixture.run("lv2_validate", ttls.map { "\(bundle)/\($0)" })
    XCTAssertEqual(validate.status, 0, validate.stdout + validate.stderr, file: file, line: line)
    XCTAssertTrue((validate.stdout + validate.stderr).contains("Found 0 errors"), validate.stdout + validate.stderr, file: file, line: line)
}
