/// An engine's 16-bit PCM as floats in -1...1.
///
/// A plain loop over the buffers, which the compiler vectorizes: `map` with a closure did not,
/// and cost espeak-ng's and flite's callers about 17 instructions a sample (3 to 4% of a render;
/// see BENCHMARKS.md).
func floatSamples(_ pcm: UnsafePointer<Int16>, count: Int) -> [Float] {
    guard count > 0 else { return [] }
    return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
        let scale: Float = 1 / 32768
        for i in 0..<count { buffer[i] = Float(pcm[i]) * scale }
        initialized = count
    }
}
