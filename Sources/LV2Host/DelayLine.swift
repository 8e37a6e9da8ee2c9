/// A fixed delay of whole frames, to line up paths of different latency. Memory is allocated
/// once; `process` is real-time safe.
final class DelayLine {
    let delay: Int
    private let capacity: Int
    private let storage: UnsafeMutablePointer<Float>
    private var writeIndex = 0

    init(delay: Int, maxBlock: Int) {
        precondition(delay >= 0 && maxBlock > 0)
        self.delay = delay
        capacity = delay + maxBlock
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    /// Takes `count` frames of `input` and adds the frames from `delay` earlier, times `gain`,
    /// into `output`.
    func process(_ input: UnsafePointer<Float>, count: Int, addingTo output: UnsafeMutablePointer<Float>, gain: Float) {
        var w = writeIndex
        var r = (writeIndex + capacity - delay) % capacity
        for i in 0..<count {
            storage[w] = input[i]
            output[i] += storage[r] * gain
            w += 1
            if w == capacity { w = 0 }
            r += 1
            if r == capacity { r = 0 }
        }
        writeIndex = w
    }
}
