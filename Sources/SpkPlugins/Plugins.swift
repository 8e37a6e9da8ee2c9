import CLV2
import SpeechEngines
import SynthPlugin

/// Every spk synth, in one library (plugins/spk.lv2/spk.so): the engines behind the shared synth
/// plugin machinery. espeak-ng and flite keep process-wide state and each serves two plugins
/// (espeak-ng also phonemizes for the neural voices, flite also speaks the personal voice's
/// matched voice): in one library there is one copy of each engine and of its lock in the
/// process, where a library per plugin would bring a copy of each, whose locks would not see
/// each other.
private let definitions: [SynthPluginDefinition] = [
    // urn:spk:synth:espeak-ng: every espeak-ng voice.
    SynthPluginDefinition(uri: EspeakEngine.pluginURI, defaultVoice: EspeakEngine.defaultVoice,
                          makeEngine: { try EspeakEngine.shared() }),
    // urn:spk:synth:flite: flite's CMU voices.
    SynthPluginDefinition(uri: FliteEngine.pluginURI, defaultVoice: FliteEngine.defaultVoice,
                          makeEngine: { try FliteEngine.shared() }),
    // urn:spk:synth:neural: Piper voices through sherpa-onnx; a voice's model loads in the
    // worker on its first request (NeuralModels).
    SynthPluginDefinition(uri: NeuralEngine.pluginURI, defaultVoice: NeuralEngine.defaultVoice,
                          makeEngine: { NeuralEngine.shared() }),
    // urn:spk:synth:personal: a person's own voice (their phrase bank, and a synthetic voice
    // matched to it).
    SynthPluginDefinition(uri: PersonalEngine.pluginURI, defaultVoice: "",
                          makeEngine: { try PersonalEngine.shared() }),
]

@_cdecl("lv2_descriptor")
public func lv2_descriptor(_ index: UInt32) -> UnsafePointer<LV2_Descriptor>? {
    SynthPluginDescriptor.descriptor(index: index, of: definitions)
}
