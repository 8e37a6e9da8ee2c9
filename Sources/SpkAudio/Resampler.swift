import CSoxr

/// Streaming sample-rate conversion with libsoxr at its default quality (`SOXR_HQ`: 20-bit,
/// linear phase, one thread). Linear interpolation leaves audible images when speech at 16 or
/// 22.05 kHz is raised to 48 kHz; libsamplerate's sinc converters avoid them too but ran at about
/// 140× real time here, slower than espeak-ng speaks, where soxr runs some 35 times faster
/// (BENCHMARKS.md). Output is aligned with input (soxr removes its filter's delay) and does not
/// depend on how the input is split into calls.
public final class Resampler {
    public let inputRate: Double
    public let outputRate: Double
    public var ratio: Double { outputRate / inputRate }
    /// Whether the rates are the same: audio is passed through as it is.
    public var isPassthrough: Bool { state == nil }
    private let state: soxr_t?

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public init(from inputRate: Double, to outputRate: Double) throws {
        self.inputRate = inputRate
        self.outputRate = outputRate
        guard inputRate != outputRate else { state = nil; return }
        guard inputRate > 0, outputRate > 0 else {
            throw Failure(description: "libsoxr: cannot resample from \(inputRate) Hz to \(outputRate) Hz")
        }
        var error: soxr_error_t?
        let created = soxr_create(inputRate, outputRate, 1, &error, nil, nil, nil)
        guard let created, error == nil else {
            throw Failure(description: "libsoxr: " + (error.map { String(cString: $0) } ?? "cannot create a resampler"))
        }
        state = created
    }

    deinit { if let state { soxr_delete(state) } }

    /// Converts `input` and appends what comes out to `output`. `final` flushes the filter's tail.
    public func process(_ input: [Float], final: Bool, into output: inout [Float]) throws {
        try process(input[...], final: final, into: &output)
    }

    /// The same for part of an array, without copying it out first.
    public func process(_ input: ArraySlice<Float>, final: Bool, into output: inout [Float]) throws {
        guard let state else {
            output.append(contentsOf: input)
            return
        }
        output.reserveCapacity(output.count + Int((Double(input.count) * ratio).rounded(.up)) + 64)
        try input.withUnsafeBufferPointer { inBuf in
            var consumed = 0
            while consumed < inBuf.count {
                let (used, generated) = try run(state, input: inBuf.baseAddress! + consumed, count: inBuf.count - consumed, into: &output)
                guard used > 0 || generated > 0 else { throw Failure(description: "libsoxr: no progress") }
                consumed += used
            }
        }
        guard final else { return }
        // End of input: soxr hands out what its filter still holds until it has nothing more.
        while try run(state, input: nil, count: 0, into: &output).generated == scratch.count {}
    }

    /// Where soxr writes before it is appended to the caller's array: made once, so each call
    /// neither allocates nor clears room in the output.
    private var scratch = [Float](repeating: 0, count: 4096)

    /// One `soxr_process` call, its output appended to `output`: input used, frames made.
    private func run(_ state: soxr_t, input: UnsafePointer<Float>?, count: Int,
                     into output: inout [Float]) throws -> (used: Int, generated: Int) {
        var used = 0
        var generated = 0
        let error = scratch.withUnsafeMutableBufferPointer { out in
            soxr_process(state, input, count, &used, out.baseAddress!, out.count, &generated)
        }
        if let error { throw Failure(description: "libsoxr: " + String(cString: error)) }
        let start = output.count
        output.append(contentsOf: scratch[..<generated])
        Self.zeroBelowPrecision(&output, from: start)
        return (used, generated)
    }

    /// soxr filters with FFTs, so silence comes out as rounding noise around 1e-7 rather than
    /// zeros (and a 16-bit file then holds -1s where the engine was silent). Anything below
    /// `SOXR_HQ`'s 20 bits of precision is that noise: it is made zero again, so digital silence
    /// (breaks, an engine's leading silence) stays digital silence.
    static let precisionFloor: Float = 1.0 / Float(1 << 20)

    private static func zeroBelowPrecision(_ samples: inout [Float], from start: Int) {
        samples.withUnsafeMutableBufferPointer { buffer in
            for i in start..<buffer.count where abs(buffer[i]) < precisionFloor { buffer[i] = 0 }
        }
    }

    /// Converts a whole signal at once.
    public static func convert(_ input: [Float], from inputRate: Double, to outputRate: Double) throws -> [Float] {
        let resampler = try Resampler(from: inputRate, to: outputRate)
        var output: [Float] = []
        try resampler.process(input, final: true, into: &output)
        return output
    }
}
