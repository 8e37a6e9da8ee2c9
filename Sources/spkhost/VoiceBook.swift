import LV2Host
import SpkProtocol
import VoiceRegistry

/// Every voice the installed synth plugins can speak, and which of them a person has installed.
///
/// Until the registry exists every voice counts as installed: the first install or remove
/// writes the registry starting from all of them.
struct VoiceBook {
    let catalog: [Voice]
    let registry: VoiceRegistry

    init(registry: VoiceRegistry = VoiceRegistry()) throws {
        self.registry = registry
        // A registry that cannot be read is reported here, before any plugin reads it too.
        if registry.exists { _ = try registry.load() }
        let world = LV2World()
        var voices: [Voice] = []
        for plugin in world.plugins where plugin.kind == "synth" {
            voices += try SpeechSynth(world: world, uri: plugin.uri, sampleRate: 48000, block: 256).catalog()
        }
        catalog = voices
    }

    func engineVoice(_ identifier: String) -> Voice? {
        catalog.first { $0.identifier == identifier }
    }

    /// A custom voice described like the voice it speaks with.
    func voice(for custom: CustomVoice) -> Voice? {
        guard var voice = engineVoice(custom.base) else { return nil }
        voice.identifier = custom.identifier
        voice.name = custom.name
        return voice
    }

    /// What a registry that does not exist yet means: everything installed (neural voices once fetched).
    var everything: RegistryContents { RegistryContents(installed: catalog.map(\.identifier).filter { NeuralInstall.isPresent($0) }) }

    /// The registry now, or what its absence means.
    func contents() throws -> RegistryContents {
        registry.exists ? try registry.load() : everything
    }

    /// Installed engine voices, then custom voices. Personal voices (listed only to clients the
    /// person authorized) are always installed: the person made them.
    func installed(_ contents: RegistryContents) -> [Voice] {
        let ids = Set(contents.installed)
        return catalog.filter { ids.contains($0.identifier) || $0.traits.contains(.personal) } + contents.custom.compactMap(voice(for:))
    }

    /// The catalog and every custom voice.
    func all(_ contents: RegistryContents) -> [Voice] {
        catalog + contents.custom.compactMap(voice(for:))
    }
}
