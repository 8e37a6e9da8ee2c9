import LockFree
import SpkProtocol
import Synchronization

/// Plays parts of requests one after another, each on the synth node of its engine, so that a
/// request that switches engines sounds as one: the next part starts at the very frame where
/// the last one ended (its end mark, or its spk:Finished).
///
/// `enqueue` (one control thread) forges each part's spk:Speak into a ring; `fill` (the audio
/// thread) runs the synth of the part playing and writes every synth node's output for the
/// block: no allocation, lock or system call. Events go out through a ring, stamped with their
/// frame since the start, for `drain`.
final class PartSequencer: @unchecked Sendable {
    struct Synth {
        let plugin: PluginInstance
        let outIndex: UInt32
        /// The node's output buffer in the graph (`maxBlock` frames).
        let out: UnsafeMutablePointer<Float>
        let control: UnsafeMutableRawPointer
        let controlCapacity: Int
        let notify: UnsafeMutableRawPointer
        let notifyCapacity: Int
        /// A request cut short at its end mark: cancelled before this synth speaks again.
        var cutShort: Int64 = 0
    }

    /// What precedes a part's spk:Speak atom (or one of its spk:Append chunks) in the parts ring.
    private struct PartHeader {
        var synth: Int32
        /// 0: a part starts (spk:Speak); 1: the next chunk of the part before it (spk:Append).
        var kind: Int32 = 0
        var request: Int64
        /// spk:textOffset of the end mark, or -1.
        var endMark: Int64
        static let start: Int32 = 0, append: Int32 = 1
    }

    /// The largest part (as RequestParts makes them: the whole request, other engines' text
    /// blanked): half the parts ring, so a part and the next fit in it.
    static let maximumPartBytes = 4 << 20

    private let synths: UnsafeMutableBufferPointer<Synth>
    private let parts = RecordRing(capacityPowerOfTwo: 1 << 23)
    private let events = RecordRing(capacityPowerOfTwo: 1 << 20)
    private let u: SpkURIDs
    private let chunkType: UInt32
    private let maxBlock: Int

    // The audio thread's own state.
    private var playing = -1
    private var playingRequest: Int64 = 0
    private var playingEndMark: Int64 = -1
    private var clock: Int64 = 0

    let droppedEvents = Atomic<Int>(0)

    init(synths: [Synth], urids: URIDMap, maxBlock: Int) {
        self.synths = .allocate(capacity: max(synths.count, 1))
        _ = self.synths.initialize(from: synths)
        u = urids.spk
        chunkType = urids.map(LV2URI.atomChunk)
        self.maxBlock = maxBlock
        for synth in synths { Self.writeEmptySequence(synth.control, synth.controlCapacity, u) }
    }

    deinit {
        synths.baseAddress?.deinitialize(count: synths.count)
        synths.deallocate()
    }

    // MARK: control thread

    /// Queues a part with the synth `synth` (an index into the synths), as request `id`: its
    /// spk:Speak, then the spk:Append chunks of a part larger than one message, which the audio
    /// thread sends one by one as the synth answers spk:Ready.
    func enqueue(_ part: SpeechPart, synth: Int, id: Int64) throws {
        let size = part.ssml.utf8.count
        guard size <= Self.maximumPartBytes else {
            throw HostError("a request of \(size) bytes is too large to speak through a render graph or across engines "
                + "(at most \(Self.maximumPartBytes) bytes, 4 MiB; one synth alone takes up to 100 MiB)")
        }
        var chunks = RequestChunks(part.ssml)
        var kind = PartHeader.start
        repeat {
            try enqueueRecord(PartHeader(synth: Int32(synth), kind: kind, request: id, endMark: Int64(part.endMark ?? -1)),
                              bytes: RequestChunks.chunkBytes + (part.voice?.utf8.count ?? 0) + 256,
                              chunks.nextMessage(request: id, voice: part.voice, u))
            kind = PartHeader.append
        } while chunks.hasMore
    }

    private func enqueueRecord(_ header: PartHeader, bytes: Int, _ write: (inout AtomWriter) -> Void) throws {
        var atom = [UInt8](repeating: 0, count: bytes)
        let used = atom.withUnsafeMutableBytes { buffer -> Int in
            var writer = AtomWriter(buffer.baseAddress!, capacity: buffer.count)
            write(&writer)
            return writer.overflowed ? -1 : writer.offset
        }
        precondition(used > 0, "a request chunk did not fit its buffer")
        let size = MemoryLayout<PartHeader>.size
        let ok = parts.write(length: size + used) { p in
            p.storeBytes(of: header, as: PartHeader.self)
            atom.withUnsafeBytes { (p + size).copyMemory(from: $0.baseAddress!, byteCount: used) }
        }
        if !ok {
            throw HostError("too much speech queued at once (\(parts.capacity / 2) bytes of requests at most)")
        }
    }

    /// Events since the last call: (frame since the start, event).
    func drain(_ body: (Int64, SpkEvent) -> Void) {
        while let record = events.peek() {
            let frame = record.loadUnaligned(as: Int64.self)
            if let event = SpkEvent.decode(AtomRef(record.baseAddress! + 8), u) { body(frame, event) }
            events.pop()
        }
    }

    // MARK: audio thread

