import NeuralVoices
import SSML
import SpkAudio
import SpkProtocol

/// Piper's neural voices through sherpa-onnx, which is loaded at run time from the voices'
/// install directory (`$XDG_DATA_HOME/spk/neural/`, written by `spkhost voice install`): spk
/// builds and runs without it, and its voices speak once installed.
///
/// A run is phonemized with espeak-ng as Piper does (NeuralPhonemizer), spoken a chunk at a time
/// (NeuralChunks: the first clause alone, then sentences) and handed on chunk by chunk, so a
/// cancel takes effect between clauses. Word positions are estimated (NeuralWordTiming).
public final class NeuralEngine: SpeechEngine, @unchecked Sendable {
    public let name = "neural"
    /// Piper's medium and high voices speak at 22050 Hz; others are resampled to it.
    public let sampleRate: Double = 22050
    /// Every voice spk can install, installed or not (`isInstalled` tells).
    public let voices: [Voice] = NeuralCatalog.voices.map(\.voice)
    public let chunking: NeuralChunking

    public static let pluginURI = SpkURI.neuralPlugin
    public static let defaultVoice = "spk.neural.en-us-joe"

    private let paths: @Sendable () -> NeuralPaths
    private let models = NeuralModels()
    private static let sharedEngine = NeuralEngine()

    /// The process's engine: plugin instances share its loaded models.
    public static func shared() -> NeuralEngine { sharedEngine }

    /// `paths` is asked at each use, so a changed XDG_DATA_HOME is followed.
    public init(paths: @escaping @Sendable () -> NeuralPaths = { NeuralPaths.current() }, chunking: NeuralChunking = .firstClauseAlone) {
        self.paths = paths
        self.chunking = chunking
    }

    public func isInstalled(_ voice: Voice) -> Bool {
        guard let entry = NeuralCatalog.entry(voice.identifier) else { return false }
        return InstalledNeuralVoice.exists(in: paths().voiceDirectory(entry))
    }

    public func synthesize(_ text: SynthesisText, voice: Voice, prosody: EngineProsody,
                           emit: (SynthesisOutput) throws -> Bool) throws {
        let (entry, model) = try loadedModel(for: voice)
        // Loading may have taken seconds: a cancel that came meanwhile stops here.
        guard try emit(SynthesisOutput()) else { return }
        let controls = NeuralProsody(prosody, meanF0: entry.meanF0, unscaledShare: entry.unscaledShare)
        // As for flite: the run's edges are trimmed to short margins, so `<break>` lengths hold.
        var run = FliteRunAudio(sampleRate: sampleRate, start: text.start, endsRun: text.endsRun)
        // The first clause alone only where a run starts: later pieces are whole sentences.
        for chunk in try plan(text, voice: model.voice, chunking: text.start == .run ? chunking : .sentences) {
            guard try emit(try speak(chunk, model: model, controls: controls, into: &run)) else { return }
        }
        let tail = run.finish()
        if !tail.samples.isEmpty { _ = try emit(tail) }
    }

    /// The phonemes the model is given for `text`, a sentence per entry (Piper's way), for
    /// tools that call sherpa-onnx directly, such as the benchmark comparing with them.
    public func sentencePhonemes(_ text: String, voice: Voice) throws -> [[Int32]] {
        guard let entry = NeuralCatalog.entry(voice.identifier) else { throw SpeechError("unknown voice '\(voice.identifier)'") }
        let installed = try InstalledNeuralVoice(directory: paths().voiceDirectory(entry))
        return try plan(SynthesisText(text: text), voice: installed, chunking: .sentences).map(\.phonemes)
    }

