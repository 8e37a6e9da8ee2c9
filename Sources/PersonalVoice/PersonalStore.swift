import FoundationEssentials
import Glibc
import SpkProtocol

/// Where personal voices live: `$XDG_DATA_HOME/spk/personal/`, readable by their owner only
/// (directories 0700, files 0600), and nowhere else.
public struct PersonalStore: Sendable {
    public let root: String

    public init(root: String = PersonalStore.defaultRoot()) {
        self.root = root
    }

    public static func defaultRoot() -> String { SpkFiles.dataDirectory() + "/personal" }

    /// The directory of one voice, by its slug.
    public func directory(_ slug: String) -> String { "\(root)/\(slug)" }
    public var authorizationPath: String { root + "/authorization.json" }

    /// Creates a private directory (and the private root above it); parents are made 0755.
    public func makePrivateDirectory(_ path: String) throws {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            let isPrivate = prefix.hasPrefix(root)
            if mkdir(prefix, isPrivate ? 0o700 : 0o755) != 0 && errno != EEXIST {
                throw PersonalVoiceError("cannot create \(prefix): \(String(cString: strerror(errno)))")
            }
            if isPrivate { chmod(prefix, 0o700) }
        }
    }

    /// Writes a private file (0600) by rename, so a reader never sees half of it.
    public func writePrivate(_ data: Data, to path: String) throws {
        let temporary = path + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw PersonalVoiceError("cannot write \(path): \(String(cString: strerror(errno)))") }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fchmod(fd, 0o600)
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw PersonalVoiceError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// A regular file's bytes (a FIFO or a device is refused, never waited on).
    public func read(_ path: String) throws -> Data {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw PersonalVoiceError("cannot read \(path): \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw PersonalVoiceError("cannot read \(path): not a regular file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        guard let file = fdopen(fd, "r") else {
            close(fd)
            throw PersonalVoiceError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            bytes += buffer[..<n]
            if n < buffer.count { break }
        }
        return Data(bytes)
    }

    /// The voices stored here, by reading each directory's profile.
    public func voices() -> [PersonalProfile] {
        guard let dir = opendir(root) else { return [] }
        defer { closedir(dir) }
        var profiles: [PersonalProfile] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix("."), let profile = try? PersonalProfile.load(from: directory(name) + "/voice.json", store: self) else { continue }
            profiles.append(profile)
        }
        return profiles.sorted { $0.name < $1.name }
    }

    /// Whether `slug` can name a voice directory: what `slug(_:)` makes of a name (letters,
    /// digits and inner dashes), so never empty, ".", "..", or anything with a "/".
    public static func isValidSlug(_ slug: String) -> Bool {
        !slug.isEmpty && SpkFiles.slug(slug) == slug && !slug.contains("/") && slug != "." && slug != ".."
    }

    /// Removes every file of the voice `name`, and its directory. Only a voice of this user:
    /// a name that is no voice id, or a voice owned by someone else, is refused.
    public func delete(name: String) throws {
        let slug = Self.slug(name)
        guard Self.isValidSlug(slug) else {
            throw PersonalVoiceError("'\(name)' is not a personal voice name (it needs letters or digits)")
        }
        let path = directory(slug)
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw PersonalVoiceError("no personal voice '\(slug)' in \(root)")
        }
        guard info.st_uid == getuid() else {
            throw PersonalVoiceError("the personal voice '\(slug)' in \(root) is not yours (it belongs to user \(info.st_uid)); only its owner can delete it")
        }
        try removeTree(path)
    }

    /// The mark a running build keeps in a voice's directory (`.building.PID`).
    public static func buildingMark(in directory: String) -> String { "\(directory)/.building.\(getpid())" }

    /// Whether a live process is building the voice in `path` (a `.building.PID` of a live PID).
    private func isBeingBuilt(_ path: String) -> Bool {
        guard let dir = opendir(path) else { return false }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(".building."), let pid = Int32(name.dropFirst(".building.".count)) {
                if kill(pid, 0) == 0 || errno != ESRCH { return true }
                unlink(path + "/" + name)
            }
        }
        return false
    }

    /// What a killed `create` left: a voice directory with a half-made `bank` and no
    /// `voice.json`. The bank is removed (recordings stay: they are the person's takes), and the
    /// directory too when nothing else is in it.
    public func removeUnfinishedVoices() {
        guard let dir = opendir(root) else { return }
        var names: [String] = []
        while let entry = readdir(dir) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        closedir(dir)
        for name in names where Self.isValidSlug(name) {
            let path = directory(name)
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid(),
                  access(path + "/voice.json", F_OK) != 0, !isBeingBuilt(path) else { continue }
            try? removeTree(path + "/bank")
            rmdir(path)  // only if empty
        }
    }

    private func removeTree(_ path: String) throws {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name == "." || name == ".." { continue }
                let child = path + "/" + name
                if entry.pointee.d_type == DT_DIR { try removeTree(child) } else if unlink(child) != 0 {
                    closedir(dir)
                    throw PersonalVoiceError("cannot delete \(child): \(String(cString: strerror(errno)))")
                }
            }
            closedir(dir)
        }
        guard rmdir(path) == 0 else { throw PersonalVoiceError("cannot delete \(path): \(String(cString: strerror(errno)))") }
    }

    /// A name as a directory and identifier part.
    public static func slug(_ name: String) -> String { SpkFiles.slug(name) }
}

public struct PersonalVoiceError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
