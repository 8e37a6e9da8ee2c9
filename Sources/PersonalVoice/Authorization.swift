import FoundationEssentials
import Glibc

/// Whether a client (an app) may use the person's personal voices, as Apple's
/// `AVSpeechSynthesizer.PersonalVoiceAuthorizationStatus`.
public enum AuthorizationStatus: String, Codable, Sendable, CaseIterable {
    /// Never asked.
    case notDetermined
    /// The person said no, or took it back.
    case denied
    /// Personal voices cannot be used safely here (their directory is open to other users).
    case unsupported
    case authorized
}

/// The person's answers, per client, in `personal/authorization.json` (0600).
///
/// A client is named by `SPK_CLIENT`, or else by its program's name (`spkhost`, `jalv`, ...).
/// On Linux this records consent; it is not a sandbox: the files' owner-only permissions are
/// what keep other users out.
public struct Authorization: Sendable {
    public let store: PersonalStore

    public init(store: PersonalStore = PersonalStore()) { self.store = store }

    private struct File: Codable { var clients: [String: AuthorizationStatus] = [:] }

    /// The client this process speaks for.
    public static func currentClient() -> String {
        if let name = getenv("SPK_CLIENT"), name.pointee != 0 { return String(cString: name) }
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &path, path.count - 1)
        guard n > 0 else { return "unknown" }
        let full = String(decoding: path[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return full.split(separator: "/").last.map(String.init) ?? full
    }

    public func status(of client: String) -> AuthorizationStatus {
        if !storeIsPrivate { return .unsupported }
        return (try? load().clients[client]) ?? .notDetermined
    }

    public func all() throws -> [String: AuthorizationStatus] { try load().clients }

    /// Records the person's answer for `client`.
    public func set(_ status: AuthorizationStatus, for client: String) throws {
        guard status == .authorized || status == .denied else {
            throw PersonalVoiceError("only authorized or denied can be recorded")
        }
        try store.makePrivateDirectory(store.root)
        var file = (try? load()) ?? File()
        file.clients[client] = status
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try store.writePrivate(try encoder.encode(file), to: store.authorizationPath)
    }

    private func load() throws -> File {
        guard access(store.authorizationPath, F_OK) == 0 else { return File() }
        do {
            return try JSONDecoder().decode(File.self, from: try store.read(store.authorizationPath))
        } catch {
            throw PersonalVoiceError("\(store.authorizationPath) is not readable as authorizations: \(error)")
        }
    }

    /// No group or other access to the personal directory, or it does not exist yet.
    private var storeIsPrivate: Bool {
        var info = stat()
        guard stat(store.root, &info) == 0 else { return true }
        return info.st_mode & 0o077 == 0 && info.st_uid == getuid()
    }
}
