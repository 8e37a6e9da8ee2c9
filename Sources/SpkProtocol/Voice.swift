// A voice as plugins publish it and hosts list it (Apple's AVSpeechSynthesisProviderVoice).

public struct Voice: Sendable, Equatable, Codable {
    /// `spk.<engine>.<name>`, stable across runs.
    public var identifier: String
    public var name: String
    /// BCP 47 tags the voice speaks natively.
    public var primaryLanguages: [String]
    /// Every BCP 47 tag it can speak.
    public var supportedLanguages: [String]
    public var gender: Gender
    /// Age in years, 0 when unknown.
    public var age: Int
    public var quality: Quality
    public var traits: [Trait]
    /// The plugin URI that speaks it.
    public var plugin: String

    public enum Gender: String, Sendable, Codable { case unspecified, male, female }
    public enum Quality: String, Sendable, Codable { case `default`, enhanced, premium }
    public enum Trait: String, Sendable, Codable { case novelty, personal }

    public init(identifier: String, name: String, primaryLanguages: [String], supportedLanguages: [String],
                gender: Gender = .unspecified, age: Int = 0, quality: Quality = .default, traits: [Trait] = [], plugin: String) {
        self.identifier = identifier
        self.name = name
        self.primaryLanguages = primaryLanguages
        self.supportedLanguages = supportedLanguages
        self.gender = gender
        self.age = age
        self.quality = quality
        self.traits = traits
        self.plugin = plugin
    }
}

/// The kinds of `spk:Marker`.
public enum MarkType: String, Sendable, Codable, CaseIterable {
    case word, sentence, paragraph, phoneme, bookmark
}
