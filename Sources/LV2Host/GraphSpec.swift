// A render graph as a graph file writes it (shared/DESIGN.md, "Files"): LV2 plugin nodes with
// control values and an optional preset, connections between their audio ports, and the ports
// that are the graph's output. Plain data; `GraphBuilder` checks it against installed plugins.

public struct GraphSpec: Sendable, Equatable {
    public var name: String?
    public var description: String?
    public var nodes: [Node]
    public var connections: [Connection]
    /// The graph's output channels, in order: ports, or nodes (all their audio outputs).
    public var outputs: [PortRef]

    public struct Node: Sendable, Equatable {
        /// Names the node in connections and in error messages.
        public var id: String
        public var plugin: String
        /// A preset of the plugin, by URI or label, applied before `controls`.
        public var preset: String?
        /// Control input values by port symbol.
        public var controls: [String: Float]

        public init(id: String, plugin: String, preset: String? = nil, controls: [String: Float] = [:]) {
            self.id = id
            self.plugin = plugin
            self.preset = preset
            self.controls = controls
        }
    }

    /// Audio from `from` (an output) into `to` (an input).
    public struct Connection: Sendable, Equatable, CustomStringConvertible {
        public var from: PortRef
        public var to: PortRef
        public init(from: PortRef, to: PortRef) {
            self.from = from
            self.to = to
        }
        public var description: String { "\(from) -> \(to)" }
    }

    public init(name: String? = nil, description: String? = nil, nodes: [Node], connections: [Connection], outputs: [PortRef]) {
        self.name = name
        self.description = description
        self.nodes = nodes
        self.connections = connections
        self.outputs = outputs
    }

    public static let synthPrefix = "urn:spk:synth:"

    /// Whether a plugin URI is one of spk's speech synthesizers.
    public static func isSynth(_ uri: String) -> Bool { uri.hasPrefix(synthPrefix) }

    /// The quick form of `--effect`: a synth, then each effect in turn, all channels connected
    /// node to node; the last node's audio outputs are the graph's outputs.
    public static func chain(synth: String, effects: [(plugin: String, controls: [String: Float])]) -> GraphSpec {
        var nodes = [Node(id: "voice", plugin: synth)]
        var used = ["voice": 1]
        for effect in effects {
            let base = shortName(effect.plugin)
            used[base, default: 0] += 1
            let id = used[base]! == 1 ? base : "\(base)-\(used[base]!)"
            nodes.append(Node(id: id, plugin: effect.plugin, controls: effect.controls))
        }
        let connections = zip(nodes, nodes.dropFirst()).map { Connection(from: PortRef(node: $0.id), to: PortRef(node: $1.id)) }
        return GraphSpec(nodes: nodes, connections: connections, outputs: [PortRef(node: nodes.last!.id)])
    }

    /// The last segment of a URI (`amp` for `http://plugin.org.uk/swh-plugins/amp`).
    static func shortName(_ uri: String) -> String {
        let tail = uri.split(whereSeparator: { $0 == "/" || $0 == "#" || $0 == ":" }).last.map(String.init) ?? uri
        return tail.isEmpty ? "effect" : tail
    }
}

/// `node` (all its audio ports) or `node:port` (one port, by symbol).
public struct PortRef: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var node: String
    public var port: String?

    public init(node: String, port: String? = nil) {
        self.node = node
        self.port = port
    }

    /// Reads `node` or `node:port`; nil when either part is empty.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let node = parts.first, !node.isEmpty else { return nil }
        if parts.count == 2 {
            guard !parts[1].isEmpty else { return nil }
            self.init(node: node, port: parts[1])
        } else {
            self.init(node: node)
        }
    }

    public var description: String { port.map { "\(node):\($0)" } ?? node }
}
