// Reading LV2 atoms in place, without copying or allocating: safe to use in `run()`.
// Layouts follow lv2/atom/atom.h: every atom is an 8-byte header (size, type) and a body
// padded to 8 bytes inside containers.

@inline(__always) func pad8(_ n: Int) -> Int { (n + 7) & ~7 }

/// An atom somewhere in memory: header at `pointer`.
public struct AtomRef {
    public let pointer: UnsafeRawPointer
    public init(_ pointer: UnsafeRawPointer) { self.pointer = pointer }

    public var size: Int { Int(pointer.loadUnaligned(as: UInt32.self)) }
    public var type: UInt32 { pointer.loadUnaligned(fromByteOffset: 4, as: UInt32.self) }
    public var body: UnsafeRawPointer { pointer + 8 }
    /// Header plus body.
    public var totalSize: Int { 8 + size }

    /// The bytes of an atom:String without its terminating NUL.
    public var stringBytes: UnsafeBufferPointer<UInt8> {
        var n = size
        let bytes = body.assumingMemoryBound(to: UInt8.self)
        while n > 0 && bytes[n - 1] == 0 { n -= 1 }
        return UnsafeBufferPointer(start: bytes, count: n)
    }

    /// The string of an atom:String (allocates: not for `run()`).
    public var string: String { String(decoding: stringBytes, as: UTF8.self) }

    /// The value of an atom:Long, atom:Int or atom:Bool as Int64, given their URIDs.
    public func integer(_ urids: SpkURIDs) -> Int64? {
        if type == urids.atomLong && size >= 8 { return body.loadUnaligned(as: Int64.self) }
        if (type == urids.atomInt || type == urids.atomBool) && size >= 4 { return Int64(body.loadUnaligned(as: Int32.self)) }
        return nil
    }

    public func number(_ urids: SpkURIDs) -> Double? {
        if type == urids.atomFloat && size >= 4 { return Double(body.loadUnaligned(as: Float.self)) }
        if type == urids.atomDouble && size >= 8 { return body.loadUnaligned(as: Double.self) }
        return integer(urids).map(Double.init)
    }

    public func urid(_ urids: SpkURIDs) -> UInt32? {
        type == urids.atomURID && size >= 4 ? body.loadUnaligned(as: UInt32.self) : nil
    }

    public func object(_ urids: SpkURIDs) -> ObjectRef? {
        guard type == urids.atomObject || type == urids.atomBlank || type == urids.atomResource, size >= 8 else { return nil }
        return ObjectRef(atom: self)
    }

    /// The elements of an atom:Tuple.
    public func forEachElement(_ body: (AtomRef) -> Void) {
        var offset = 0
        while offset + 8 <= size {
            let element = AtomRef(self.body + offset)
            if offset + element.totalSize > size { break }
            body(element)
            offset += pad8(element.totalSize)
        }
    }
}

/// An atom:Object: an id, a type (`otype`) and properties.
public struct ObjectRef {
    public let atom: AtomRef
    public var id: UInt32 { atom.body.loadUnaligned(as: UInt32.self) }
    public var otype: UInt32 { atom.body.loadUnaligned(fromByteOffset: 4, as: UInt32.self) }

    public func forEachProperty(_ body: (_ key: UInt32, _ value: AtomRef) -> Void) {
        var offset = 8
        while offset + 16 <= atom.size {
            let property = atom.body + offset
            let key = property.loadUnaligned(as: UInt32.self)
            let value = AtomRef(property + 8)
            if offset + 8 + value.totalSize > atom.size { break }
            body(key, value)
            offset += 8 + pad8(value.totalSize)
        }
    }

    public subscript(key: UInt32) -> AtomRef? {
        var found: AtomRef?
        forEachProperty { k, value in if k == key && found == nil { found = value } }
        return found
    }
}

/// An atom:Sequence of time-stamped events (frame times).
public struct SequenceRef {
    public let atom: AtomRef
    public init(_ pointer: UnsafeRawPointer) { atom = AtomRef(pointer) }

    public func forEachEvent(_ body: (_ frames: Int64, _ event: AtomRef) -> Void) {
        var offset = 8  // past the sequence body header (unit, pad)
        while offset + 16 <= atom.size {
            let event = atom.body + offset
            let frames = event.loadUnaligned(as: Int64.self)
            let value = AtomRef(event + 8)
            if offset + 8 + value.totalSize > atom.size { break }
            body(frames, value)
            offset += 8 + pad8(value.totalSize)
        }
    }
}
