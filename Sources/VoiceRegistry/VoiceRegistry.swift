import FoundationEssentials
import Glibc
import SpkProtocol

/// The voice registry: the voices a person has installed and the custom voices they made, in
/// `$XDG_DATA_HOME/spk/voices.json` (default `~/.local/share/spk/`), shared by spkhost and every
/// running plugin.
///
/// Writes hold an exclusive lock on `voices.lock` across read-change-write, and replace the file
/// by rename, so two writers never lose each other's change and a reader never sees half a file.
/// A file that cannot be read is reported with its path and never overwritten.
public struct VoiceRegistry: Sendable {
    public let directory: String
    public var path: String { directory + "/voices.json" }
    private var lockPath: String { directory + "/voices.lock" }

    public init(directory: String = VoiceRegistry.defaultDirectory()) {
        self.directory = directory
    }

    /// `$XDG_DATA_HOME/spk`, or `~/.local/share/spk`.
    public static func defaultDirectory() -> String { SpkFiles.dataDirectory() }

    public var exists: Bool { access(path, F_OK) == 0 }

    /// The registry as it is; an empty one if there is no file yet.
    public func load() throws -> RegistryContents {
        guard let file = fopen(path, "r") else {
            if errno == ENOENT { return RegistryContents() }
            throw RegistryError(path: path, problem: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n > 0 { bytes += buffer[..<n] }
            if n < buffer.count { break }
        }
        if ferror(file) != 0 { throw RegistryError(path: path, problem: "read error") }
        do {
            let contents = try JSONDecoder().decode(RegistryContents.self, from: Data(bytes))
            guard contents.version == 1 else { throw RegistryError(path: path, problem: "unknown version \(contents.version)") }
            for voice in contents.custom {
                if let problem = voice.rangeProblem {
                    throw RegistryError(path: path, problem: "custom voice '\(voice.identifier)': \(problem); fix or remove it, spk leaves it as it is")
                }
            }
            return contents
        } catch let error as RegistryError {
            throw error
        } catch {
            throw RegistryError(path: path, problem: "not a voice registry (\(Self.describe(error))); fix or remove it, spk leaves it as it is")
        }
    }

    /// Reads, changes and writes the registry as one step no other writer can interleave with.
    /// `initial` is what a registry that does not exist yet starts from.
    @discardableResult
    public func update(initial: () throws -> RegistryContents = { RegistryContents() },
                       _ change: (inout RegistryContents) throws -> Void) throws -> RegistryContents {
        try makeDirectory()
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw RegistryError(path: lockPath, problem: String(cString: strerror(errno))) }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw RegistryError(path: lockPath, problem: String(cString: strerror(errno))) }
        defer { flock(lock, LOCK_UN) }
        var contents = exists ? try load() : try initial()
        try change(&contents)
        try write(contents)
        return contents
    }

    private func write(_ contents: RegistryContents) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(contents)
        let temporary = "\(directory)/.voices.json.\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RegistryError(path: temporary, problem: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced, rename(temporary, path) == 0 else {
            let problem = String(cString: strerror(errno))
            unlink(temporary)
            throw RegistryError(path: path, problem: "could not write: \(problem)")
        }
    }

    private func makeDirectory() throws {
        var prefix = ""
        for part in directory.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw RegistryError(path: prefix, problem: "cannot create directory: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Identifies the file's current version cheaply (inode, size, modification time), so a
    /// running plugin can tell whether to read it again.
    public func stamp() -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(inode: info.st_ino, size: info.st_size, seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
    }

    public struct Stamp: Equatable, Sendable {
        var inode: UInt
        var size: Int
        var seconds: Int
        var nanoseconds: Int
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            context.codingPath.isEmpty ? "expected a JSON object at the top level"
                : "wrong value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "\(error)"
        }
    }
}

/// A registry problem, with the file it is about.
public struct RegistryError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let problem: String
    public var description: String { "voice registry \(path): \(problem)" }
}
