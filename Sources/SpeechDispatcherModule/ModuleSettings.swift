/// The speech parameters the server sends with `SET` before each message. Values it leaves out
/// keep what they were; `NULL` means "the module's default".
public struct ModuleSettings: Equatable, Sendable {
    /// -100...100, 0 the voice's normal.
    public var rate = 0, pitch = 0, pitchRange = 0
    /// -100...100; speech-dispatcher's own default is 100.
    public var volume = 100
    public var punctuation: Punctuation = .none
    public var spelling = false
    public var capitalLetters: CapitalLetters = .none
    public var voiceType: VoiceType?
    /// A name from `LIST VOICES` (or an spk voice identifier).
    public var synthesisVoice: String?
    /// A BCP 47 tag (speech-dispatcher sends `en`, `en-US`, `pt-BR` ...).
    public var language: String?

    public enum Punctuation: String, Sendable { case none, some, most, all }
    public enum CapitalLetters: String, Sendable { case none, spell, icon }

    /// speech-dispatcher's voice types (SSIP `SET self VOICE_TYPE`), sent in lower case.
    public enum VoiceType: String, Sendable, CaseIterable {
        case male1, male2, male3, female1, female2, female3, childMale = "child_male", childFemale = "child_female"
    }

    public init() {}

    public struct BadValue: Error, CustomStringConvertible, Equatable {
        public let name: String, value: String
        public var description: String { "bad value '\(value)' for \(name)" }
    }

    /// Applies one `name=value` line. Names this module does not use are accepted and ignored
    /// (newer servers send more); a value that does not fit its name is an error.
    public mutating func apply(_ name: String, _ value: String) throws(BadValue) {
        let isNull = value == "NULL"
        func number() throws(BadValue) -> Int {
            guard let n = Int(value), (-100...100).contains(n) else { throw BadValue(name: name, value: value) }
            return n
        }
        func choice<T: RawRepresentable<String>>(_ type: T.Type) throws(BadValue) -> T? {
            if isNull { return nil }
            guard let v = T(rawValue: value.lowercased()) else { throw BadValue(name: name, value: value) }
            return v
        }
        switch name {
        case "rate": rate = try number()
        case "pitch": pitch = try number()
        case "pitch_range": pitchRange = try number()
        case "volume": volume = try number()
        case "punctuation_mode": punctuation = try choice(Punctuation.self) ?? .none
        case "cap_let_recogn": capitalLetters = try choice(CapitalLetters.self) ?? .none
        case "spelling_mode":
            switch value.lowercased() {
            case "on": spelling = true
            case "off", "null": spelling = false
            default: throw BadValue(name: name, value: value)
            }
        case "voice", "voice_type": voiceType = try choice(VoiceType.self)
        case "synthesis_voice": synthesisVoice = isNull || value.isEmpty ? nil : value
        case "language": language = isNull || value.isEmpty ? nil : value
        default: break
        }
    }
}
