import Synchronization

/// A single-producer single-consumer ring of variable-length records, each contiguous in memory
/// so the consumer can read it in place. Lock-free and allocation-free after init.
///
/// A record is a 4-byte length, then the payload, padded to 8 bytes. When a record does not
/// fit before the end of the buffer, the producer writes a wrap mark and starts again at 0.
public final class RecordRing: @unchecked Sendable {
    public let capacity: Int
    private let mask: Int
    private let storage: UnsafeMutableRawPointer
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)
    private var reservedTotal = 0
    private static let wrapMark = UInt32.max
    private static let headerSize = 8

    public init(capacityPowerOfTwo: Int) {
        precondition(capacityPowerOfTwo >= 64 && capacityPowerOfTwo & (capacityPowerOfTwo - 1) == 0)
        capacity = capacityPowerOfTwo
        mask = capacity - 1
        storage = .allocate(byteCount: capacity, alignment: 16)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
    }

    deinit { storage.deallocate() }

    private static func footprint(_ length: Int) -> Int { headerSize + ((length + 7) & ~7) }

    // MARK: producer

    /// Space for a record of `length` bytes, or nil when the ring is too full. Fill it, then `commit`.
    public func reserve(_ length: Int) -> UnsafeMutableRawPointer? {
        let need = Self.footprint(length)
        var position = written.load(ordering: .relaxed)
        let used = position - read.load(ordering: .acquiring)
        let index = position & mask
        let tail = capacity - index
        let wrap = need > tail
        guard need <= capacity / 2, used + need + (wrap ? tail : 0) <= capacity else { return nil }
        if wrap {
            storage.storeBytes(of: Self.wrapMark, toByteOffset: index, as: UInt32.self)
            position += tail
        }
        let start = position & mask
        storage.storeBytes(of: UInt32(length), toByteOffset: start, as: UInt32.self)
        reservedTotal = position + need
        return storage + start + Self.headerSize
    }

    /// Publishes the record last reserved.
    public func commit() {
        written.store(reservedTotal, ordering: .releasing)
    }

    /// Reserves, fills with `fill` and commits; false when full.
    @discardableResult
    public func write(length: Int, _ fill: (UnsafeMutableRawPointer) -> Void) -> Bool {
        guard let p = reserve(length) else { return false }
        fill(p)
        commit()
        return true
    }

    // MARK: consumer

    /// The record at `position` (past a wrap mark, if one is there) and the position after it.
    private func record(at position: Int, end: Int) -> (bytes: UnsafeRawBufferPointer, start: Int, next: Int)? {
        var position = position
        while position < end {
            let index = position & mask
            let length = storage.load(fromByteOffset: index, as: UInt32.self)
            if length == Self.wrapMark {
                position += capacity - index
                continue
            }
            return (UnsafeRawBufferPointer(start: storage + index + Self.headerSize, count: Int(length)), position,
                    position + Self.footprint(Int(length)))
        }
        return nil
    }

    /// The next record, in place, or nil when there is none.
    public func peek() -> UnsafeRawBufferPointer? {
        let position = read.load(ordering: .relaxed)
        guard let found = record(at: position, end: written.load(ordering: .acquiring)) else { return nil }
        if found.start != position { read.store(found.start, ordering: .releasing) }  // skip the wrap mark for good
        return found.bytes
    }

    /// Whether any record waiting to be read satisfies `matches`; consumes nothing (consumer side).
    public func contains(where matches: (UnsafeRawBufferPointer) -> Bool) -> Bool {
        let end = written.load(ordering: .acquiring)
        var position = read.load(ordering: .relaxed)
        while let found = record(at: position, end: end) {
            if matches(found.bytes) { return true }
            position = found.next
        }
        return false
    }

    /// Drops the record `peek` returned.
    public func pop() {
        let position = read.load(ordering: .relaxed)
        let length = Int(storage.load(fromByteOffset: position & mask, as: UInt32.self))
        read.store(position + Self.footprint(length), ordering: .releasing)
    }
}
