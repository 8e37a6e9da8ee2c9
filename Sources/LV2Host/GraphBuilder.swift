/// Checks a GraphSpec against the installed plugins and puts it in running order.
///
/// Every problem (an unknown plugin, a feature the host lacks, an unknown port or control, a
/// value out of range, a connection that does not fit, a cycle) is an error naming the node or
/// connection and what is wrong, found before any plugin is instantiated.
enum GraphBuilder {
    private struct Edge {
        var from: Int, fromPort: UInt32
        var to: Int, toPort: UInt32
        var gain: Float
    }

    /// `engines`: the synth plugins the request speaks with; the graph gets a node for each one
    /// it lacks, fed into the same places as its first synth node.
    static func layout(_ spec: GraphSpec, world: LV2World, sampleRate: Double, live: Bool,
                       engines: [String]) throws -> GraphLayout {
        var nodes = try describe(spec.nodes, world: world, sampleRate: sampleRate, live: live)
        let siblings = try addSynths(for: engines, to: &nodes, world: world, sampleRate: sampleRate, live: live)
        let index = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($0.element.id, $0.offset) })
        var edges = try spec.connections.flatMap { try edgesOf($0, nodes, index) }
        guard !spec.outputs.isEmpty else { throw HostError("the graph has no outputs") }
        var outputs = try spec.outputs.flatMap { ref in
            let (node, outs) = try ports(ref, output: true, nodes, index, "output \(ref)")
            return outs.map { [GraphLayout.Feed(node: node, port: $0.index, gain: 1)] }
        }
        for (template, added) in siblings {
            feed(added, like: template, nodes, &edges, &outputs)
        }
        let order = try runningOrder(nodes.map(\.id), edges)
        return assemble(nodes, edges, outputs, order: order)
    }

    /// The edges of one connection, its channels adapted when it names nodes.
    private static func edgesOf(_ connection: GraphSpec.Connection, _ nodes: [GraphLayout.Node],
                                _ index: [String: Int]) throws -> [Edge] {
        let what = "connection \(connection)"
        let (from, outs) = try ports(connection.from, output: true, nodes, index, what)
        let (to, ins) = try ports(connection.to, output: false, nodes, index, what)
        guard let pairs = ChannelAdapter.connect(outs, ins) else {
            throw HostError("\(what): node '\(nodes[from].id)' has \(outs.count) audio outputs and node '\(nodes[to].id)' "
                            + "\(ins.count) audio inputs; connect them port by port (node:port)")
        }
        return pairs.map { Edge(from: from, fromPort: $0.output.index, to: to, toPort: $0.input.index, gain: $0.gain) }
    }

    /// Added synths speak into wherever the graph's first synth node (`template`) does.
    private static func feed(_ added: [Int], like template: Int, _ nodes: [GraphLayout.Node], _ edges: inout [Edge],
                             _ outputs: inout [[GraphLayout.Feed]]) {
        func samePort(of node: Int, as port: UInt32) -> UInt32? {
            let symbol = nodes[template].plugin.info.ports.first { $0.index == port }?.symbol
            return nodes[node].plugin.audioOutputs.first { $0.symbol == symbol }?.index
        }
        for sibling in added {
            for edge in edges where edge.from == template {
                if let port = samePort(of: sibling, as: edge.fromPort) {
                    edges.append(Edge(from: sibling, fromPort: port, to: edge.to, toPort: edge.toPort, gain: edge.gain))
                }
            }
            for c in outputs.indices {
                for feed in outputs[c] where feed.node == template {
                    if let port = samePort(of: sibling, as: feed.port) { outputs[c].append(.init(node: sibling, port: port, gain: feed.gain)) }
                }
            }
        }
    }

    /// The layout with nodes in running order and the edges gathered by the input they feed.
    private static func assemble(_ nodes: [GraphLayout.Node], _ edges: [Edge], _ outputs: [[GraphLayout.Feed]],
                                 order: [Int]) -> GraphLayout {
        var position = [Int](repeating: 0, count: nodes.count)
        for (i, node) in order.enumerated() { position[node] = i }
        var inputs: [GraphLayout.Input] = []
        for edge in edges {
            let feed = GraphLayout.Feed(node: position[edge.from], port: edge.fromPort, gain: edge.gain)
            if let i = inputs.firstIndex(where: { $0.node == position[edge.to] && $0.port == edge.toPort }) {
                inputs[i].feeds.append(feed)
            } else {
                inputs.append(GraphLayout.Input(node: position[edge.to], port: edge.toPort, feeds: [feed]))
            }
        }
        return GraphLayout(nodes: order.map { nodes[$0] }, inputs: inputs,
                           outputs: outputs.map { $0.map { .init(node: position[$0.node], port: $0.port, gain: $0.gain) } })
    }

    // MARK: nodes

    private static func describe(_ specs: [GraphSpec.Node], world: LV2World, sampleRate: Double,
                                 live: Bool) throws -> [GraphLayout.Node] {
        guard !specs.isEmpty else { throw HostError("the graph has no nodes") }
        var seen = Set<String>()
        var nodes: [GraphLayout.Node] = []
        for spec in specs {
            guard !spec.id.isEmpty, !spec.id.contains(":") else {
                throw HostError("node id '\(spec.id)' is not usable: ids are non-empty and have no ':'")
            }
            guard seen.insert(spec.id).inserted else { throw HostError("node id '\(spec.id)' is used twice") }
            nodes.append(try describe(spec, world: world, sampleRate: sampleRate, live: live, added: false))
        }
        var engines: [String: String] = [:]
        for node in nodes where node.isSynth {
            if let other = engines[node.spec.plugin] {
                throw HostError("nodes '\(other)' and '\(node.id)' are both <\(node.spec.plugin)>: "
                                + "a graph speaks through one synth node per engine")
            }
            engines[node.spec.plugin] = node.id
        }
        return nodes
    }

    private static func describe(_ spec: GraphSpec.Node, world: LV2World, sampleRate: Double, live: Bool,
                                 added: Bool) throws -> GraphLayout.Node {
        let name = added ? "node '\(spec.id)' (added to speak the request's voices)" : "node '\(spec.id)'"
        do {
            let plugin = try PluginDescription(world: world, uri: spec.plugin)
            let supported = HostFeatures.supported(live: live)
            if let missing = plugin.requiredFeatures.first(where: { !supported.contains($0) }) {
                let when = missing == HostFeatures.isLive ? " when rendering to a file (spkhost play provides it)" : ""
                throw HostError("<\(spec.plugin)> needs the LV2 feature <\(missing)>, which spkhost does not provide\(when)")
            }
            if let port = plugin.unsupportedPorts.first {
                throw HostError("<\(spec.plugin)> has a port spkhost cannot connect ('\(port.symbol)', neither audio, control nor atom)")
            }
            try checkControls(spec.controls, of: plugin, sampleRate: sampleRate)
            return GraphLayout.Node(spec: spec, plugin: plugin, added: added)
        } catch let error as HostError {
            throw HostError("\(name): \(error.description)")
        }
    }

    static func checkControls(_ controls: [String: Float], of plugin: PluginDescription, sampleRate: Double) throws {
        for (symbol, value) in controls.sorted(by: { $0.key < $1.key }) {
            let known = plugin.controlInputs.map(\.symbol).joined(separator: ", ")
            guard let port = plugin.controlInputs.first(where: { $0.symbol == symbol }) else {
                throw HostError("<\(plugin.uri)> has no control input '\(symbol)' (its control inputs: \(known.isEmpty ? "none" : known))")
            }
            guard value.isFinite else { throw HostError("\(symbol) = \(value) is not a number") }
            if let range = plugin.range(of: port, sampleRate: sampleRate), !range.contains(value) {
                let unit = plugin.isSampleRateScaled(port) ? " at \(Int(sampleRate)) Hz" : ""
                throw HostError("\(symbol) = \(format(value)) is outside \(format(range.lowerBound))...\(format(range.upperBound))\(unit)")
            }
        }
    }

    /// Nodes for the engines the graph has no synth node for, each a copy of the first synth node
    /// (its controls that the other synth has too); the result maps that node to the copies.
    private static func addSynths(for engines: [String], to nodes: inout [GraphLayout.Node], world: LV2World,
                                  sampleRate: Double, live: Bool) throws -> [(Int, [Int])] {
        let present = Set(nodes.filter(\.isSynth).map(\.spec.plugin))
        guard !engines.isEmpty else { return [] }
        let missing = engines.filter { !present.contains($0) }.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        guard let template = nodes.firstIndex(where: \.isSynth) else {
            throw HostError("the graph has no spk synth node (a node whose plugin is \(GraphSpec.synthPrefix)...) for the speech to come from")
        }
        var added: [Int] = []
        for engine in missing {
            let engineName = String(engine.dropFirst(GraphSpec.synthPrefix.count))
            var id = "\(nodes[template].id).\(engineName)"
            while nodes.contains(where: { $0.id == id }) { id += "_" }
            var spec = GraphSpec.Node(id: id, plugin: engine)
            let probe = try? PluginDescription(world: world, uri: engine)
            spec.controls = nodes[template].spec.controls.filter { control in probe?.controlInputs.contains { $0.symbol == control.key } ?? false }
            nodes.append(try describe(spec, world: world, sampleRate: sampleRate, live: live, added: true))
            added.append(nodes.count - 1)
        }
        return added.isEmpty ? [] : [(template, added)]
    }

    // MARK: connections

    /// The audio ports a reference names: one port, or all of a node's outputs (inputs).
    private static func ports(_ ref: PortRef, output: Bool, _ nodes: [GraphLayout.Node], _ index: [String: Int],
                              _ what: String) throws -> (Int, [PortInfo]) {
        let direction = output ? "output" : "input"
        guard let n = index[ref.node] else {
            throw HostError("\(what): there is no node '\(ref.node)' (nodes: \(nodes.map(\.id).joined(separator: ", ")))")
        }
        let node = nodes[n]
        let candidates = output ? node.plugin.audioOutputs : node.plugin.audioInputs
        let list = candidates.isEmpty ? "it has none" : "its audio \(direction)s: \(candidates.map(\.symbol).joined(separator: ", "))"
        guard let symbol = ref.port else {
            guard !candidates.isEmpty else { throw HostError("\(what): node '\(node.id)' has no audio \(direction)s") }
            return (n, candidates)
        }
        guard let port = candidates.first(where: { $0.symbol == symbol }) else {
            let exists = node.plugin.info.ports.contains { $0.symbol == symbol }
            throw HostError("\(what): node '\(node.id)' has \(exists ? "a port '\(symbol)', but it is not an audio \(direction)" : "no port '\(symbol)'") (\(list))")
        }
        return (n, [port])
    }

    /// Nodes in an order where each comes after everything that feeds it (Kahn's algorithm,
    /// keeping the file's order among equals); a cycle is an error that spells it out.
    private static func runningOrder(_ ids: [String], _ edges: [Edge]) throws -> [Int] {
        var incoming = [Int](repeating: 0, count: ids.count)
        var next = [[Int]](repeating: [], count: ids.count)
        for edge in edges {
            incoming[edge.to] += 1
            next[edge.from].append(edge.to)
        }
        var order: [Int] = []
        var ready = (0..<ids.count).filter { incoming[$0] == 0 }
        while let node = ready.min() {
            ready.removeAll { $0 == node }
            order.append(node)
            for successor in next[node] {
                incoming[successor] -= 1
                if incoming[successor] == 0 { ready.append(successor) }
            }
        }
        guard order.count == ids.count else {
            throw HostError("the graph has a cycle: \(cycle(among: Set(0..<ids.count).subtracting(order), edges).map { ids[$0] }.joined(separator: " -> "))")
        }
        return order
    }

    /// A cycle among nodes that all have a predecessor among them: walk back until a node repeats.
    private static func cycle(among left: Set<Int>, _ edges: [Edge]) -> [Int] {
        var path: [Int] = [left.min()!]
        while true {
            let current = path.last!
            guard let previous = edges.filter({ $0.to == current && left.contains($0.from) }).map(\.from).min() else { return path }
            if let start = path.firstIndex(of: previous) {
                // Forward order, starting from the node that comes first in the file.
                let loop = Array(path[start...].reversed())
                let first = loop.firstIndex(of: loop.min()!)!
                let rotated = Array(loop[first...] + loop[..<first])
                return rotated + [rotated[0]]
            }
            path.append(previous)
        }
    }

    /// A control value as people write it: `-6`, `0.45`, `19200` (at most four decimals).
    static func format(_ value: Float) -> String {
        let rounded = (Double(value) * 10_000).rounded() / 10_000
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
    }
}
