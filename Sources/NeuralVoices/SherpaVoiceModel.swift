import CSherpaOnnx
import Synchronization

/// One Piper voice loaded into sherpa-onnx: speaks sentences given as phoneme codepoints.
/// Calls are serialised: instances that share the model take turns.
public final class SherpaVoiceModel: @unchecked Sendable {
    public let voice: InstalledNeuralVoice
    public let sampleRate: Int
    private let runtime: SherpaRuntime
    private let tts: OpaquePointer
    private let lock = Mutex(())

    /// The voice's noise scales as published make each rendering a little different, as
    /// Piper's are. One thread: the real-time factor is about 0.06 on a 2-core machine, and the
    /// other core stays free for the host.
    public init(voice: InstalledNeuralVoice, runtime: SherpaRuntime, threads: Int = 1) throws(NeuralVoiceError) {
        self.voice = voice
        self.runtime = runtime
        let manifest = voice.manifest
        var config = SherpaOnnxOfflineTtsConfig()
        config.model.vits.noise_scale = Float(manifest.noiseScale)
        config.model.vits.noise_scale_w = Float(manifest.noiseScaleW)
        config.model.vits.length_scale = Float(manifest.lengthScale)
        config.model.num_threads = Int32(threads)
        config.max_num_sentences = 1
        // Piper's own pauses at punctuation and sentence ends.
        config.silence_scale = 1
        let created: OpaquePointer? = voice.modelPath.withCString { model in
            voice.tokensPath.withCString { tokens in
                "cpu".withCString { provider in
                    config.model.vits.model = model
                    config.model.vits.tokens = tokens
                    config.model.provider = provider
                    return runtime.createOfflineTts(&config)
                }
            }
        }
        guard let created else {
            throw NeuralVoiceError("sherpa-onnx could not load \(voice.modelPath) (its message is on stderr)")
        }
        tts = created
        sampleRate = Int(runtime.sampleRate(tts))
    }

    deinit { runtime.destroyOfflineTts(tts) }

    /// Speaks `sentences` (each a list of phoneme codepoints, punctuation included) in one
    /// call. `speed` divides the model's length scale: 2 is twice as fast.
    public func generate(_ sentences: [[Int32]], speed: Double = 1) throws(NeuralVoiceError) -> [Float] {
        let sentences = sentences.filter { !$0.isEmpty }
        guard !sentences.isEmpty else { return [] }
        let codepoints = sentences.flatMap { $0 }
        let lengths = sentences.map { Int32($0.count) }
        return try lock.withLock { _ throws(NeuralVoiceError) -> [Float] in
            let audio = codepoints.withUnsafeBufferPointer { points in
                lengths.withUnsafeBufferPointer { lens in
                    var config = SherpaOnnxGenerationConfig()
                    config.silence_scale = 1
                    config.speed = Float(speed)
                    config.phoneme_codepoints = points.baseAddress
                    config.phoneme_codepoints_lens = lens.baseAddress
                    config.phoneme_codepoints_num_sentences = Int32(lens.count)
                    return runtime.generate(tts, "", &config, nil, nil)
                }
            }
            guard let audio else { throw NeuralVoiceError("sherpa-onnx could not speak with \(voice.manifest.identifier) (its message is on stderr)") }
            defer { runtime.destroyAudio(audio) }
            let count = Int(audio.pointee.n)
            guard count > 0, let samples = audio.pointee.samples else { return [] }
            return Array(UnsafeBufferPointer(start: samples, count: count))
        }
    }
}
