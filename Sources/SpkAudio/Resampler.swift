import CSamplerate

/// Streaming sample-rate conversion with libsamplerate's band-limited sinc converter.
/// Linear interpolation leaves audible images when speech at 16 or 22.05 kHz is raised to 48 kHz.
public final class Resampler {
    public let inputRate: Double
    public let outputRate: Double
    public var ratio: Double { outputRate / inputRate }
    private var state: OpaquePointer?

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(from inputRate: Double, to outputRate: Double) throws {
        self.inputRate = inputRate
        self.outputRate = outputRate
        var error: Int32 = 0
        state = src_new(Int32(SRC_SINC_MEDIUM_QUALITY), 1, &error)
        if state == nil { throw Failure(description: "libsamplerate: " + String(cString: src_strerror(error))) }
    }

    deinit { if let state { src_delete(state) } }

    /// Converts `input` and appends what comes out to `output`. `final` flushes the filter's tail.
    public func process(_ input: [Float], final: Bool, into output: inout [Float]) throws {
        if inputRate == outputRate {
            output.append(contentsOf: input)
            return
        }
        var consumed = 0
        var flushing = final
        repeat {
            let remaining = input.count - consumed
            let room = Int((Double(remaining) * ratio).rounded(.up)) + 256
            let start = output.count
            output.append(contentsOf: repeatElement(0, count: room))
            var generated = 0
            var used = 0
            let status: Int32 = input.withUnsafeBufferPointer { inBuf in
                output.withUnsafeMutableBufferPointer { outBuf in
                    var data = SRC_DATA()
                    data.data_in = inBuf.baseAddress.map { $0 + consumed }
                    data.input_frames = remaining
                    data.data_out = outBuf.baseAddress! + start
                    data.output_frames = room
                    data.end_of_input = final ? 1 : 0
                    data.src_ratio = ratio
                    let status = src_process(state, &data)
                    generated = data.output_frames_gen
                    used = data.input_frames_used
                    return status
                }
            }
            output.removeLast(room - generated)
            if status != 0 { throw Failure(description: "libsamplerate: " + String(cString: src_strerror(status))) }
            consumed += used
            // At the end of input, keep calling until the filter has nothing more to give.
            flushing = final && generated > 0
        } while consumed < input.count || flushing
    }

    /// Converts a whole signal at once.
    public static func convert(_ input: [Float], from inputRate: Double, to outputRate: Double) throws -> [Float] {
        let resampler = try Resampler(from: inputRate, to: outputRate)
        var output: [Float] = []
        output.reserveCapacity(Int(Double(input.count) * resampler.ratio) + 64)
        try resampler.process(input, final: true, into: &output)
        return output
    }
}
