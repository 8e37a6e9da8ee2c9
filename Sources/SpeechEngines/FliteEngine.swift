import CFlite
import SSML
import SpkAudio
import SpkProtocol
import Synchronization

/// flite through its C API (libflite and Debian's CMU US English voices).
///
/// flite keeps global state (its voice list, lexicon caches): one engine per process, shared by
/// every plugin instance, with a lock around each use. Each sentence is one flite utterance,
/// streamed as flite makes its wave (`FliteStream`); words and their times come from the
/// utterance's relations (Word, its syllables' segments), which flite has filled by then.
public final class FliteEngine: SpeechEngine, @unchecked Sendable {
    public let name = "flite"
    /// Every voice comes out at this rate; kal's 8 kHz is raised to it with libsoxr.
    public let sampleRate: Double = 16000
    public let voices: [Voice]
    private let fliteVoices: [String: FliteVoice]
    private static let lock = Mutex(())

    /// flite times a whole utterance before its first sound (kal16: 1.2 ms for a sentence, 2.8
    /// for a long one): a run's first clause is spoken alone so that its sound comes sooner.
    public var speaksFirstClauseAlone: Bool { true }

    public static let pluginURI = SpkURI.flitePlugin
    public static let defaultVoice = "spk.flite.slt"

    nonisolated(unsafe) private static var sharedEngine: Result<FliteEngine, any Error>?

    /// The process's engine, with every voice registered on first use.
    public static func shared() throws -> FliteEngine {
        try lock.withLock { _ in
            if sharedEngine == nil { sharedEngine = Result { try FliteEngine() } }
            return try sharedEngine!.get()
        }
    }

    /// Called holding the lock, once.
    private init() throws(SpeechError) {
        flite_init()
        let registered = try FliteVoice.registerAll(plugin: Self.pluginURI)
        voices = registered.map(\.voice)
        fliteVoices = Dictionary(uniqueKeysWithValues: registered.map { ($0.voice.identifier, $0) })
    }

    /// Hands each sentence on as flite makes it.
    public func synthesize(_ text: SynthesisText, voice: Voice, prosody: EngineProsody,
                           emit: (SynthesisOutput) throws -> Bool) throws {
        guard let fliteVoice = fliteVoices[voice.identifier] else { throw SpeechError("unknown voice '\(voice.identifier)'") }
        let controls = FliteProsody(prosody, voice: fliteVoice)
        var run = FliteRunAudio(sampleRate: sampleRate, start: text.start, endsRun: text.endsRun)
        try withoutActuallyEscaping(emit) { emit in
            func send(_ out: SynthesisOutput) throws -> Bool { out.samples.isEmpty && out.boundaries.isEmpty ? true : try emit(out) }
            if let phones = text.phonemes.flatMap(FlitePhonemes.convert) {
                guard try send(speakPhones(phones, wholeText: 0..<text.text.utf8.count, voice: fliteVoice, controls: controls, into: &run)) else { return }
            } else {
                // Phonemes that do not convert to flite's phone set are read as the element's text,
                // as SSML asks when a pronunciation cannot be used.
                let fliteText = FliteText(text.text, spellOut: text.spellOut)
                for sentence in FliteSentences.split(fliteText.bytes) {
                    guard try speakSentence(sentence, of: fliteText, voice: fliteVoice, controls: controls, into: &run, emit: send) else { return }
                }
            }
            _ = try send(run.finish())
        }
    }

    /// One sentence as one utterance: its audio, a sentence boundary and a boundary per word,
    /// streamed as flite makes it unless libsonic must shift the whole utterance's pitch.
    /// `emit` is `synthesize`'s `send`, which passes nothing empty on. False when it said stop.
    private func speakSentence(_ sentence: Range<Int>, of text: FliteText, voice: FliteVoice, controls: FliteProsody,
                               into run: inout FliteRunAudio, emit: @escaping (SynthesisOutput) throws -> Bool) throws -> Bool {
        let input = String(decoding: text.bytes[sentence], as: UTF8.self)
        let timing: FliteStream.Timing = { relations in
            let words = relations.words
            let ranges = FliteWordAlignment.wordRanges(words: words, tokenNames: relations.tokenNames, in: text.bytes, searchRange: sentence)
            var boundaries: [SynthesisOutput.Boundary] = []
            for (word, range) in zip(words, ranges) {
                // Punctuation read as a word has no segments, and no sound to mark.
                guard let seconds = word.start else { continue }
                let sample = self.sample(at: seconds)
                if boundaries.isEmpty {
                    boundaries.append(.init(kind: .sentence, sample: sample, textRange: text.sourceRange(sentence)))
                }
                boundaries.append(.init(kind: .word, sample: sample, textRange: text.sourceRange(range)))
            }
            return (relations.speech.map(self.sampleRange), boundaries)
        }
        guard controls.sonicPitch != nil else {
            let stream = FliteStream(run: run, engineRate: sampleRate, timing: timing, emit: emit)
            try Self.lock.withLock { _ in
                _ = try FliteUtterance(.text(input), voice: voice.handle, features: controls.features, stream: stream)
            }
            run = stream.run
            if let error = stream.error { throw error }
            return !stream.stopped
        }
        let (rate, samples, (speech, boundaries)) = try Self.lock.withLock { _ in
            let utterance = try FliteUtterance(.text(input), voice: voice.handle, features: controls.features)
            return (utterance.sampleRate, utterance.samples(), timing(utterance.relations))
        }
        return try emit(run.add(try finish(samples, rate: rate, controls: controls), boundaries: boundaries, speech: speech))
    }

    /// Phonemes as one utterance, marked as one word spanning the run's text.
    private func speakPhones(_ phones: String, wholeText: Range<Int>, voice: FliteVoice, controls: FliteProsody,
                             into run: inout FliteRunAudio) throws -> SynthesisOutput {
        let (rate, samples, speech) = try Self.lock.withLock { _ in
            let utterance = try FliteUtterance(.phones(phones), voice: voice.handle, features: controls.features)
            return (utterance.sampleRate, utterance.samples(), utterance.relations.speech)
        }
        let sample = self.sample(at: speech?.lowerBound ?? 0)
        return run.add(try finish(samples, rate: rate, controls: controls),
                   boundaries: [.init(kind: .sentence, sample: sample, textRange: wholeText),
                                .init(kind: .word, sample: sample, textRange: wholeText)],
                   speech: speech.map(sampleRange))
    }

    /// Utterance times are seconds; neither resampling nor sonic's pitch shift moves them.
    private func sample(at seconds: Double) -> Int { Int((seconds * sampleRate).rounded()) }
    private func sampleRange(_ seconds: Range<Double>) -> Range<Int> { sample(at: seconds.lowerBound)..<sample(at: seconds.upperBound) }

    /// Brings a voice's audio to the engine's rate (libsoxr, never interpolation) and
    /// applies the pitch flite could not. Neither moves a word in time.
    private func finish(_ samples: [Float], rate: Int, controls: FliteProsody) throws -> [Float] {
        var audio = samples
        if Double(rate) != sampleRate {
            audio = try Resampler.convert(audio, from: Double(rate), to: sampleRate)
        }
        if let pitch = controls.sonicPitch {
            audio = try SonicStretch.apply(audio, sampleRate: Int(sampleRate), pitch: pitch)
        }
        return audio
    }
}
