import CLV2
import SpeechEngines
import SynthPlugin

/// urn:spk:synth:neural: Piper voices through sherpa-onnx behind the shared synth plugin
/// machinery. The voice's model loads in the worker on the first request (NeuralModels).
@_cdecl("lv2_descriptor")
public func lv2_descriptor(_ index: UInt32) -> UnsafePointer<LV2_Descriptor>? {
    SynthPluginDescriptor.descriptor(index: index, definition: SynthPluginDefinition(
        uri: NeuralEngine.pluginURI, defaultVoice: NeuralEngine.defaultVoice, makeEngine: { NeuralEngine.shared() }))
}
