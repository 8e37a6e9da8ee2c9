import SSML
import SpeechEngines
import SpkProtocol

/// The voice a run gets, by the catalog's rules, with no registry.
func choose(_ engine: SpeechEngine, _ selection: VoiceSelection, language: String?, requestVoice: Voice) throws -> Voice {
    try VoiceCatalog(engine: engine).choose(selection, language: language, requestVoice: .init(voice: requestVoice)).voice
}
