import SSML
import SpkProtocol

/// One speech engine behind a plugin: lists its voices and turns styled text into PCM with the
/// positions of its words. Runs off the audio thread; an engine may serialise callers internally.
public protocol SpeechEngine: AnyObject, Sendable {
    /// Short name used in voice identifiers (`spk.<name>.<voice>`).
    var name: String { get }
    /// Rate of the PCM `synthesize` produces.
    var sampleRate: Double { get }
    var voices: [Voice] { get }

    /// The voice with this identifier or name, or an error a person can act on.
    func requireVoice(named name: String) throws -> Voice

    /// Whether the voice's data is on this machine: true for voices that come with the engine
    /// (the default), not for a neural voice until it is downloaded. Where no registry says what
    /// is installed, a voice counts as installed only if this holds.
    func isInstalled(_ voice: Voice) -> Bool

    /// Whether a run's first piece should be its first clause rather than its first sentence:
    /// for engines whose first sound waits for the analysis of the whole utterance (flite).
    var speaksFirstClauseAlone: Bool { get }

    /// Speaks `text`, handing over audio as soon as the engine has it: each chunk's boundaries
    /// index that chunk's samples. `emit` returns false to stop (a cancel).
    func synthesize(_ text: SynthesisText, voice: Voice, prosody: EngineProsody,
                    emit: (SynthesisOutput) throws -> Bool) throws
}

extension SpeechEngine {
    public func isInstalled(_ voice: Voice) -> Bool { true }
    public var speaksFirstClauseAlone: Bool { false }
}

extension SpeechEngine {
    /// Speaks `text` whole and appends it to `output`. Checks `isCancelled` between chunks.
    public func synthesize(_ text: SynthesisText, voice: Voice, prosody: EngineProsody,
                           into output: inout SynthesisOutput, isCancelled: () -> Bool) throws {
        try synthesize(text, voice: voice, prosody: prosody) { chunk in
            output.append(chunk)
            return !isCancelled()
        }
    }
}

extension SpeechEngine {
    /// Finds a voice by spk identifier, or by a name the engine itself uses.
    public func voice(named name: String) -> Voice? {
        let wanted = name.lowercased()
        return voices.first { $0.identifier.lowercased() == wanted }
            ?? voices.first { $0.identifier.lowercased() == "spk.\(self.name).\(wanted)" }
            ?? voices.first { $0.name.lowercased() == wanted }
    }

    public func requireVoice(named name: String) throws -> Voice {
        guard let voice = voice(named: name) else {
            throw SpeechError("unknown voice '\(name)' (spkhost voices lists the voices of \(self.name))")
        }
        return voice
    }
}

/// What to say: plain text, text to spell letter by letter, or phonemes; usually one piece of
/// a longer run (`TextPieces`), with where it stands in that run.
public struct SynthesisText: Sendable {
    public var text: String
    public var spellOut: Bool
    public var phonemes: Phonemes?
    /// What comes before this piece in its run: it decides the silence the engine keeps before
    /// the piece's first sound.
    public var start: PieceStart
    /// Whether the run ends with this piece: only then is the silence after it trimmed.
    public var endsRun: Bool
    /// The word that follows the piece in its run (empty at its end), for engines that end a
    /// piece by what follows it (espeak-ng's pause after a sentence depends on it).
    public var following: String
    public init(text: String, spellOut: Bool = false, phonemes: Phonemes? = nil,
                start: PieceStart = .run, endsRun: Bool = true, following: String = "") {
        self.text = text
        self.spellOut = spellOut
        self.phonemes = phonemes
        self.start = start
        self.endsRun = endsRun
        self.following = following
    }
}

/// Where a piece of a run starts.
public enum PieceStart: Sendable, Equatable {
    /// The run's first piece: the engine's lead-in is trimmed to a short margin, so `<break>`
    /// lengths hold.
    case run
    /// After a piece that ended a sentence: the pause between the sentences stays as the
    /// engine makes it, so a run spoken piece by piece sounds as it would whole.
    case sentence
    /// Inside a sentence, where a piece too long to hold was cut at a word: no lead-in at all,
    /// and no new sentence reported.
    case midSentence
}

/// Prosody as multipliers of the voice's defaults (1 = unchanged).
public struct EngineProsody: Sendable, Equatable {
    public var rate: Double = 1
    public var pitch: Double = 1
    public var pitchHz: Double?
    public var pitchRange: Double = 1
    public init(rate: Double = 1, pitch: Double = 1, pitchHz: Double? = nil, pitchRange: Double = 1) {
        self.rate = rate
        self.pitch = pitch
        self.pitchHz = pitchHz
        self.pitchRange = pitchRange
    }
}

/// PCM at the engine's rate, and where words and sentences start in it.
public struct SynthesisOutput: Sendable {
    public var samples: [Float] = []
    public var boundaries: [Boundary] = []
    public init() {}

    /// Appends `chunk`, moving its boundaries behind the samples already here.
    public mutating func append(_ chunk: SynthesisOutput) {
        let offset = samples.count
        samples += chunk.samples
        boundaries += chunk.boundaries.map { var b = $0; b.sample += offset; return b }
    }

    public struct Boundary: Sendable, Equatable {
        public var kind: MarkType   // .word or .sentence
        /// Index into `samples`.
        public var sample: Int
        /// UTF-8 byte range into the synthesized text.
        public var textRange: Range<Int>
    }
}

public struct SpeechError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
