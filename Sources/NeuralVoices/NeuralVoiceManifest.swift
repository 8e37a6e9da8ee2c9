import FoundationEssentials

/// `voice.json` in a converted voice's directory: what the installer found in the Piper voice's
/// config, for the engine to speak with it without reading that config again.
public struct NeuralVoiceManifest: Codable, Sendable, Equatable {
    public static let currentFormat = 1

    public var format: Int
    public var identifier: String
    /// The PyPI package and version it was converted from.
    public var source: String
    public var licence: String
    public var sampleRate: Int
    /// The espeak-ng voice whose phonemes the model was trained on (`en-us`).
    public var espeakVoice: String
    /// VITS noise and length scales the voice was published with.
    public var noiseScale: Double
    public var noiseScaleW: Double
    public var lengthScale: Double
    /// Size of model.onnx as written, so a file cut short or replaced is noticed before loading.
    public var modelBytes: Int

    public init(identifier: String, source: String, licence: String, sampleRate: Int, espeakVoice: String,
                noiseScale: Double, noiseScaleW: Double, lengthScale: Double, modelBytes: Int) {
        format = Self.currentFormat
        self.identifier = identifier
        self.source = source
        self.licence = licence
        self.sampleRate = sampleRate
        self.espeakVoice = espeakVoice
        self.noiseScale = noiseScale
        self.noiseScaleW = noiseScaleW
        self.lengthScale = lengthScale
        self.modelBytes = modelBytes
    }

    static func read(_ path: String) throws(NeuralVoiceError) -> NeuralVoiceManifest {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch { throw .damaged(path, "cannot be read") }
        do {
            let manifest = try JSONDecoder().decode(NeuralVoiceManifest.self, from: data)
            guard manifest.format == currentFormat else { throw NeuralVoiceError.damaged(path, "has format \(manifest.format), not \(currentFormat)") }
            return manifest
        } catch let error as NeuralVoiceError {
            throw error
        } catch {
            throw .damaged(path, "is not a voice description (\(error))")
        }
    }

    func write(_ path: String) throws(NeuralVoiceError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do { try encoder.encode(self).write(to: URL(fileURLWithPath: path)) } catch { throw .damaged(path, "cannot be written (\(error))") }
    }
}
