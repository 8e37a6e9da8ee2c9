import LV2Host
import NeuralVoices

/// What `spkhost voice install|remove` does for neural voices (`spk.neural.*`) besides the
/// registry: their files. Installing fetches and checks them before the voice is registered;
/// removing deletes them after it is unregistered. Other voices come with their engines and
/// need nothing here.
enum NeuralInstall {
    static func installFiles(for identifier: String, paths: NeuralPaths = .current()) throws {
        guard NeuralCatalog.isNeural(identifier) else { return }
        guard let entry = NeuralCatalog.entry(identifier) else {
            throw HostError("unknown neural voice '\(identifier)' (spkhost voices --all lists the voices that can be installed)")
        }
        try NeuralInstaller(paths: paths).install(entry)
    }

    static func removeFiles(for identifier: String, paths: NeuralPaths = .current()) throws {
        guard let entry = NeuralCatalog.entry(identifier) else { return }
        try NeuralInstaller(paths: paths).remove(entry)
    }

    /// Whether a voice's files are in place: always for voices that come with their engine.
    /// Until the registry exists every voice counts as installed, except neural voices not
    /// fetched yet.
    static func isPresent(_ identifier: String, paths: NeuralPaths = .current()) -> Bool {
        guard let entry = NeuralCatalog.entry(identifier) else { return true }
        return InstalledNeuralVoice.exists(in: paths.voiceDirectory(entry))
    }
}
