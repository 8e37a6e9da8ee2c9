import LockFree
import SpkProtocol
import Synchronization

/// An spk synth played live: requests from a control thread, audio and events from the audio
/// thread, with only lock-free rings between them.
///
/// `send` (any one non-real-time thread) forges a request into the inbox; `process` (the audio
/// thread: a JACK callback) delivers it at the start of the next block, runs the plugin and puts
/// every notify event, stamped with its absolute frame, into the outbox; `receive` (the control
/// thread) decodes them. The plugin's worker runs on its own thread.
public final class LiveSpeech: @unchecked Sendable {
    public let plugin: PluginInstance
    private let urids: SpkURIDs
    private let inbox = RecordRing(capacityPowerOfTwo: 1 << 20)
    private let outbox = RecordRing(capacityPowerOfTwo: 1 << 20)
    private let control: UnsafeMutableRawPointer, controlCapacity: Int
    private let notify: UnsafeMutableRawPointer, notifyCapacity: Int
    private let out: UnsafeMutablePointer<Float>
    private let chunkType: UInt32
    /// Requests whose text is still being sent, a chunk each time the plugin is ready for it.
    /// Control thread only.
    private var sending: [Int64: RequestChunks] = [:]
    /// Frames processed so far: the clock events are stamped with.
    public let frames = Atomic<Int64>(0)
    /// Events dropped because the control thread fell behind.
    public let droppedEvents = Atomic<Int>(0)

    public init(world: LV2World, uri: String, sampleRate: Double, maxBlock: Int = 8192) throws {
        plugin = try PluginInstance(world: world, uri: uri, sampleRate: sampleRate, maxBlock: maxBlock, live: true)
        urids = plugin.urids.spk
        let controlPort = try plugin.port("control"), notifyPort = try plugin.port("notify"), outPort = try plugin.port("out")
        guard let c = plugin.atoms[controlPort.index], let n = plugin.atoms[notifyPort.index], let o = plugin.audio[outPort.index] else {
            throw HostError("<\(uri)> does not have spk's control, notify and out ports")
        }
        (control, controlCapacity) = c
        (notify, notifyCapacity) = n
        out = o
        chunkType = plugin.urids.map(LV2URI.atomChunk)
        plugin.activate()
    }

    // MARK: control thread

    /// Queues one event (`write` forges one atom) for the start of the next block.
    public func send(_ write: (inout AtomWriter) -> Void) throws {
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        let used: Int = try scratch.withUnsafeMutableBytes { buffer in
            var writer = AtomWriter(buffer.baseAddress!, capacity: buffer.count)
            write(&writer)
            if writer.overflowed { throw HostError("request larger than \(buffer.count) bytes") }
            return writer.offset
        }
        let queued = inbox.write(length: used) { p in scratch.withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: used) } }
        if !queued { throw HostError("the audio thread is not taking requests (is the JACK client running?)") }
    }

    /// Queues request `request`: any size up to `RequestChunks.maximumBytes`, sent in chunks as
    /// the plugin takes them (`receive` sends the next one on each `spk:Ready`).
    public func speak(_ text: String, voice: String?, request: Int64) throws {
        let size = text.utf8.count
        guard size <= RequestChunks.maximumBytes else { throw HostError(RequestTooLarge(bytes: size).description) }
        var chunks = RequestChunks(text)
        try send(chunks.nextMessage(request: request, voice: voice, urids))
        if chunks.hasMore { sending[request] = chunks }
    }

    /// Events the plugin reported since the last call, in order. `spk:Ready` is answered here,
    /// with the next chunk of that request, and not passed on.
    public func receive() throws -> [SpeechSynth.TimedEvent] {
        var events: [SpeechSynth.TimedEvent] = []
        while let record = outbox.peek() {
            let frame = record.loadUnaligned(as: Int64.self)
            let atom = AtomRef(record.baseAddress! + 8)
            let event = SpkEvent.decode(atom, urids, plugin: plugin.info.uri)
            outbox.pop()
            switch event {
            case .ready(let request)?:
                if var chunks = sending.removeValue(forKey: request) {
                    try send(chunks.nextMessage(request: request, voice: nil, urids))
                    if chunks.hasMore { sending[request] = chunks }
                }
            case .finished(let request)?, .cancelled(let request)?, .error(let request, _)?:
                sending[request] = nil
                events.append(.init(frame: frame, event: event!))
            case let event?:
                events.append(.init(frame: frame, event: event))
            case nil:
                break
            }
        }
        return events
    }

    // MARK: audio thread

    /// Renders `count` frames into `output`. Real-time safe: no allocation, lock or system call
    /// (the plugin's own `run` promises the same).
    public func process(_ count: Int, into output: UnsafeMutablePointer<Float>) {
        var done = 0
        while done < count {
            let n = min(count - done, plugin.maxBlock)
            prepareControl(deliverRequests: done == 0)
            notify.storeBytes(of: UInt32(notifyCapacity - 8), as: UInt32.self)
            notify.storeBytes(of: chunkType, toByteOffset: 4, as: UInt32.self)
            plugin.run(n)
            (output + done).update(from: out, count: n)
            collectEvents(blockStart: frames.load(ordering: .relaxed))
            frames.store(frames.load(ordering: .relaxed) + Int64(n), ordering: .releasing)
            done += n
        }
    }

    private func prepareControl(deliverRequests: Bool) {
        var writer = AtomWriter(control, capacity: controlCapacity)
        let sequence = writer.beginSequence(urids)
        while deliverRequests, let record = inbox.peek() {
            let mark = writer.mark
            writer.frameTime(0)
            writer.raw(record)
            if writer.overflowed {  // the rest waits for the next block
                writer.rollBack(to: mark)
                break
            }
            inbox.pop()
        }
        writer.end(sequence)
    }

    private func collectEvents(blockStart: Int64) {
        SequenceRef(notify).forEachEvent { time, atom in
            let ok = outbox.write(length: 8 + atom.totalSize) { p in
                p.storeBytes(of: blockStart + time, as: Int64.self)
                (p + 8).copyMemory(from: atom.pointer, byteCount: atom.totalSize)
            }
            if !ok { droppedEvents.add(1, ordering: .relaxed) }
        }
    }
}
