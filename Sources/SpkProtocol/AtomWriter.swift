// Writing LV2 atoms into a caller's buffer, without allocating: safe to use in `run()`.
// Containers (sequence, object, tuple) are opened with `begin...`, which returns the offset of
// their header, and closed with `end`, which writes their final size.

public struct AtomWriter {
    public let base: UnsafeMutableRawPointer
    public let capacity: Int
    public private(set) var offset = 0
    /// Set when something did not fit; what was written before stays valid once containers end.
    public private(set) var overflowed = false

    public init(_ base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    public struct Container { fileprivate let headerOffset: Int }

    /// Where the next atom goes; lets a caller roll back a partly written event.
    public struct Mark { fileprivate let offset: Int }
    public var mark: Mark { Mark(offset: offset) }
    public mutating func rollBack(to mark: Mark) {
        offset = mark.offset
        overflowed = false
    }

    private mutating func reserve(_ n: Int) -> UnsafeMutableRawPointer? {
        guard !overflowed, offset + n <= capacity else { overflowed = true; return nil }
        let p = base + offset
        offset += n
        return p
    }

    private mutating func header(size: Int, type: UInt32) -> Bool {
        guard let p = reserve(8) else { return false }
        p.storeBytes(of: UInt32(size), as: UInt32.self)
        p.storeBytes(of: type, toByteOffset: 4, as: UInt32.self)
        return true
    }

    private mutating func padToEight() {
        let padded = pad8(offset)
        if padded > offset, let p = reserve(padded - offset) { p.initializeMemory(as: UInt8.self, repeating: 0, count: padded - offset) }
    }

    // MARK: containers

    public mutating func beginSequence(_ urids: SpkURIDs) -> Container {
        let c = Container(headerOffset: offset)
        if header(size: 8, type: urids.atomSequence), let p = reserve(8) {
            p.storeBytes(of: 0 as UInt32, as: UInt32.self)              // unit: 0 means frames
            p.storeBytes(of: 0 as UInt32, toByteOffset: 4, as: UInt32.self)
        }
        return c
    }

    /// The time stamp of the next event in a sequence; the event's atom follows.
    public mutating func frameTime(_ frames: Int64) {
        if let p = reserve(8) { p.storeBytes(of: frames, as: Int64.self) }
    }

    public mutating func beginObject(_ urids: SpkURIDs, otype: UInt32, id: UInt32 = 0) -> Container {
        let c = Container(headerOffset: offset)
        if header(size: 8, type: urids.atomObject), let p = reserve(8) {
            p.storeBytes(of: id, as: UInt32.self)
            p.storeBytes(of: otype, toByteOffset: 4, as: UInt32.self)
        }
        return c
    }

    /// The key of the next object property; its value atom follows.
    public mutating func key(_ key: UInt32) {
        if let p = reserve(8) {
            p.storeBytes(of: key, as: UInt32.self)
            p.storeBytes(of: 0 as UInt32, toByteOffset: 4, as: UInt32.self)  // context
        }
    }

    public mutating func beginTuple(_ urids: SpkURIDs) -> Container {
        let c = Container(headerOffset: offset)
        _ = header(size: 0, type: urids.atomTuple)
        return c
    }

    public mutating func end(_ container: Container) {
        guard !overflowed else { return }
        let size = offset - container.headerOffset - 8
        (base + container.headerOffset).storeBytes(of: UInt32(size), as: UInt32.self)
        padToEight()
    }

    // MARK: values

    public mutating func string(_ bytes: UnsafeRawBufferPointer, type: UInt32) {
        guard header(size: bytes.count + 1, type: type), let p = reserve(bytes.count + 1) else { return }
        if let src = bytes.baseAddress { p.copyMemory(from: src, byteCount: bytes.count) }
        (p + bytes.count).storeBytes(of: 0 as UInt8, as: UInt8.self)
        padToEight()
    }

    public mutating func string(_ bytes: UnsafeRawBufferPointer, _ urids: SpkURIDs) {
        string(bytes, type: urids.atomString)
    }

    /// Writes a Swift string (allocation-free for the bytes already in `s`; not for `run()` if
    /// `s` is built on the fly).
    public mutating func string(_ s: String, _ urids: SpkURIDs) {
        var s = s
        s.withUTF8 { string(UnsafeRawBufferPointer($0), urids) }
    }

    /// An atom of any type whose body is `bytes` as they are (a MIDI message, a chunk).
    public mutating func bytes(_ bytes: UnsafeRawBufferPointer, type: UInt32) {
        guard header(size: bytes.count, type: type), let p = reserve(bytes.count) else { return }
        if let src = bytes.baseAddress { p.copyMemory(from: src, byteCount: bytes.count) }
        padToEight()
    }

    public mutating func long(_ value: Int64, _ urids: SpkURIDs) {
        guard header(size: 8, type: urids.atomLong), let p = reserve(8) else { return }
        p.storeBytes(of: value, as: Int64.self)
    }

    public mutating func bool(_ value: Bool, _ urids: SpkURIDs) {
        guard header(size: 4, type: urids.atomBool), let p = reserve(4) else { return }
        p.storeBytes(of: value ? 1 : 0, as: Int32.self)
        padToEight()
    }

    public mutating func int(_ value: Int32, _ urids: SpkURIDs) {
        guard header(size: 4, type: urids.atomInt), let p = reserve(4) else { return }
        p.storeBytes(of: value, as: Int32.self)
        padToEight()
    }

    public mutating func float(_ value: Float, _ urids: SpkURIDs) {
        guard header(size: 4, type: urids.atomFloat), let p = reserve(4) else { return }
        p.storeBytes(of: value, as: Float.self)
        padToEight()
    }

    public mutating func urid(_ value: UInt32, _ urids: SpkURIDs) {
        guard header(size: 4, type: urids.atomURID), let p = reserve(4) else { return }
        p.storeBytes(of: value, as: UInt32.self)
        padToEight()
    }

    /// Copies a whole atom (header and body) as it is.
    public mutating func raw(_ atom: UnsafeRawBufferPointer) {
        guard let p = reserve(atom.count), let src = atom.baseAddress else { return }
        p.copyMemory(from: src, byteCount: atom.count)
        padToEight()
    }
}
