import CLV2
import SpeechEngines
import SynthPlugin

/// urn:spk:synth:personal: a person's own voice (their phrase bank, and a synthetic voice
/// matched to it) behind the shared synth plugin machinery.
@_cdecl("lv2_descriptor")
public func lv2_descriptor(_ index: UInt32) -> UnsafePointer<LV2_Descriptor>? {
    SynthPluginDescriptor.descriptor(index: index, definition: SynthPluginDefinition(
        uri: PersonalEngine.pluginURI, defaultVoice: "", makeEngine: { try PersonalEngine.shared() }))
}
