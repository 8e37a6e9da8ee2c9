import CLV2
import CLilv
import Glibc

extension PluginInstance {
    /// The plugin's state as a host saves it (LV2 state, through lilv), as Turtle: what a
    /// session or preset would hold. Port values are left out.
    public func savedState(uri: String = "urn:spk:test-state") throws -> String {
        let plugin = try world.plugin(info.uri)
        let flags = UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue)
        guard let state = lilv_state_new_from_instance(plugin, instance, urids.mapFeature, nil, nil, nil, nil,
                                                       nil, nil, flags, featureList) else {
            throw HostError("plugin <\(info.uri)> gave no state")
        }
        defer { lilv_state_free(state) }
        guard let text = lilv_state_to_string(world.world, urids.mapFeature, urids.unmapFeature, state, uri, nil) else {
            throw HostError("plugin <\(info.uri)>: its state could not be written")
        }
        defer { free(text) }
        return String(cString: text)
    }
}
