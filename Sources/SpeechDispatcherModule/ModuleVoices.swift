import SpkProtocol

/// The spk voices as speech-dispatcher sees them: `LIST VOICES` lines, and the voice a
/// message's settings (synthesis_voice, language, voice_type) select.
public struct ModuleVoices: Sendable {
    public let voices: [Voice]
    /// The voice for messages that name neither a voice nor a language.
    public let defaultVoice: Voice?

    public init(_ voices: [Voice], defaultIdentifier: String? = nil) {
        self.voices = voices
        let ordinary = voices.filter { !$0.traits.contains(.personal) }
        defaultVoice = defaultIdentifier.flatMap { id in voices.first { $0.identifier == id } }
            ?? ordinary.first { $0.identifier == "spk.espeak-ng.en-us" }
            ?? ordinary.first { LanguageTag.matches($0.primaryLanguages, wanted: ["en"]) }
            ?? ordinary.first
    }

    /// The name a voice is listed under: its own name, or its identifier where two voices share
    /// a name. Tabs and line breaks would break the list's lines.
    public func listedName(_ voice: Voice) -> String {
        let shared = voices.filter { $0.name.lowercased() == voice.name.lowercased() }.count > 1
        let name = shared || voice.name.isEmpty ? voice.identifier : voice.name
        return String(name.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
    }

    /// `name TAB language TAB variant` for each voice (the variant is the voice's gender, or
    /// `none`), filtered the way speech-dispatcher's modules filter `LIST VOICES lang [variant]`:
    /// the whole tag, or its language before the first '-'.
    public func listLines(language: String? = nil, variant: String? = nil) -> [String] {
        voices.compactMap { voice in
            let tag = voice.primaryLanguages.first ?? voice.supportedLanguages.first ?? "none"
            let kind = voice.gender == .unspecified ? "none" : voice.gender.rawValue
            if let language {
                let base = tag.split(separator: "-").first.map(String.init) ?? tag
                guard tag.lowercased() == language.lowercased() || base.lowercased() == language.lowercased() else { return nil }
                if let variant, variant.lowercased() != kind { return nil }
            }
            return "\(listedName(voice))\t\(tag)\t\(kind)"
        }
    }

    /// The voice by its listed name or identifier.
    public func named(_ name: String) -> Voice? {
        let wanted = name.lowercased()
        return voices.first { $0.identifier.lowercased() == wanted } ?? voices.first { listedName($0).lowercased() == wanted }
    }

    /// The voice for a message: the one named by synthesis_voice; else, among the voices speaking
    /// the language (the default voice's, when none is set), the one voice_type asks for by
    /// gender and age (MALE2 is the second male voice, CHILD_FEMALE a female voice under 16, or
    /// the youngest there is). A personal voice is only ever used when named.
    public func choose(_ settings: ModuleSettings) -> Voice? {
        if let name = settings.synthesisVoice, let voice = named(name) { return voice }
        let ordinary = voices.filter { !$0.traits.contains(.personal) }
        guard settings.language != nil || settings.voiceType != nil else { return defaultVoice }
        var pool = ordinary
        if let language = settings.language ?? defaultVoice?.primaryLanguages.first {
            let primary = ordinary.filter { LanguageTag.matches($0.primaryLanguages, wanted: [language]) }
            pool = primary.isEmpty ? ordinary.filter { LanguageTag.matches($0.supportedLanguages, wanted: [language]) } : primary
            // The default voice first, when it speaks the language.
            if let d = defaultVoice, let i = pool.firstIndex(of: d) { pool.insert(pool.remove(at: i), at: 0) }
        }
        guard !pool.isEmpty else { return defaultVoice }
        guard let type = settings.voiceType else { return pool[0] }
        // A child's voice may speak another variety of the language (en-GB for en-US).
        if type == .childMale || type == .childFemale, !pool.contains(where: { $0.age > 0 && $0.age < 16 }),
           let language = settings.language ?? defaultVoice?.primaryLanguages.first {
            let base = String(language.prefix { $0 != "-" })
            let wider = ordinary.filter { LanguageTag.matches($0.supportedLanguages, wanted: [base]) }
            let gender: Voice.Gender = type == .childMale ? .male : .female
            if let child = wider.first(where: { $0.gender == gender && $0.age > 0 && $0.age < 16 }) { return child }
        }
        return Self.pick(type, from: pool)
    }

    static func pick(_ type: ModuleSettings.VoiceType, from pool: [Voice]) -> Voice {
        let gender: Voice.Gender, rank: Int, child: Bool
        switch type {
        case .male1: (gender, rank, child) = (.male, 0, false)
        case .male2: (gender, rank, child) = (.male, 1, false)
        case .male3: (gender, rank, child) = (.male, 2, false)
        case .female1: (gender, rank, child) = (.female, 0, false)
        case .female2: (gender, rank, child) = (.female, 1, false)
        case .female3: (gender, rank, child) = (.female, 2, false)
        case .childMale: (gender, rank, child) = (.male, 0, true)
        case .childFemale: (gender, rank, child) = (.female, 0, true)
        }
        let same = pool.filter { $0.gender == gender }
        if child {
            let children = same.filter { $0.age > 0 && $0.age < 16 }
            if let voice = children.first { return voice }
            // No child voice: the youngest of known age, else any of the gender.
            return same.filter { $0.age > 0 }.min { $0.age < $1.age } ?? same.first ?? pool[0]
        }
        let adults = same.filter { $0.age == 0 || $0.age >= 16 }
        guard !adults.isEmpty else { return same.first ?? pool[min(rank, pool.count - 1)] }
        return adults[min(rank, adults.count - 1)]
    }
}
