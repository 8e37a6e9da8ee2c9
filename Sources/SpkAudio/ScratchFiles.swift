import Glibc
import Synchronization

/// Files and directories a command is making and will rename into place: named with the
/// process id (`.NAME.PID.part`), removed if the process is stopped by SIGINT or SIGTERM (the
/// host's signal handler calls `removeAll()`), and removed by the next run when a process was
/// killed outright (`removeDeadLeftovers`).
public enum ScratchFiles {
    private static let paths = Mutex<[String]>([])

    public static func register(_ path: String) {
        paths.withLock { $0.append(path) }
    }

    public static func unregister(_ path: String) {
        paths.withLock { list in list.removeAll { $0 == path } }
    }

    /// Removes every registered path (files, or directories with their contents).
    public static func removeAll() {
        let list = paths.withLock { list in defer { list = [] }; return list }
        for path in list { removeTree(path) }
    }

    /// Whether process `pid` is gone (so what it left can go).
    public static func isDead(_ pid: Int32) -> Bool {
        pid > 0 && kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Removes the entries of `directory` named `prefix` + a process id + `suffix` whose process
    /// is dead: what a killed run left behind.
    public static func removeDeadLeftovers(in directory: String, prefix: String, suffix: String) {
        guard let dir = opendir(directory.isEmpty ? "." : directory) else { return }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            names.append(name)
        }
        closedir(dir)
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(suffix) && name.count > prefix.count + suffix.count {
            let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
            guard let pid = Int32(middle), isDead(pid) else { continue }
            removeTree(directory.isEmpty ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name))
        }
    }

    /// `rm -r path`, without following symbolic links.
    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            if let dir = opendir(path) {
                var names: [String] = []
                while let entry = readdir(dir) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    if name != "." && name != ".." { names.append(name) }
                }
                closedir(dir)
                for name in names { removeTree(path + "/" + name) }
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
