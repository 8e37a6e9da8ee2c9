import SSML
import SpeechEngines

/// libFuzzer's entry for the offline render path: the first byte picks the engine (espeak-ng or
/// flite), the rest is the request, rendered through ProgramRenderer at 16 kHz until it ends or
/// has made `budget` frames (so no input can render for hours). Rendering may throw (a refused
/// request); it must not crash, hang or make non-finite samples.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRender(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let request = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let useFlite = data[0] & 1 == 1
    do {
        let engine: SpeechEngine = useFlite ? try FliteEngine.shared() : try EspeakEngine.shared()
        let voice = useFlite ? FliteEngine.defaultVoice : EspeakEngine.defaultVoice
        let renderer = try ProgramRenderer(request: SpeechRequest(id: 1, ssml: request), engine: engine,
                                           outputRate: outputRate, defaultVoice: voice)
        var frames = 0
        while !renderer.isFinished && frames < budget {
            let chunk = try renderer.next()
            frames += chunk.samples.count
            for sample in chunk.samples { precondition(!sample.isNaN, "a NaN sample") }
        }
    } catch {
        // Refused: what spkhost reports as its one error line.
    }
    return 0
}

private let outputRate = 16000.0
/// 20 s of audio per input.
private let budget = Int(outputRate) * 20
