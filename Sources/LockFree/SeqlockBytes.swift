import Synchronization

/// A fixed-capacity byte string with one writer that never waits (the audio thread) and readers
/// on other threads that retry when they catch a write in progress (a sequence lock).
public final class SeqlockBytes: @unchecked Sendable {
    public let capacity: Int
    private let storage: UnsafeMutablePointer<UInt8>
    private var length = 0
    private let sequence = Atomic<Int>(0)

    public init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    /// Replaces the contents; false (and unchanged) when `bytes` is longer than `capacity`.
    /// Allocation-free: safe in `run()`.
    @discardableResult
    public func store(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count <= capacity else { return false }
        let s = sequence.load(ordering: .relaxed)
        sequence.store(s + 1, ordering: .relaxed)          // odd: writing
        atomicMemoryFence(ordering: .releasing)
        if let base = bytes.baseAddress { storage.update(from: base, count: bytes.count) }
        length = bytes.count
        sequence.store(s + 2, ordering: .releasing)         // even: stable
        return true
    }

    public var count: Int { read { $0.count } }

    /// Copies the current contents (allocates: not for `run()`).
    public func load() -> [UInt8] {
        read { Array($0) }
    }

    /// Reads on the writer's own thread: no retry needed, nothing copied.
    public func withOwnBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        body(UnsafeBufferPointer(start: storage, count: length))
    }

    /// Runs `body` on the bytes as they are in one stable moment (allocation-free).
    private func read<T>(_ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        while true {
            let before = sequence.load(ordering: .acquiring)
            if before & 1 != 0 { continue }
            let result = body(UnsafeBufferPointer(start: storage, count: min(length, capacity)))
            atomicMemoryFence(ordering: .acquiring)
            if sequence.load(ordering: .relaxed) == before { return result }
        }
    }
}
