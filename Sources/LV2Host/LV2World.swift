import CLilv
import Glibc

/// lilv's world: every LV2 bundle on `LV2_PATH` (or the default path), loaded once.
public final class LV2World: @unchecked Sendable {
    let world: OpaquePointer
    let uris: Nodes

    public init() {
        Self.makeSearchPathAbsolute()
        world = lilv_world_new()
        lilv_world_load_all(world)
        uris = Nodes(world)
    }

    deinit {
        uris.free()
        lilv_world_free(world)
    }

    /// Every plugin lilv found.
    public var plugins: [PluginInfo] {
        var result: [PluginInfo] = []
        let all = lilv_world_get_all_plugins(world)
        var i = lilv_plugins_begin(all)
        while !lilv_plugins_is_end(all, i) {
            if let plugin = lilv_plugins_get(all, i) { result.append(PluginInfo(plugin, uris)) }
            i = lilv_plugins_next(all, i)
        }
        return result.sorted { $0.uri < $1.uri }
    }

    /// The plugin with this URI, or an error naming it.
    public func plugin(_ uri: String) throws -> OpaquePointer {
        let node = lilv_new_uri(world, uri)
        defer { lilv_node_free(node) }
        guard let plugin = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), node) else {
            throw HostError("no LV2 plugin <\(uri)> is installed (looked in \(Self.searchPath))")
        }
        return plugin
    }

    /// lilv 0.24 crashes on a relative directory in LV2_PATH: resolve them against the
    /// current directory first.
    private static func makeSearchPathAbsolute() {
        guard let raw = getenv("LV2_PATH") else { return }
        let path = String(cString: raw)
        var cwd = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&cwd, cwd.count) != nil else { return }
        let base = String(cString: cwd)
        let fixed = path.split(separator: ":", omittingEmptySubsequences: true).map { entry -> String in
            if entry.hasPrefix("/") || entry.hasPrefix("~") { return String(entry) }
            return base + "/" + entry
        }.joined(separator: ":")
        if fixed != path { setenv("LV2_PATH", fixed, 1) }
    }

    public static var searchPath: String {
        if let path = getenv("LV2_PATH") { return String(cString: path) }
        return "~/.lv2:/usr/local/lib/lv2:/usr/lib/lv2"
    }

    /// URI nodes the host asks lilv about, made once.
    final class Nodes {
        let audioPort, controlPort, atomPort, inputPort, outputPort, minimumSize, name, supports, midiEvent, connectionOptional: OpaquePointer
        let preset, label: OpaquePointer
        init(_ world: OpaquePointer) {
            audioPort = lilv_new_uri(world, "http://lv2plug.in/ns/lv2core#AudioPort")
            controlPort = lilv_new_uri(world, "http://lv2plug.in/ns/lv2core#ControlPort")
            atomPort = lilv_new_uri(world, "http://lv2plug.in/ns/ext/atom#AtomPort")
            inputPort = lilv_new_uri(world, "http://lv2plug.in/ns/lv2core#InputPort")
            outputPort = lilv_new_uri(world, "http://lv2plug.in/ns/lv2core#OutputPort")
            minimumSize = lilv_new_uri(world, "http://lv2plug.in/ns/ext/resize-port#minimumSize")
            name = lilv_new_uri(world, "http://usefulinc.com/ns/doap#name")
            supports = lilv_new_uri(world, "http://lv2plug.in/ns/ext/atom#supports")
            midiEvent = lilv_new_uri(world, "http://lv2plug.in/ns/ext/midi#MidiEvent")
            connectionOptional = lilv_new_uri(world, "http://lv2plug.in/ns/lv2core#connectionOptional")
            preset = lilv_new_uri(world, "http://lv2plug.in/ns/ext/presets#Preset")
            label = lilv_new_uri(world, "http://www.w3.org/2000/01/rdf-schema#label")
        }
        func free() {
            for node in [audioPort, controlPort, atomPort, inputPort, outputPort, minimumSize, name, supports, midiEvent, connectionOptional, preset, label] {
                lilv_node_free(node)
            }
        }
    }
}

/// What `spkhost plugins` shows of a plugin.
public struct PluginInfo: Sendable, Codable, Equatable {
    public var uri: String
    public var name: String
    public var bundle: String
    public var ports: [PortInfo]

    init(_ plugin: OpaquePointer, _ uris: LV2World.Nodes) {
        uri = String(cString: lilv_node_as_uri(lilv_plugin_get_uri(plugin)))
        if let nameNode = lilv_plugin_get_name(plugin) {
            name = String(cString: lilv_node_as_string(nameNode))
            lilv_node_free(nameNode)
        } else {
            name = uri
        }
        let bundleURI = String(cString: lilv_node_as_uri(lilv_plugin_get_bundle_uri(plugin)))
        bundle = bundleURI.hasPrefix("file://") ? String(bundleURI.dropFirst(7)) : bundleURI
        ports = PortInfo.all(of: plugin, uris)
    }
}

public struct PortInfo: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable { case audio, control, atom, other }
    public var index: UInt32
    public var symbol: String
    public var kind: Kind
    public var isInput: Bool
    public var defaultValue: Float?
    public var minimum: Float?
    public var maximum: Float?
    /// Bytes the plugin asks for (resize-port:minimumSize), for atom ports.
    public var minimumSize: Int?

    static func all(of plugin: OpaquePointer, _ uris: LV2World.Nodes) -> [PortInfo] {
        let count = lilv_plugin_get_num_ports(plugin)
        var mins = [Float](repeating: .nan, count: Int(count))
        var maxs = mins, defs = mins
        lilv_plugin_get_port_ranges_float(plugin, &mins, &maxs, &defs)
        return (0..<count).map { index in
            let port = lilv_plugin_get_port_by_index(plugin, index)
            let symbol = String(cString: lilv_node_as_string(lilv_port_get_symbol(plugin, port)))
            let kind: Kind = lilv_port_is_a(plugin, port, uris.audioPort) ? .audio
                : lilv_port_is_a(plugin, port, uris.controlPort) ? .control
                : lilv_port_is_a(plugin, port, uris.atomPort) ? .atom : .other
            var size: Int?
            if let node = lilv_port_get(plugin, port, uris.minimumSize) {
                size = Int(lilv_node_as_int(node))
                lilv_node_free(node)
            }
            let i = Int(index)
            return PortInfo(index: index, symbol: symbol, kind: kind, isInput: lilv_port_is_a(plugin, port, uris.inputPort),
                            defaultValue: defs[i].isNaN ? nil : defs[i], minimum: mins[i].isNaN ? nil : mins[i],
                            maximum: maxs[i].isNaN ? nil : maxs[i], minimumSize: size)
        }
    }
}
