import VoiceRegistry

/// The voice registry as this plugin last read it, read again only when the file has changed:
/// running instances follow installs and new custom voices without reloading.
final class RegistryView {
    private let registry = VoiceRegistry()
    private var stamp: VoiceRegistry.Stamp?
    private var contents: RegistryContents?
    private var read = false
    private let log: PluginLog

    init(log: PluginLog) { self.log = log }

    /// The registry, or nil when there is none (then every engine voice is offered).
    func current() -> RegistryContents? {
        let now = registry.stamp()
        guard !read || now != stamp else { return contents }
        read = true
        stamp = now
        guard now != nil else {
            contents = nil
            return nil
        }
        do {
            contents = try registry.load()
        } catch {
            log.warning("spk: \(error); using the voices as they were")
        }
        return contents
    }
}
