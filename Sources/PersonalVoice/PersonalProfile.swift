import FoundationEssentials

/// A personal voice as built by `spkhost personal-voice create`: what the recordings showed, the
/// synthetic voice matched to them, and the bank of recorded phrases.
public struct PersonalProfile: Codable, Equatable, Sendable {
    public var name: String
    public var slug: String
    public var language: String
    public var analysis: VoiceAnalysis
    public var synthetic: SyntheticVoice
    public var bank: [BankEntry]
    /// The voice's directory (not stored: where it was loaded from).
    public var directory: String = ""

    private enum CodingKeys: String, CodingKey { case name, slug, language, analysis, synthetic, bank }

    public init(name: String, slug: String, language: String = "en-US", analysis: VoiceAnalysis,
                synthetic: SyntheticVoice, bank: [BankEntry], directory: String) {
        self.name = name
        self.slug = slug
        self.language = language
        self.analysis = analysis
        self.synthetic = synthetic
        self.bank = bank
        self.directory = directory
    }

    public var identifier: String { "spk.personal.\(slug)" }

    public static func load(from path: String, store: PersonalStore) throws -> PersonalProfile {
        var profile = try JSONDecoder().decode(PersonalProfile.self, from: try store.read(path))
        profile.directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        return profile
    }

    public func save(store: PersonalStore) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try store.writePrivate(try encoder.encode(self), to: directory + "/voice.json")
    }

    /// The banked take for a sentence, if one was recorded.
    public func take(for sentence: String) -> BankEntry? {
        let key = PhraseKey.normalized(sentence)
        return bank.first { $0.key == key }
    }
}

/// What the analysis of the recordings found.
public struct VoiceAnalysis: Codable, Equatable, Sendable {
    /// Fundamental frequency over voiced frames (YIN), in Hz: mean, and 10th/90th percentiles.
    public var meanPitch: Double
    public var pitchLow: Double
    public var pitchHigh: Double
    public var wordsPerMinute: Double
    /// RMS level of the speech, dBFS.
    public var loudness: Double
    /// Mean frequency of the spectrum (from the signal's and its derivative's energy), Hz: a
    /// rough measure of brightness.
    public var spectralCentroid: Double
    public var takes: Int
    public var seconds: Double

    public init(meanPitch: Double, pitchLow: Double, pitchHigh: Double, wordsPerMinute: Double, loudness: Double,
                spectralCentroid: Double, takes: Int, seconds: Double) {
        self.meanPitch = meanPitch
        self.pitchLow = pitchLow
        self.pitchHigh = pitchHigh
        self.wordsPerMinute = wordsPerMinute
        self.loudness = loudness
        self.spectralCentroid = spectralCentroid
        self.takes = takes
        self.seconds = seconds
    }
}

/// The synthetic voice that speaks what was not recorded: an engine voice and the multipliers
/// that bring its pitch and pace to the person's.
public struct SyntheticVoice: Codable, Equatable, Sendable {
    public var base: String
    public var rate: Double
    public var pitch: Double
    public var volume: Double
    public init(base: String, rate: Double, pitch: Double, volume: Double) {
        self.base = base
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
    }
}

/// One recorded phrase, trimmed and loudness-normalised.
public struct BankEntry: Codable, Equatable, Sendable {
    public var text: String
    public var key: String
    /// Relative to the voice's directory.
    public var file: String
    public var seconds: Double
    public init(text: String, key: String, file: String, seconds: Double) {
        self.text = text
        self.key = key
        self.file = file
        self.seconds = seconds
    }
}

/// How phrases are matched: case, punctuation and spacing do not matter.
public enum PhraseKey {
    public static func normalized(_ text: String) -> String {
        var words: [String] = []
        var word = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "'" {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words.joined(separator: " ")
    }
}
