import Glibc

/// Wakes when the registry changes (inotify on its directory: the file is replaced by rename).
public final class RegistryWatcher {
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 4096)

    public init(registry: VoiceRegistry) throws {
        var prefix = ""
        for part in registry.directory.split(separator: "/") {  // the directory must exist to watch it
            prefix += "/" + part
            mkdir(prefix, 0o755)
        }
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { throw RegistryError(path: registry.directory, problem: "inotify: \(String(cString: strerror(errno)))") }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_CREATE)
        guard inotify_add_watch(fd, registry.directory, mask) >= 0 else {
            close(fd)
            throw RegistryError(path: registry.directory, problem: "cannot watch: \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    /// Waits up to `timeout` seconds; true if something in the registry's directory changed.
    public func wait(timeout: Double) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) > 0 else { return false }
        _ = read(fd, &buffer, buffer.count)  // the events themselves do not matter: reread
        return true
    }
}
