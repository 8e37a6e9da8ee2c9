import VoiceRegistry

/// Where neural voices live: `$XDG_DATA_HOME/spk/neural/`, beside the voice registry.
///
///     neural/runtime/sherpa-onnx-2.0.1/   libsherpa-onnx-c-api.so, libonnxruntime.so
///     neural/voices/en-us-joe/            model.onnx, tokens.txt, voice.json, MODEL_CARD
///     neural/.install.lock                held by an install or remove
///     neural/.staging-PID/                an install in progress (or one that was interrupted)
public struct NeuralPaths: Sendable, Equatable {
    public let root: String

    public init(root: String) { self.root = root }

    /// Under the registry's directory as the environment says now (XDG_DATA_HOME, HOME).
    public static func current() -> NeuralPaths {
        NeuralPaths(root: VoiceRegistry.defaultDirectory() + "/neural")
    }

    public var runtimeDirectory: String { root + "/runtime/" + NeuralCatalog.runtime.directoryName }
    public var voicesDirectory: String { root + "/voices" }
    public func voiceDirectory(_ entry: NeuralVoiceEntry) -> String { voicesDirectory + "/" + entry.directoryName }
    public var lockFile: String { root + "/.install.lock" }
    public static let stagingPrefix = ".staging-"
}

/// The files of one converted voice, inside its directory.
public enum NeuralVoiceFile {
    public static let model = "model.onnx"
    public static let tokens = "tokens.txt"
    public static let manifest = "voice.json"
    public static let modelCard = "MODEL_CARD"
}
