import SSML
import SpkProtocol
import VoiceRegistry

/// The voices one engine speaks: its own, and the custom voices people made over them.
public struct VoiceCatalog: Sendable {
    public let engine: SpeechEngine
    /// Custom voices whose base voice is this engine's.
    public let custom: [CustomVoice]
    /// The installed engine voices, or nil for all of them (no registry, and none of the
    /// engine's voices needs downloading).
    public let installed: Set<String>?

    public init(engine: SpeechEngine, custom: [CustomVoice] = [], installed: Set<String>? = nil) {
        self.engine = engine
        // Without a registry every voice counts as installed, but a voice still to be downloaded
        // (a neural one) is not.
        let downloaded = engine.voices.filter { engine.isInstalled($0) }
        self.installed = installed ?? (downloaded.count == engine.voices.count ? nil : Set(downloaded.map(\.identifier)))
        self.custom = custom.filter { CustomVoice.engine(of: $0.base) == engine.name && engine.voice(named: $0.base) != nil }
    }

    /// A voice ready to speak: the engine voice, and what a custom voice changes about it.
    public struct Resolved: Sendable, Equatable {
        public var voice: Voice
        public var rate = 1.0, pitch = 1.0, volume = 1.0
        public init(voice: Voice, rate: Double = 1, pitch: Double = 1, volume: Double = 1) {
            self.voice = voice
            self.rate = rate
            self.pitch = pitch
            self.volume = volume
        }
    }

    /// A custom voice (by identifier or name), else an engine voice; an error names the voice.
    public func resolve(_ name: String) throws -> Resolved {
        let wanted = name.lowercased()
        if let voice = custom.first(where: { $0.identifier.lowercased() == wanted || $0.name.lowercased() == wanted }) {
            // Clamped again here: a registry edited by hand must not reach the engine out of range.
            return Resolved(voice: try engine.requireVoice(named: voice.base),
                            rate: CustomVoice.clamp(voice.rate, to: CustomVoice.rateRange),
                            pitch: CustomVoice.clamp(voice.pitch, to: CustomVoice.pitchRange),
                            volume: CustomVoice.clamp(voice.volume, to: CustomVoice.volumeRange))
        }
        return Resolved(voice: try engine.requireVoice(named: name))
    }

    public func contains(_ name: String) -> Bool { (try? resolve(name)) != nil }

    /// The voice for `<voice>` and `xml:lang`, by Apple's and W3C's rules: a name first; else a
    /// voice speaking the language, of the gender asked for, from the installed ones (the
    /// request's own voice when it fits); a gender no voice has is let go, a language is not.
    public func choose(_ selection: VoiceSelection, language: String?, requestVoice: Resolved) throws -> Resolved {
        if let name = selection.name { return try resolve(name) }
        let languages = selection.languages.isEmpty ? (language.map { [$0] } ?? []) : selection.languages
        let gender = selection.gender.flatMap(Voice.Gender.init(rawValue:))
        if languages.isEmpty && gender == nil { return requestVoice }
        let wanted = languages.isEmpty ? requestVoice.voice.primaryLanguages : languages
        func fits(_ voice: Voice) -> Bool { gender == nil || voice.gender == gender }
        if LanguageTag.matches(requestVoice.voice.supportedLanguages, wanted: wanted) && fits(requestVoice.voice) {
            return requestVoice
        }
        let installedVoices = engine.voices.filter { installed?.contains($0.identifier) ?? true }
        let pool = installedVoices.isEmpty ? engine.voices : installedVoices
        let speaking = pool.filter { LanguageTag.matches($0.primaryLanguages, wanted: wanted) }
            + pool.filter { LanguageTag.matches($0.supportedLanguages, wanted: wanted) }
        if let voice = speaking.first(where: fits) ?? speaking.first { return Resolved(voice: voice) }
        guard languages.isEmpty else {
            throw SpeechError("no \(engine.name) voice speaks '\(languages.joined(separator: " "))'")
        }
        return pool.first(where: fits).map { Resolved(voice: $0) } ?? requestVoice
    }

    /// The voices to publish: the engine's (only the installed ones, when `installed` is given)
    /// and the custom ones, described like the voice they speak with.
    public func listing(installed: Set<String>?) -> [Voice] {
        let own = engine.voices.filter { installed?.contains($0.identifier) ?? true }
        let made = custom.compactMap { c -> Voice? in
            guard var voice = engine.voice(named: c.base) else { return nil }
            voice.identifier = c.identifier
            voice.name = c.name
            return voice
        }
        return own + made
    }
}
