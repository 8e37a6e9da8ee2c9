import CLV2
import CLilv
import SpkProtocol

extension PluginInstance {
    /// The presets lilv knows for this plugin: URI and label.
    public func presets() -> [(uri: String, label: String)] {
        let plugin = try? world.plugin(info.uri)
        guard let plugin, let related = lilv_plugin_get_related(plugin, world.uris.preset) else { return [] }
        defer { lilv_nodes_free(related) }
        var result: [(String, String)] = []
        var i = lilv_nodes_begin(related)
        while !lilv_nodes_is_end(related, i) {
            if let node = lilv_nodes_get(related, i) {
                lilv_world_load_resource(world.world, node)
                var label = String(cString: lilv_node_as_uri(node))
                if let labels = lilv_world_find_nodes(world.world, node, world.uris.label, nil) {
                    if let first = lilv_nodes_get_first(labels) { label = String(cString: lilv_node_as_string(first)) }
                    lilv_nodes_free(labels)
                }
                result.append((String(cString: lilv_node_as_uri(node)), label))
            }
            i = lilv_nodes_next(related, i)
        }
        return result.sorted { $0.1 < $1.1 }
    }

    /// Applies a preset, by URI or by label: its control values and its state (lilv restores the
    /// state through the plugin's state interface). Call before running, or between blocks.
    public func applyPreset(_ name: String) throws {
        guard let uri = presets().first(where: { $0.uri == name || $0.label == name })?.uri else {
            let known = presets().map { "\($0.label) <\($0.uri)>" }.joined(separator: ", ")
            throw HostError("no preset '\(name)' for <\(info.uri)>\(known.isEmpty ? "" : " (presets: \(known))")")
        }
        let node = lilv_new_uri(world.world, uri)
        defer { lilv_node_free(node) }
        guard let state = lilv_state_new_from_world(world.world, urids.mapFeature, node) else {
            throw HostError("preset <\(uri)> could not be loaded")
        }
        defer { lilv_state_free(state) }
        let box = Unmanaged.passUnretained(self).toOpaque()
        lilv_state_restore(state, instance, { symbol, userData, value, size, type in
            guard let symbol, let userData, let value else { return }
            let me = Unmanaged<PluginInstance>.fromOpaque(userData).takeUnretainedValue()
            me.setPresetValue(String(cString: symbol), value, size: Int(size), type: type)
        }, box, 0, featureList)
    }

    private func setPresetValue(_ symbol: String, _ value: UnsafeRawPointer, size: Int, type: UInt32) {
        guard let port = info.ports.first(where: { $0.symbol == symbol && $0.kind == .control && $0.isInput }),
              let slot = controls[port.index] else { return }
        let u = urids.spk
        switch type {
        case u.atomFloat where size >= 4: slot.pointee = value.loadUnaligned(as: Float.self)
        case u.atomDouble where size >= 8: slot.pointee = Float(value.loadUnaligned(as: Double.self))
        case u.atomInt where size >= 4, u.atomBool where size >= 4: slot.pointee = Float(value.loadUnaligned(as: Int32.self))
        case u.atomLong where size >= 8: slot.pointee = Float(value.loadUnaligned(as: Int64.self))
        default: break
        }
    }
}
