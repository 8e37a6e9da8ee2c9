// Graph files: GraphSpec as JSON. Foundation's JSONDecoder reads them; unknown keys are refused
// so a misspelt "control" is an error, not a silently ignored setting.
//
//   {"name": "announcer",
//    "nodes": [{"id": "voice", "plugin": "urn:spk:synth:espeak-ng"},
//              {"id": "gain", "plugin": "http://plugin.org.uk/swh-plugins/amp", "controls": {"gain": -6}}],
//    "connections": [{"from": "voice:out", "to": "gain:input"}],
//    "outputs": ["gain:output"]}

import Foundation

extension GraphSpec {
    /// Reads a graph file; errors name the file and where in it the problem is.
    /// The largest graph spkhost builds (README "Limits"): checked when the file is read,
    /// before a plugin is instantiated or a buffer allocated.
    public static let maxNodes = 256
    public static let maxConnections = 4096
    public static let maxFileBytes = 1 << 20

    public static func load(path: String) throws -> GraphSpec {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFREG else { throw HostError("graph file '\(path)': not a regular file") }
            guard info.st_size <= maxFileBytes else {
                throw HostError("graph file '\(path)': \(info.st_size) bytes; a graph file may have at most \(maxFileBytes) bytes")
            }
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
            throw HostError("cannot read graph file '\(path)': \(reason)")
        }
        return try decode(data, source: path)
    }

    /// Reads a graph from JSON text; `source` names it in errors.
    public static func decode(_ data: Data, source: String) throws -> GraphSpec {
        do {
            let spec = try JSONDecoder().decode(GraphSpec.self, from: data)
            guard spec.nodes.count <= maxNodes else {
                throw HostError("graph file '\(source)': \(spec.nodes.count) nodes; a graph may have at most \(maxNodes)")
            }
            guard spec.connections.count <= maxConnections else {
                throw HostError("graph file '\(source)': \(spec.connections.count) connections; a graph may have at most \(maxConnections)")
            }
            return spec
        } catch let error as DecodingError {
            throw HostError("graph file '\(source)': \(Self.describe(error))")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = path(context.codingPath)
            return "\"\(key.stringValue)\" is missing\(at.isEmpty ? "" : " in \(at)")"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let expected = type == String.self ? "a string" : type == Float.self ? "a number"
                : "\(type)".hasPrefix("Array") ? "an array" : "\(type)".hasPrefix("Dictionary") ? "an object" : "\(type)"
            return "\(path(context.codingPath)): expected \(expected)"
        case .dataCorrupted(let context):
            if let underlying = context.underlyingError as NSError?,
               let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String {
                return "not valid JSON: \(detail)"
            }
            let at = path(context.codingPath)
            return at.isEmpty ? context.debugDescription : "\(at): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// Any key, to see which keys an object has.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private func refuseUnknownKeys(_ decoder: Decoder, allowed: [String]) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    for key in container.allKeys where !allowed.contains(key.stringValue) {
        throw DecodingError.dataCorruptedError(
            forKey: key, in: container,
            debugDescription: "unknown key \"\(key.stringValue)\" (expected \(allowed.joined(separator: ", ")))")
    }
}

extension GraphSpec: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case name, description, nodes, connections, outputs }

    public init(from decoder: Decoder) throws {
        try refuseUnknownKeys(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        nodes = try c.decode([Node].self, forKey: .nodes)
        connections = try c.decodeIfPresent([Connection].self, forKey: .connections) ?? []
        outputs = try c.decode([PortRef].self, forKey: .outputs)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encode(nodes, forKey: .nodes)
        try c.encode(connections, forKey: .connections)
        try c.encode(outputs, forKey: .outputs)
    }
}

extension GraphSpec.Node: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case id, plugin, preset, controls }

    public init(from decoder: Decoder) throws {
        try refuseUnknownKeys(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        plugin = try c.decode(String.self, forKey: .plugin)
        preset = try c.decodeIfPresent(String.self, forKey: .preset)
        // Read as Double, so a value beyond Float's range is named rather than "not valid JSON".
        let wide = try c.decodeIfPresent([String: Double].self, forKey: .controls) ?? [:]
        for (symbol, value) in wide.sorted(by: { $0.key < $1.key }) where !value.isFinite || abs(value) > Double(Float.greatestFiniteMagnitude) {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.controls, AnyKey(stringValue: symbol)],
                debugDescription: "\(value) is outside the range of a 32-bit float (node '\(id)')"))
        }
        controls = wide.mapValues { Float($0) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(plugin, forKey: .plugin)
        try c.encodeIfPresent(preset, forKey: .preset)
        if !controls.isEmpty { try c.encode(controls, forKey: .controls) }
    }
}

extension GraphSpec.Connection: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable { case from, to }

    public init(from decoder: Decoder) throws {
        try refuseUnknownKeys(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        from = try c.decode(PortRef.self, forKey: .from)
        to = try c.decode(PortRef.self, forKey: .to)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(from, forKey: .from)
        try c.encode(to, forKey: .to)
    }
}

extension PortRef: Codable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let ref = PortRef(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "\"\(text)\" is not \"node\" or \"node:port\"")
        }
        self = ref
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