    /// Writes `count` frames (at most `maxBlock`) of every synth node's output: the playing
    /// part's synth where it plays, silence elsewhere.
    func fill(_ count: Int) {
        precondition(count <= maxBlock)
        for s in 0..<synths.count { synths[s].out.update(repeating: 0, count: count) }
        var position = 0
        while position < count {
            if playing < 0 && !startNextPart() { break }
            let s = playing
            let frames = count - position
            let synth = synths[s]
            synth.notify.storeBytes(of: UInt32(synth.notifyCapacity - 8), as: UInt32.self)
            synth.notify.storeBytes(of: chunkType, toByteOffset: 4, as: UInt32.self)
            synth.plugin.connect(synth.outIndex, to: synth.out + position)
            synth.plugin.run(frames)
            Self.writeEmptySequence(synth.control, synth.controlCapacity, u)
            let end = forwardEvents(of: synth, from: clock + Int64(position), frames: frames)
            guard end >= 0 else {
                position += frames
                continue
            }
            // The part ends here: what the synth played after it is not the part's.
            (synth.out + position + end).update(repeating: 0, count: frames - end)
            position += end
            playing = -1
        }
        clock += Int64(count)
    }

    /// Takes the next part from the ring and writes its spk:Speak (after a cancel of what its
    /// synth was cut short in) into the synth's control port, for frame 0 of its next run.
    private func startNextPart() -> Bool {
        // Chunks left of a part that ended early (an error) are not sent.
        while let record = parts.peek(), record.loadUnaligned(as: PartHeader.self).kind == PartHeader.append { parts.pop() }
        guard let record = parts.peek() else { return false }
        let header = record.loadUnaligned(as: PartHeader.self)
        let s = Int(header.synth)
        let size = MemoryLayout<PartHeader>.size
        var writer = AtomWriter(synths[s].control, capacity: synths[s].controlCapacity)
        let sequence = writer.beginSequence(u)
        if synths[s].cutShort != 0 {
            writer.frameTime(0)
            writer.cancel(request: synths[s].cutShort, u)
            synths[s].cutShort = 0
        }
        writer.frameTime(0)
        writer.raw(UnsafeRawBufferPointer(rebasing: record[size...]))
        writer.end(sequence)
        parts.pop()
        playing = s
        playingRequest = header.request
        playingEndMark = header.endMark
        return true
    }

    /// Copies the synth's events to the ring, up to the end of the playing part; returns the
    /// frame (within the run) where the part ended, or -1.
    private func forwardEvents(of synth: Synth, from start: Int64, frames: Int) -> Int {
        var cursor = SequenceCursor(synth.notify)
        while let (time, atom) = cursor.next() {
            let frame = min(max(Int(time), 0), frames)
            let ok = events.write(length: 8 + atom.totalSize) { p in
                p.storeBytes(of: start + Int64(frame), as: Int64.self)
                (p + 8).copyMemory(from: atom.pointer, byteCount: atom.totalSize)
            }
            if !ok { droppedEvents.add(1, ordering: .relaxed) }
            guard let object = atom.object(u), object[u.request]?.integer(u) == playingRequest else { continue }
            switch object.otype {
            case u.ready:
                sendNextChunk(to: playing)
            case u.finished, u.cancelled, u.error:
                return frame
            case u.marker where playingEndMark >= 0:
                if object[u.markType]?.urid(u) == u.bookmark && object[u.textOffset]?.integer(u) == playingEndMark {
                    synths[playing].cutShort = playingRequest
                    return frame
                }
            default:
                break
            }
        }
        return -1
    }

    /// Writes the playing part's next spk:Append into the synth's control port, for frame 0 of
    /// its next run.
    private func sendNextChunk(to s: Int) {
        guard let record = parts.peek() else { return }
        let header = record.loadUnaligned(as: PartHeader.self)
        guard header.kind == PartHeader.append, header.request == playingRequest else { return }
        var writer = AtomWriter(synths[s].control, capacity: synths[s].controlCapacity)
        let sequence = writer.beginSequence(u)
        writer.frameTime(0)
        writer.raw(UnsafeRawBufferPointer(rebasing: record[MemoryLayout<PartHeader>.size...]))
        writer.end(sequence)
        parts.pop()
    }

    private static func writeEmptySequence(_ buffer: UnsafeMutableRawPointer, _ capacity: Int, _ u: SpkURIDs) {
        var writer = AtomWriter(buffer, capacity: capacity)
        let sequence = writer.beginSequence(u)
        writer.end(sequence)
    }
}

/// Walks an atom:Sequence event by event, in place: no closure, no allocation.
struct SequenceCursor {
    private let body: UnsafeRawPointer
    private let size: Int
    private var offset = 8  // past the sequence body header (unit, pad)

    init(_ sequence: UnsafeRawPointer) {
        size = Int(sequence.loadUnaligned(as: UInt32.self))
        body = sequence + 8
    }

    mutating func next() -> (Int64, AtomRef)? {
        guard offset + 16 <= size else { return nil }
        let event = body + offset
        let atom = AtomRef(event + 8)
        guard offset + 8 + atom.totalSize <= size else { return nil }
        offset += 8 + ((atom.totalSize + 7) & ~7)
        return (event.loadUnaligned(as: Int64.self), atom)
    }
}