    func loadedModel(for voice: Voice) throws -> (NeuralVoiceEntry, SherpaVoiceModel) {
        guard let entry = NeuralCatalog.entry(voice.identifier) else { throw SpeechError("unknown voice '\(voice.identifier)'") }
        let paths = self.paths()
        let directory = paths.voiceDirectory(entry)
        guard InstalledNeuralVoice.exists(in: directory) else {
            models.forget(voice: directory)
            throw SpeechError("the neural voice \(entry.voice.identifier) is not installed: install it with `spkhost voice install \(entry.voice.identifier)`")
        }
        do {
            return (entry, try models.model(voice: directory, runtime: paths.runtimeDirectory))
        } catch {
            throw SpeechError("\(entry.voice.identifier) cannot speak: \(error) (reinstall it: spkhost voice install \(entry.voice.identifier))")
        }
    }

    /// The run as chunks of phonemes. Spelled-out text has each lone letter marked so espeak
    /// says its name ("a" as "ay", not the article); its markers span the whole run, as the
    /// renderer maps them to the `<say-as>` element anyway. IPA phonemes the voice has are spoken
    /// as they are; others fall back to the text, as SSML asks.
    private func plan(_ text: SynthesisText, voice: InstalledNeuralVoice, chunking: NeuralChunking) throws -> [NeuralChunk] {
        let whole = 0..<text.text.utf8.count
        if let phonemes = text.phonemes, let codepoints = NeuralPhonemeInput.codepoints(phonemes, symbols: voice.symbols) {
            let clause = NeuralClause(range: whole, words: [whole], punctuation: nil, endsSentence: true)
            return [NeuralChunk(clauses: [.init(clause: clause, phonemes: codepoints, wordWeights: [1])], sentence: whole)]
        }
        let spoken = text.spellOut ? NeuralPhonemeInput.spelledOut(text.text) : text.text
        let bytes = Array(spoken.utf8)
        var clauses = try NeuralPhonemizer.phonemize(bytes, clauses: NeuralClauses.split(bytes), espeakVoice: voice.manifest.espeakVoice)
        if text.spellOut {
            for i in clauses.indices {
                clauses[i].clause.range = whole
                clauses[i].clause.words = clauses[i].clause.words.map { _ in whole }
            }
        }
        return NeuralChunks.plan(clauses, chunking: chunking)
    }

    /// One call to the model: its audio at the engine's rate, a sentence boundary where a
    /// sentence starts, and a boundary per word.
    private func speak(_ chunk: NeuralChunk, model: SherpaVoiceModel, controls: NeuralProsody,
                       into run: inout FliteRunAudio) throws -> SynthesisOutput {
        var samples = try model.generate([chunk.phonemes], speed: controls.modelSpeed)
        let modelRate = Double(model.sampleRate)
        let loudness = NeuralLoudness(samples, sampleRate: modelRate)
        let starts = NeuralWordTiming.starts(weights: chunk.clauses.map(\.wordWeights), loudness: loudness, sampleRate: modelRate)
        // Times scale by the tempo change and the resampling; sonic's pitch keeps them.
        let scale = sampleRate / modelRate / controls.sonicSpeed
        func position(_ sample: Int) -> Int { Int((Double(sample) * scale).rounded()) }
        var boundaries: [SynthesisOutput.Boundary] = []
        for (clause, clauseStarts) in zip(chunk.clauses, starts) {
            for (word, start) in zip(clause.clause.words, clauseStarts) {
                if boundaries.isEmpty, let sentence = chunk.sentence {
                    boundaries.append(.init(kind: .sentence, sample: position(start), textRange: sentence))
                }
                boundaries.append(.init(kind: .word, sample: position(start), textRange: word))
            }
        }
        if modelRate != sampleRate { samples = try Resampler.convert(samples, from: modelRate, to: sampleRate) }
        if controls.needsSonic {
            samples = try SonicStretch.apply(samples, sampleRate: Int(sampleRate), speed: controls.sonicSpeed, pitch: controls.sonicPitch)
        }
        let speech = loudness.speech.map { position($0.lowerBound)..<min(position($0.upperBound), samples.count) }
        return run.add(samples, boundaries: boundaries, speech: speech)
    }
}
