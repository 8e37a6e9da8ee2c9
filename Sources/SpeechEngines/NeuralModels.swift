import Dispatch
import Glibc
import NeuralVoices
import Synchronization

/// The neural voices loaded in this process, shared by every plugin instance. A model takes a
/// second or two to load: it is loaded by the first request that needs it, on the plugin's
/// worker thread (never the audio thread), while requests that arrive meanwhile wait in the
/// plugin's queue; another instance needing it then waits for that load instead of loading it
/// twice. A load that failed is tried again on the next request, so reinstalling a voice needs
/// no restart.
///
/// A plugin with a worker thread of the host's loads its voice's model there as soon as the voice
/// is chosen (SynthWorker, VoicePreparing), before any request; hosts that work inline (offline
/// renders, a host listing voices) load it with the first request: a process that exits while
/// onnxruntime is loading a model crashes in onnxruntime's static destructors, and a host joins
/// its worker thread before it exits.
///
/// onnxruntime's intra-op threads: `threads` (SPK_NEURAL_THREADS, default 1, at most the cores).
/// Instances share one model per voice and take turns with it, so a process never runs more
/// than that many inference threads however many instances speak; see README (neural voices).
final class NeuralModels: @unchecked Sendable {
    private final class Loading: @unchecked Sendable {
        let done = DispatchGroup()
        var result: Result<SherpaVoiceModel, NeuralVoiceError>?
    }

    private let slots = Mutex<[String: Loading]>([:])

    /// onnxruntime's intra-op threads per model.
    static var threads: Int {
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        if let text = getenv("SPK_NEURAL_THREADS"), let wanted = Int(String(cString: text)), wanted > 0 { return min(wanted, cores) }
        return 1
    }

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
            let threads = Self.threads
            let log = NeuralLoadLog()
            log.write("loading \(directory) threads=\(threads)")
            let tasksBefore = NeuralLoadLog.threadCount()
            loading.result = Result { () throws(NeuralVoiceError) -> SherpaVoiceModel in
                let voice = try InstalledNeuralVoice(directory: directory)
                return try SherpaVoiceModel(voice: voice, runtime: try SherpaRuntime.load(directory: runtime), threads: threads)
            }
            switch loading.result! {
            case .success: log.write("loaded \(directory) threads=\(threads) new-threads=\(NeuralLoadLog.threadCount() - tasksBefore)")
            case .failure(let error): log.write("failed \(directory) \(error)")
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
