/// A sound file that could not be read or written, with its path and libsndfile's reason.
public struct AudioFileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(path): \(reason)" }
}
