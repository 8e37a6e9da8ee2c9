import Synchronization

/// A single-producer single-consumer ring of audio frames between the worker (producer) and
/// `run()` (consumer). Lock-free and allocation-free after init; indices count frames forever.
public final class FrameRing: @unchecked Sendable {
    public let capacity: Int
    private let mask: Int
    private let storage: UnsafeMutablePointer<Float>
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)

    public init(capacityPowerOfTwo: Int) {
        precondition(capacityPowerOfTwo > 0 && capacityPowerOfTwo & (capacityPowerOfTwo - 1) == 0)
        capacity = capacityPowerOfTwo
        mask = capacity - 1
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    // MARK: producer

    public var freeSpace: Int { capacity - (written.load(ordering: .relaxed) - read.load(ordering: .acquiring)) }

    /// Writes as many frames as fit; returns how many.
    public func write(_ frames: UnsafeBufferPointer<Float>) -> Int {
        guard let base = frames.baseAddress else { return 0 }
        let count = min(frames.count, freeSpace)
        var position = written.load(ordering: .relaxed)
        var done = 0
        while done < count {
            let index = position & mask
            let run = min(count - done, capacity - index)
            (storage + index).update(from: base + done, count: run)
            done += run
            position += run
        }
        written.store(position, ordering: .releasing)
        return count
    }

    // MARK: consumer

    public var available: Int { written.load(ordering: .acquiring) - read.load(ordering: .relaxed) }

    /// Copies `count` frames (which must be available) to `destination`.
    public func read(into destination: UnsafeMutablePointer<Float>, count: Int) {
        var position = read.load(ordering: .relaxed)
        var done = 0
        while done < count {
            let index = position & mask
            let run = min(count - done, capacity - index)
            (destination + done).update(from: storage + index, count: run)
            done += run
            position += run
        }
        read.store(position, ordering: .releasing)
    }

    /// Drops `count` available frames.
    public func discard(_ count: Int) {
        read.store(read.load(ordering: .relaxed) + count, ordering: .releasing)
    }
}
