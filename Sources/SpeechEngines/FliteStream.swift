import CFlite
import SpkAudio

/// One sentence's audio handed on while flite makes it, through flite's audio streaming
/// callback, instead of after the whole utterance: slt's first sound for "The quick brown fox
/// jumps over the lazy dog." comes after 16 ms of flite's work instead of 41 (BENCHMARKS.md).
///
/// flite calls back with each stretch of the wave once it has timed the utterance's segments, so
/// the sentence's speech and word boundaries are read from the utterance at the first call. The
/// callbacks run inside `flite_do_synth`, under `FliteEngine`'s lock.
final class FliteStream {
    /// From the utterance, at the first audio: the speech and boundaries in engine-rate samples.
    typealias Timing = (FliteRelations) -> (speech: Range<Int>?, boundaries: [SynthesisOutput.Boundary])

    private(set) var run: FliteRunAudio
    private let engineRate: Double
    private let timing: Timing
    /// FliteEngine's `send`, which passes nothing empty on.
    private let emit: (SynthesisOutput) throws -> Bool
    /// Voice rate to engine rate (kal speaks at 8 kHz), made at the first audio.
    private var resampler: Resampler?
    private var begun = false
    /// Set when the receiver said stop, or threw (`error`): flite is told to stop.
    private(set) var stopped = false
    private(set) var error: Error?

    init(run: FliteRunAudio, engineRate: Double, timing: @escaping Timing, emit: @escaping (SynthesisOutput) throws -> Bool) {
        self.run = run
        self.engineRate = engineRate
        self.timing = timing
        self.emit = emit
    }

    /// Asks flite to stream this utterance's wave here. The utterance owns the streaming info
    /// and frees it with its features; it must not outlive this stream.
    func attach(to features: UnsafeMutablePointer<cst_features>) {
        guard let info = new_audio_streaming_info() else { return }
        info.pointee.min_buffsize = 1024
        info.pointee.asc = fliteStreamCallback
        info.pointee.userdata = Unmanaged.passUnretained(self).toOpaque()
        feat_set(features, feat_own_string(features, "streaming_info"), audio_streaming_info_val(info))
    }

    /// One stretch of the wave, `start..<start+count` in its samples. False stops flite.
    fileprivate func receive(_ wave: UnsafePointer<cst_wave>, start: Int, count: Int, last: Bool,
                             utterance: UnsafePointer<cst_utterance>?) -> Bool {
        do {
            if !begun {
                begun = true
                let rate = Double(wave.pointee.sample_rate)
                if rate != engineRate { resampler = try Resampler(from: rate, to: engineRate) }
                let (speech, boundaries) = utterance.map { timing(FliteRelations($0)) } ?? (nil, [])
                run.begin(boundaries: boundaries, speech: speech)
            }
            var samples = count > 0 ? wave.pointee.samples.map { floatSamples($0 + start, count: count) } ?? [] : []
            if let resampler {
                var raised: [Float] = []
                try resampler.process(samples, final: last, into: &raised)
                samples = raised
            }
            if try !emit(run.receive(samples[...])) {
                stopped = true
                return false
            }
            return true
        } catch {
            self.error = error
            stopped = true
            return false
        }
    }
}

private func fliteStreamCallback(_ wave: UnsafePointer<cst_wave>?, _ start: Int32, _ size: Int32, _ last: Int32,
                                 _ info: UnsafeMutablePointer<cst_audio_streaming_info>?) -> Int32 {
    guard let wave, let info, let userData = info.pointee.userdata else { return CST_AUDIO_STREAM_STOP }
    let stream = Unmanaged<FliteStream>.fromOpaque(userData).takeUnretainedValue()
    let goOn = stream.receive(wave, start: Int(start), count: Int(size), last: last != 0, utterance: info.pointee.utt)
    return goOn ? CST_AUDIO_STREAM_CONT : CST_AUDIO_STREAM_STOP
}
