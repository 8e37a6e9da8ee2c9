import Glibc

/// sd_spk's configuration file (the path speech-dispatcher passes as the module's argument):
/// dotconf-style `Name value` lines, `#` comments, values optionally in double quotes.
///
///     SpkDefaultVoice "spk.espeak-ng.en-us"
///     SpkSampleRate 22050
///     SpkBlockFrames 1024
///     SpkSoundIconFolder "/usr/share/sounds/sound-icons/"
///     SpkAheadSeconds 0
///     SpkMinRate 80
///     SpkNormalRate 170
///     SpkMaxRate 449
public struct ModuleConfig: Equatable, Sendable {
    public var defaultVoice: String?
    /// The rate the plugins run at and audio goes to the server: espeak-ng's own 22050 Hz.
    public var sampleRate = 22050
    /// Frames per plugin block: how often STOP and PAUSE are looked at, and the size of the
    /// audio pieces sent to the server.
    public var blockFrames = 1024
    public var soundIconFolder: String? = "/usr/share/sounds/sound-icons/"
    /// How far the audio sent may run ahead of its playing time, in seconds; 0: no bound (all
    /// of it as fast as it is made, as speech-dispatcher's own modules send it).
    public var aheadSeconds = 0.0
    public var mapping = ProsodyMapping()

    public init() {}

    public struct ConfigError: Error, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ text: String, path: String = "config") throws -> ModuleConfig {
        var config = ModuleConfig()
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            if line.isEmpty || line.hasPrefix("#") { continue }
            let name = String(line.prefix { $0 != " " && $0 != "\t" })
            var value = String(line.dropFirst(name.count).trimmingPrefix(while: { $0 == " " || $0 == "\t" }))
            while value.last == " " || value.last == "\t" || value.last == "\r" { value.removeLast() }
            if value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            func bad(_ why: String) -> ConfigError { ConfigError(description: "\(path):\(index + 1): \(name) \(why)") }
            func number(_ range: ClosedRange<Int>) throws -> Int {
                guard let n = Int(value), range.contains(n) else { throw bad("must be a whole number in \(range.lowerBound)...\(range.upperBound), not '\(value)'") }
                return n
            }
            switch name {
            case "SpkDefaultVoice": config.defaultVoice = value.isEmpty ? nil : value
            case "SpkSampleRate": config.sampleRate = try number(8000...192000)
            case "SpkBlockFrames": config.blockFrames = try number(64...16384)
            case "SpkAheadSeconds": config.aheadSeconds = Double(try number(0...3600))
            case "SpkSoundIconFolder": config.soundIconFolder = value.isEmpty ? nil : value
            case "SpkMinRate": config.mapping.minRate = Double(try number(1...1000))
            case "SpkNormalRate": config.mapping.normalRate = Double(try number(1...1000))
            case "SpkMaxRate": config.mapping.maxRate = Double(try number(1...1000))
            // speech-dispatcher's generic module options: not used by spk.
            case "Debug", "DebugFile", "LogLevel": break
            default: throw bad("is not an sd_spk option")
            }
        }
        return config
    }

    /// Reads `path`; an unreadable file is an error naming it.
    public static func load(_ path: String) throws -> ModuleConfig {
        guard let file = fopen(path, "r") else {
            throw ConfigError(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path)
    }
}
