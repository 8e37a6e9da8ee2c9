import CSonic

/// Tempo and pitch changes of finished audio through libsonic, for voices whose synthesis
/// ignores flite's own controls. Speed `s` makes the audio `1/s` as long; pitch `p` multiplies
/// its fundamental without changing its length.
final class SonicStretch {
    private let stream: sonicStream

    init(sampleRate: Int, speed: Double = 1, pitch: Double = 1) throws(SpeechError) {
        guard let stream = sonicCreateStream(Int32(sampleRate), 1) else { throw SpeechError("libsonic could not create a stream") }
        self.stream = stream
        sonicSetSpeed(stream, Float(speed))
        sonicSetPitch(stream, Float(pitch))
    }

    deinit { sonicDestroyStream(stream) }

    /// Processes a whole signal: writes it, flushes the stream and reads everything back.
    func process(_ input: [Float]) throws(SpeechError) -> [Float] {
        var samples = input
        let written = samples.withUnsafeMutableBufferPointer { sonicWriteFloatToStream(stream, $0.baseAddress, Int32($0.count)) }
        guard written != 0, sonicFlushStream(stream) != 0 else { throw SpeechError("libsonic ran out of memory") }
        var output = [Float](repeating: 0, count: Int(sonicSamplesAvailable(stream)))
        let read = output.withUnsafeMutableBufferPointer { sonicReadFloatFromStream(stream, $0.baseAddress, Int32($0.count)) }
        output.removeLast(output.count - Int(max(read, 0)))
        return output
    }

    /// Applies `speed` and `pitch` to `input` at `sampleRate`.
    static func apply(_ input: [Float], sampleRate: Int, speed: Double = 1, pitch: Double = 1) throws(SpeechError) -> [Float] {
        try SonicStretch(sampleRate: sampleRate, speed: speed, pitch: pitch).process(input)
    }
}
