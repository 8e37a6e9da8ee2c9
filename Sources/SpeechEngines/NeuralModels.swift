import Dispatch
import NeuralVoices
import Synchronization

/// The neural voices loaded in this process, shared by every plugin instance. A model takes a
/// second or two to load: it is loaded by the first request that needs it, on the plugin's
/// worker thread (never the audio thread), while requests that arrive meanwhile wait in the
/// plugin's queue; another instance needing it then waits for that load instead of loading it
/// twice. A load that failed is tried again on the next request, so reinstalling a voice needs
/// no restart.
///
/// Not loaded when a plugin is instantiated: hosts instantiate a synth just to list its voices
/// and exit at once, and a process that exits while onnxruntime is loading a model crashes in
/// onnxruntime's static destructors.
final class NeuralModels: @unchecked Sendable {
    private final class Loading: @unchecked Sendable {
        let done = DispatchGroup()
        var result: Result<SherpaVoiceModel, NeuralVoiceError>?
    }

    private let slots = Mutex<[String: Loading]>([:])

    /// The model for the voice in `directory`, loading it (or waiting for another caller's load).
    func model(voice directory: String, runtime: String) throws(NeuralVoiceError) -> SherpaVoiceModel {
        let (loading, isNew) = slots.withLock { slots -> (Loading, Bool) in
            if let existing = slots[directory] { return (existing, false) }
            let loading = Loading()
            loading.done.enter()
            slots[directory] = loading
            return (loading, true)
        }
        if isNew {
            loading.result = Result { () throws(NeuralVoiceError) -> SherpaVoiceModel in
                let voice = try InstalledNeuralVoice(directory: directory)
                return try SherpaVoiceModel(voice: voice, runtime: try SherpaRuntime.load(directory: runtime))
            }
            if case .failure = loading.result { forget(voice: directory) }
            loading.done.leave()
        }
        loading.done.wait()
        return try loading.result!.get()
    }

    /// Forgets a voice (it was removed, or failed to load): its memory goes when the last user lets go.
    func forget(voice directory: String) {
        _ = slots.withLock { $0.removeValue(forKey: directory) }
    }
}
