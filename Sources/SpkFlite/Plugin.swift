import CLV2
import SpeechEngines
import SynthPlugin

/// urn:spk:synth:flite: the flite engine behind the shared synth plugin machinery.
@_cdecl("lv2_descriptor")
public func lv2_descriptor(_ index: UInt32) -> UnsafePointer<LV2_Descriptor>? {
    SynthPluginDescriptor.descriptor(index: index, definition: SynthPluginDefinition(
        uri: FliteEngine.pluginURI, defaultVoice: FliteEngine.defaultVoice, makeEngine: { try FliteEngine.shared() }))
}
