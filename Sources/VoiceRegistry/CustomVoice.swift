import SpkProtocol

/// A voice a person defines over an engine voice, like Apple's "Screen Reader Voice": a name, the
/// voice it speaks with, and its own rate, pitch and volume.
public struct CustomVoice: Codable, Equatable, Sendable {
    /// `spk.<engine>.<name>`, the engine of its base voice.
    public var identifier: String
    public var name: String
    /// The engine voice it speaks with.
    public var base: String
    /// Multipliers over the base voice (1 = unchanged).
    public var rate: Double
    public var pitch: Double
    public var volume: Double

    public init(identifier: String, name: String, base: String, rate: Double = 1, pitch: Double = 1, volume: Double = 1) {
        self.identifier = identifier
        self.name = name
        self.base = base
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
    }

    /// What a custom voice may set: `spkhost voice create` and the registry reader refuse
    /// anything outside these, and the engines' side clamps to them as well.
    public static let rateRange = 0.25...4.0
    public static let pitchRange = 0.5...2.0
    public static let volumeRange = 0.0...2.0

    /// What is wrong with this voice's rate, pitch or volume, if anything (NaN included).
    public var rangeProblem: String? {
        for (name, value, range) in [("rate", rate, Self.rateRange), ("pitch", pitch, Self.pitchRange), ("volume", volume, Self.volumeRange)]
        where !range.contains(value) {
            return "\(name) \(value) is outside \(range.lowerBound)...\(range.upperBound)"
        }
        return nil
    }

    /// `value` within `range`; NaN becomes 1 (unchanged).
    public static func clamp(_ value: Double, to range: ClosedRange<Double>) -> Double {
        value.isNaN ? 1 : min(max(value, range.lowerBound), range.upperBound)
    }

    /// The engine part of a voice identifier (`spk.flite.slt` -> `flite`), if it is one of spk's.
    public static func engine(of identifier: String) -> String? {
        let parts = identifier.split(separator: ".", maxSplits: 2)
        guard parts.count == 3, parts[0] == "spk" else { return nil }
        return String(parts[1])
    }

    /// The identifier for a custom voice named `name` over `base`: `spk.<engine>.<slug>`.
    public static func identifier(name: String, base: String) -> String? {
        guard let engine = engine(of: base) else { return nil }
        let slug = SpkFiles.slug(name)
        return slug.isEmpty ? nil : "spk.\(engine).\(slug)"
    }
}

/// What the registry file holds.
public struct RegistryContents: Codable, Equatable, Sendable {
    public var version: Int
    /// Identifiers of the engine voices a person has installed.
    public var installed: [String]
    public var custom: [CustomVoice]

    public init(version: Int = 1, installed: [String] = [], custom: [CustomVoice] = []) {
        self.version = version
        self.installed = installed
        self.custom = custom
    }

    public func custom(_ identifier: String) -> CustomVoice? {
        custom.first { $0.identifier == identifier }
    }
}
