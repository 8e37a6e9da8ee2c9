import FoundationEssentials
import Glibc

/// A converted voice on disk, checked: its description, its phoneme symbols, and a model whose
/// structure and metadata are what sherpa-onnx needs. Checking first matters: sherpa-onnx ends
/// the whole process when a metadata key is missing, and onnxruntime is given only whole files.
public struct InstalledNeuralVoice: Sendable {
    public let directory: String
    public let manifest: NeuralVoiceManifest
    /// The symbols the model has ids for, as Unicode scalars.
    public let symbols: Set<Unicode.Scalar>

    public var modelPath: String { directory + "/" + NeuralVoiceFile.model }
    public var tokensPath: String { directory + "/" + NeuralVoiceFile.tokens }

    /// Whether a voice has been put in place in `directory` (not whether it is sound: `init` checks that).
    public static func exists(in directory: String) -> Bool {
        access(directory + "/" + NeuralVoiceFile.manifest, F_OK) == 0
    }

    /// Checks the voice in `directory`; throws naming the file that is wrong.
    public init(directory: String) throws(NeuralVoiceError) {
        self.directory = directory
        manifest = try NeuralVoiceManifest.read(directory + "/" + NeuralVoiceFile.manifest)
        symbols = try Self.readTokens(directory + "/" + NeuralVoiceFile.tokens)
        try Self.checkModel(directory + "/" + NeuralVoiceFile.model, manifest: manifest)
    }

    /// The keys sherpa-onnx reads from a Piper model, and what each must hold.
    private static let requiredMetadata: [(key: String, valid: (String) -> Bool)] = [
        ("model_type", { $0 == "vits" }),
        ("comment", { $0.contains("piper") }),
        ("language", { !$0.isEmpty }),
        ("voice", { !$0.isEmpty }),
        ("has_espeak", { $0 == "1" }),
        ("n_speakers", { (Int($0) ?? 0) >= 1 }),
        ("sample_rate", { (Int($0) ?? 0) > 0 }),
    ]

    private static func checkModel(_ path: String, manifest: NeuralVoiceManifest) throws(NeuralVoiceError) {
        let model = try ONNXModelFile(path: path)
        guard model.size == manifest.modelBytes else {
            throw .damaged(path, "is \(model.size) bytes, not the \(manifest.modelBytes) installed")
        }
        for (key, valid) in requiredMetadata {
            guard let value = model.metadata[key] else { throw .damaged(path, "has no '\(key)' in its metadata") }
            guard valid(value) else { throw .damaged(path, "has '\(key)' = '\(value)' in its metadata, which sherpa-onnx cannot use") }
        }
        guard model.metadata["sample_rate"] == String(manifest.sampleRate) else {
            throw .damaged(path, "says sample_rate \(model.metadata["sample_rate"]!), its voice.json \(manifest.sampleRate)")
        }
    }

    /// tokens.txt: `symbol id` per line; the symbol may be a space.
    private static func readTokens(_ path: String) throws(NeuralVoiceError) -> Set<Unicode.Scalar> {
        let text: String
        do { text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) } catch {
            throw .damaged(path, "cannot be read")
        }
        var symbols = Set<Unicode.Scalar>()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            guard let space = line.lastIndex(of: " "), Int(line[line.index(after: space)...]) != nil else {
                throw .damaged(path, "line \(index + 1) is not 'symbol id'")
            }
            symbols.insert(line[..<space].unicodeScalars.first ?? " ")
        }
        for required in ["_", "^", "$"].map({ Unicode.Scalar($0)! }) where !symbols.contains(required) {
            throw .damaged(path, "has no '\(required)' symbol")
        }
        return symbols
    }
}
