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

    public func read(_ path: String) throws -> Data {
        guard let file = fopen(path, "r") else { throw PersonalVoiceError("cannot read \(path): \(String(cString: strerror(errno)))") }
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

    /// Removes every file of a voice, and its directory.
    public func delete(slug: String) throws {
        let path = directory(slug)
        guard access(path, F_OK) == 0 else { throw PersonalVoiceError("no personal voice '\(slug)' in \(root)") }
        try removeTree(path)
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
