/// A sound file that could not be read or written, with its path and libsndfile's reason.
public struct AudioFileError: Error, CustomStringConvertible, Sendable {
    /// Why: most are the file's own problems; the others are spk's limits on what it reads.
    public enum Kind: Sendable { case unreadable, notRegularFile, tooLong }

    public let path: String
    public let reason: String
    public let kind: Kind
    public init(path: String, reason: String, kind: Kind = .unreadable) {
        self.path = path
        self.reason = reason
        self.kind = kind
    }
    /// A limit was exceeded (not a regular file, too long): an error of the request, never a
    /// reason to speak `<audio>`'s fallback instead.
    public var isLimit: Bool { kind != .unreadable }
    public var description: String { "\(path): \(reason)" }
}
