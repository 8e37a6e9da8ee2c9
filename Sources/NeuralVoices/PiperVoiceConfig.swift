import FoundationEssentials

/// A Piper voice's `.onnx.json`: its sample rate, espeak-ng voice, scales and phoneme ids, and
/// what sherpa-onnx needs made from it (tokens.txt and the model's metadata).
struct PiperVoiceConfig: Decodable {
    struct Audio: Decodable { var sample_rate: Int }
    struct Espeak: Decodable { var voice: String }
    struct Inference: Decodable { var noise_scale: Double?; var length_scale: Double?; var noise_w: Double? }
    struct Language: Decodable { var name_english: String?; var code: String? }

    var audio: Audio
    var espeak: Espeak
    var inference: Inference?
    var phoneme_type: String?
    var num_speakers: Int?
    var language: Language?
    var phoneme_id_map: [String: [Int]]

    static func read(_ path: String) throws(NeuralVoiceError) -> PiperVoiceConfig {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch { throw .damaged(path, "cannot be read") }
        let config: PiperVoiceConfig
        do { config = try JSONDecoder().decode(PiperVoiceConfig.self, from: data) } catch {
            throw .damaged(path, "is not a Piper voice config (\(error))")
        }
        // sherpa-onnx 2.x takes espeak-ng phonemes from spk; voices trained on other symbols
        // (Piper's "text" phoneme type) would need another phonemizer.
        guard (config.phoneme_type ?? "espeak") == "espeak" else { throw .damaged(path, "uses phoneme type '\(config.phoneme_type!)', not espeak") }
        for symbol in ["_", "^", "$"] where config.phoneme_id_map[symbol]?.first == nil {
            throw .damaged(path, "has no id for the symbol '\(symbol)' in phoneme_id_map")
        }
        guard config.audio.sample_rate > 0, (config.num_speakers ?? 1) >= 1 else { throw .damaged(path, "has no usable sample rate or speaker count") }
        return config
    }

    /// `symbol id` per line, as sherpa-onnx reads it (the space symbol is a line starting with a space).
    var tokens: String {
        phoneme_id_map.compactMap { symbol, ids in ids.first.map { (symbol, $0) } }
            .sorted { $0.1 < $1.1 }
            .map { "\($0.0) \($0.1)\n" }
            .joined()
    }

    /// The metadata sherpa-onnx reads from a Piper model; without `sample_rate`, `n_speakers`,
    /// `language` or `comment` it ends the process, so every key is written and checked.
    var metadata: [(String, String)] {
        [("model_type", "vits"),
         ("comment", "piper"),
         ("language", language?.name_english ?? language?.code ?? espeak.voice),
         ("voice", espeak.voice),
         ("has_espeak", "1"),
         ("n_speakers", String(num_speakers ?? 1)),
         ("sample_rate", String(audio.sample_rate))]
    }
}
