/// A graph checked against the installed plugins: its nodes in the order they run, what is
/// summed into each connected audio input, and what makes each output channel. Indices are
/// positions in `nodes`; every feed comes from a node earlier in that order.
struct GraphLayout {
    struct Node {
        let spec: GraphSpec.Node
        let plugin: PluginDescription
        /// Added by the host: the synth for an engine the graph has no node for.
        let added: Bool
        var id: String { spec.id }
        var isSynth: Bool { GraphSpec.isSynth(spec.plugin) }
    }

    /// Audio from one output port of a node, scaled by `gain` (1, or 1/n when n channels are
    /// mixed down into one).
    struct Feed: Equatable {
        var node: Int
        var port: UInt32
        var gain: Float
    }

    /// A connected audio input and what is summed into it.
    struct Input {
        var node: Int
        var port: UInt32
        var feeds: [Feed]
    }

    var nodes: [Node]
    var inputs: [Input]
    /// One entry per output channel: the feeds summed into it.
    var outputs: [[Feed]]
}
