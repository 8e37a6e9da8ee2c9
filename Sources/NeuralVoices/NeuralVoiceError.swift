/// A problem with an installed neural voice or its runtime, naming the file or voice it is about.
public struct NeuralVoiceError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }

    /// The voice's files, or one of them, are not what the installer left.
    static func damaged(_ path: String, _ problem: String) -> NeuralVoiceError {
        NeuralVoiceError("\(path): \(problem)")
    }
}
