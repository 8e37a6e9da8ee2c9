/// Something the host cannot do, said so a person can act on it.
public struct HostError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
