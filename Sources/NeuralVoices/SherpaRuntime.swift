import CSherpaOnnx
import Glibc
import Synchronization

/// sherpa-onnx's C API, loaded at run time from an installed runtime directory, so that spk
/// builds and runs without it. Loaded once per directory and kept for the life of the process
/// (onnxruntime is not made to be unloaded).
public final class SherpaRuntime: @unchecked Sendable {
    public let directory: String
    public let version: String
    let createOfflineTts: SpkSherpaCreateOfflineTts
    let destroyOfflineTts: SpkSherpaDestroyOfflineTts
    let sampleRate: SpkSherpaOfflineTtsSampleRate
    let generate: SpkSherpaOfflineTtsGenerateWithConfig
    let destroyAudio: SpkSherpaDestroyOfflineTtsGeneratedAudio

    private static let loaded = Mutex<[String: SherpaRuntime]>([:])

    /// The runtime in `directory`, loading it on first use; throws naming the library when it
    /// cannot be loaded or is not the version spk's declarations are for.
    public static func load(directory: String) throws(NeuralVoiceError) -> SherpaRuntime {
        try loaded.withLock { (runtimes) throws(NeuralVoiceError) -> SherpaRuntime in
            if let runtime = runtimes[directory] { return runtime }
            let runtime = try SherpaRuntime(directory: directory)
            runtimes[directory] = runtime
            return runtime
        }
    }

    private init(directory: String) throws(NeuralVoiceError) {
        self.directory = directory
        let path = directory + "/" + NeuralCatalog.runtime.mainLibrary
        guard access(path, F_OK) == 0 else { throw NeuralVoiceError("the sherpa-onnx runtime is not installed (\(path) is missing)") }
        // RTLD_LOCAL: its onnxruntime symbols stay out of the host's way.
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw NeuralVoiceError("cannot load \(path): \(dlerror().map { String(cString: $0) } ?? "unknown error")")
        }
        func symbol<T>(_ name: String, as type: T.Type) throws(NeuralVoiceError) -> T {
            guard let pointer = dlsym(handle, name) else { throw NeuralVoiceError("\(path) has no \(name)") }
            return unsafeBitCast(pointer, to: type)
        }
        let versionString = try symbol("SherpaOnnxGetVersionStr", as: SpkSherpaGetVersionStr.self)
        version = versionString().map { String(cString: $0) } ?? "?"
        guard version == SPK_SHERPA_ONNX_VERSION else {
            throw NeuralVoiceError("\(path) is sherpa-onnx \(version); spk needs \(SPK_SHERPA_ONNX_VERSION)")
        }
        createOfflineTts = try symbol("SherpaOnnxCreateOfflineTts", as: SpkSherpaCreateOfflineTts.self)
        destroyOfflineTts = try symbol("SherpaOnnxDestroyOfflineTts", as: SpkSherpaDestroyOfflineTts.self)
        sampleRate = try symbol("SherpaOnnxOfflineTtsSampleRate", as: SpkSherpaOfflineTtsSampleRate.self)
        generate = try symbol("SherpaOnnxOfflineTtsGenerateWithConfig", as: SpkSherpaOfflineTtsGenerateWithConfig.self)
        destroyAudio = try symbol("SherpaOnnxDestroyOfflineTtsGeneratedAudio", as: SpkSherpaDestroyOfflineTtsGeneratedAudio.self)
    }
}
