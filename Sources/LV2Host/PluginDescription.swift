import CLilv
import SpkProtocol

/// What a graph needs to know about a plugin before instantiating it, read from lilv: ports,
/// required features, the latency port, and which ports spkhost cannot connect.
struct PluginDescription {
    let info: PluginInfo
    let requiredFeatures: [String]
    /// The control output that reports latency (lv2:reportsLatency / lv2:latency), if any.
    let latencyPort: UInt32?
    /// Control ports whose bounds are multiples of the sample rate (lv2:sampleRate).
    private let sampleRatePorts: Set<UInt32>
    /// Ports of a kind spkhost has no buffer for (CV, event) that the plugin needs connected.
    let unsupportedPorts: [PortInfo]

    init(world: LV2World, uri: String) throws {
        let plugin = try world.plugin(uri)
        info = PluginInfo(plugin, world.uris)
        requiredFeatures = Self.uris(lilv_plugin_get_required_features(plugin))
        latencyPort = lilv_plugin_has_latency(plugin) ? lilv_plugin_get_latency_port_index(plugin) : nil

        let sampleRate = lilv_new_uri(world.world, "http://lv2plug.in/ns/lv2core#sampleRate")
        defer { lilv_node_free(sampleRate) }
        var scaled = Set<UInt32>()
        var unsupported: [PortInfo] = []
        for port in info.ports {
            let lilvPort = lilv_plugin_get_port_by_index(plugin, port.index)
            if port.kind == .control && lilv_port_has_property(plugin, lilvPort, sampleRate) { scaled.insert(port.index) }
            if port.kind == .other && !lilv_port_has_property(plugin, lilvPort, world.uris.connectionOptional) {
                unsupported.append(port)
            }
        }
        sampleRatePorts = scaled
        unsupportedPorts = unsupported
    }

    var uri: String { info.uri }
    var audioInputs: [PortInfo] { info.ports.filter { $0.kind == .audio && $0.isInput } }
    var audioOutputs: [PortInfo] { info.ports.filter { $0.kind == .audio && !$0.isInput } }
    var controlInputs: [PortInfo] { info.ports.filter { $0.kind == .control && $0.isInput } }

    /// The values a control input accepts at `sampleRate`, when the plugin gives both bounds.
    func range(of port: PortInfo, sampleRate: Double) -> ClosedRange<Float>? {
        guard let low = port.minimum, let high = port.maximum, low <= high else { return nil }
        let scale: Float = sampleRatePorts.contains(port.index) ? Float(sampleRate) : 1
        return low * scale...high * scale
    }

    func isSampleRateScaled(_ port: PortInfo) -> Bool { sampleRatePorts.contains(port.index) }

    private static func uris(_ nodes: UnsafeMutableRawPointer?) -> [String] {
        guard let nodes else { return [] }
        defer { lilv_nodes_free(nodes) }
        var result: [String] = []
        var i = lilv_nodes_begin(nodes)
        while !lilv_nodes_is_end(nodes, i) {
            if let node = lilv_nodes_get(nodes, i) { result.append(String(cString: lilv_node_as_uri(node))) }
            i = lilv_nodes_next(nodes, i)
        }
        return result
    }
}

/// The LV2 features spkhost gives a plugin: PluginInstance's (urid:map and unmap, worker,
/// options, bounded block length), what every graph guarantees (separate input and output
/// buffers, so in-place-broken plugins are safe), and lv2:isLive when playing into JACK.
enum HostFeatures {
    static func supported(live: Bool) -> Set<String> {
        var features: Set<String> = [
            LV2URI.uridMap, LV2URI.uridUnmap, LV2URI.workerSchedule, LV2URI.options, LV2URI.boundedBlockLength,
            "http://lv2plug.in/ns/lv2core#hardRTCapable", "http://lv2plug.in/ns/lv2core#inPlaceBroken",
        ]
        if live { features.insert(isLive) }
        return features
    }

    static let isLive = "http://lv2plug.in/ns/lv2core#isLive"
}
