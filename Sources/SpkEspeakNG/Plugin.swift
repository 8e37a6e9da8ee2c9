import CLV2
import SpeechEngines
import SynthPlugin

/// urn:spk:synth:espeak-ng: the espeak-ng engine behind the shared synth plugin machinery.
@_cdecl("lv2_descriptor")
public func lv2_descriptor(_ index: UInt32) -> UnsafePointer<LV2_Descriptor>? {
    SynthPluginDescriptor.descriptor(index: index, definition: SynthPluginDefinition(
        uri: EspeakEngine.pluginURI, defaultVoice: EspeakEngine.defaultVoice, makeEngine: { try EspeakEngine.shared() }))
}
