import SpeechEngines
import SpkProtocol
import LockFree
import Synchronization
import Glibc

/// The non-real-time half of a synth plugin: takes commands from `run()`, renders requests with
/// the engine, and feeds frames and timed events into the rings `run()` plays from.
/// Only ever called from one thread at a time (the host's worker, or `run()` in hosts without one).
final class SynthWorker {
    private let engine: SpeechEngine
    private let urids: SpkURIDs
    private let outputRate: Double
    private let commands: RecordRing
    private let frames: FrameRing
    private let events: RecordRing
    private let replies: RecordRing
    private let log: PluginLog
    private(set) var defaultVoice: String
    private let registry: RegistryView

    private var queue: [SpeechRequest] = []
    /// The text so far of queued requests whose `spk:Append`s are still coming: a request is
    /// spoken once whole.
    private var assembling: [Int64: [UInt8]] = [:]
    private var renderer: ProgramRenderer?
    private var current: Int64 = 0
    /// Rendered but not yet in the rings, in timeline order.
    private var pending: [Pending] = []
    private var pendingHead = 0
    /// Frames written to the frame ring so far: the timeline position of the next frame.
    private var position: Int64 = 0

    /// Where a phrase-bank request's text starts in `spk:text`: its markers point into the whole text.
    private var textBases: [Int64: Int] = [:]

    /// Set while rendered audio or queued requests remain, or a voice waits to be prepared, so
    /// `run()` knows to schedule more work.
    let hasMore = Atomic<Bool>(false)
    /// The voice chosen last and not yet prepared (VoicePreparing engines: a neural model loads
    /// when its voice is chosen, not when the first request comes).
    private var voiceToPrepare: String?

    /// The worker renders the next piece only while less than this much audio waits for
    /// `run()` (in the frame ring and here): 2 s, enough to ride out a slow piece (a neural
    /// sentence, a model loading) with room to spare, and a piece adds at most
    /// `ProgramRenderer.pieceSeconds`, so no more than about 10 s is ever held ahead.
    private let aheadTarget: Int
    /// The most audio held ahead of `run()` during the current request, in frames.
    private var maxAhead = 0
    /// A test hook: a file where each request's `maxAhead` is recorded (`SPK_WORKER_STATS`).
    private let statsPath = getenv("SPK_WORKER_STATS").map { String(cString: $0) }

    private enum Pending {
        /// Part of a rendered chunk, sharing its storage (no copy until the ring).
        case frames(request: Int64, samples: ArraySlice<Float>)
        case event(request: Int64, kind: EventHeader.Kind, flags: UInt32, atom: [UInt8])
        var request: Int64 {
            switch self {
            case .frames(let r, _), .event(let r, _, _, _): r
            }
        }
    }

    init(engine: SpeechEngine, urids: SpkURIDs, outputRate: Double, defaultVoice: String,
         commands: RecordRing, frames: FrameRing, events: RecordRing, replies: RecordRing, log: PluginLog) {
        self.engine = engine
        self.urids = urids
        self.outputRate = outputRate
        self.defaultVoice = defaultVoice
        self.commands = commands
        self.frames = frames
        self.events = events
        self.replies = replies
        self.log = log
        registry = RegistryView(log: log)
        aheadTarget = Int(outputRate * 2)
        choose(defaultVoice)
    }

    /// The engine's voices and the custom voices over them, as the registry has them now.
    private var catalog: VoiceCatalog {
        let contents = registry.current()
        return VoiceCatalog(engine: engine, custom: contents?.custom ?? [], installed: contents.map { Set($0.installed) })
    }

    /// One round of work: take every command, prepare a voice just chosen, then render and feed
    /// until the rings are full. `onOwnThread`: the host's worker thread, not inside `run()` or a
    /// host's inline `schedule_work` (there a voice is prepared by its first request instead).
    func work(onOwnThread: Bool = false) {
        drainCommands()
        while let voice = voiceToPrepare {
            voiceToPrepare = nil
            if onOwnThread { prepare(voice) }
            // Requests that came meanwhile wait in the queue; a voice chosen meanwhile is next.
            drainCommands()
        }
        pump()
        hasMore.store(renderer != nil || !queue.isEmpty || pendingHead < pending.count, ordering: .releasing)
    }

    /// Sets the default voice directly (state restore, when nothing else runs).
    func restoreDefaultVoice(_ identifier: String) -> Bool {
        guard catalog.contains(identifier) else { return false }
        defaultVoice = identifier
        choose(identifier)
        return true
    }

    /// Notes a chosen voice for the worker to prepare, when the engine prepares voices.
    private func choose(_ voice: String) {
        guard engine is VoicePreparing else { return }
        voiceToPrepare = voice
        hasMore.store(true, ordering: .releasing)
    }

    /// Gets a voice ready (a neural model loaded). A voice that cannot be is let be: its
    /// requests say why.
    private func prepare(_ voice: String) {
        guard let engine = engine as? VoicePreparing, let resolved = try? catalog.resolve(voice) else { return }
        try? engine.prepare(resolved.voice)
    }

    // MARK: commands

    private func drainCommands() {
        while let record = commands.peek() {
            let header = record.loadUnaligned(as: CommandHeader.self)
            let body = record.baseAddress! + CommandHeader.size
            let voice = String(decoding: UnsafeRawBufferPointer(start: body, count: Int(header.voiceLength)), as: UTF8.self)
            let text = String(decoding: UnsafeRawBufferPointer(start: body + Int(header.voiceLength), count: Int(header.textLength)), as: UTF8.self)
            commands.pop()
            switch CommandHeader.Kind(rawValue: header.kind) {
            case .speak?:
                if header.textBase > 0 { textBases[header.request] = Int(header.textBase) }
                let more = header.flags & CommandHeader.more != 0
                queue.append(SpeechRequest(id: header.request, ssml: more ? "" : text, voice: voice.isEmpty ? nil : voice,
                                           rate: Double(header.rate), pitch: Double(header.pitch),
                                           trimLeadingSilence: header.flags & CommandHeader.trimLeadingSilence != 0))
                if more {
                    assembling[header.request] = Array(text.utf8)
                    reply { $0.requestEvent(self.urids.ready, request: header.request, self.urids) }
                }
            case .append?:
                append(header.request, text, more: header.flags & CommandHeader.more != 0)
            case .cancel?:
                cancel(header.request)
            case .cancelAll?:
                for request in queue { cancel(request.id) }
                if current != 0 { cancel(current) }
            case .setVoice?:
                if catalog.contains(voice) {
                    defaultVoice = voice
                    choose(voice)
                    renderer?.defaultVoiceChanged(to: voice)
                } else {
                    reply { $0.error(request: 0, message: "unknown voice '\(voice)'", self.urids) }
                    log.requestError("unknown voice '\(voice)'")
                }
            case .getVoices?:
                let catalog = self.catalog
                let voices = catalog.listing(installed: catalog.installed)
                reply { $0.voiceList(voices, self.urids) }
            case .missingPhrase?:
                let note = header.request, lines = Int(header.textBase)
                let message = "MIDI note \(note) asks for line \(Int(note) - PhraseBank.firstNote + 1) of spk:text, "
                    + "which has \(lines) line\(lines == 1 ? "" : "s") (or that line is empty): nothing spoken"
                log.warning("spk: " + message)
                reply { $0.error(request: 0, message: message, self.urids) }
            case .getCatalog?:
                let voices = catalog.listing(installed: nil)
                reply { $0.voiceList(voices, property: self.urids.catalog, self.urids) }
            case nil:
                log.warning("spk: unknown worker command \(header.kind)")
            }
        }
    }

    /// The next bytes of a request being assembled; the request is spoken once they are all here.
    private func append(_ request: Int64, _ text: String, more: Bool) {
        guard var bytes = assembling.removeValue(forKey: request),
              let index = queue.firstIndex(where: { $0.id == request }) else { return }
        guard bytes.count + text.utf8.count <= RequestChunks.maximumBytes else {
            queue.remove(at: index)
            fail(request, "\(RequestTooLarge(bytes: bytes.count + text.utf8.count))")
            return
        }
        bytes += text.utf8
        if more {
            assembling[request] = bytes
            reply { $0.requestEvent(self.urids.ready, request: request, self.urids) }
        } else {
            queue[index].ssml = String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Drops a request: queued, it never starts; speaking, its unplayed audio goes. Either way an
    /// `end` record marks where it stops, which is what `run()` waits for to stop skipping.
    private func cancel(_ request: Int64) {
        assembling[request] = nil
        textBases[request] = nil
        if let index = queue.firstIndex(where: { $0.id == request }) {
            queue.remove(at: index)
            pending.append(.event(request: request, kind: .end, flags: EventHeader.End.cancelled.rawValue, atom: []))
            return
        }
        guard request == current else { return }
        renderer = nil
        current = 0
        // Nothing after the current request is rendered yet: drop its unplayed rest and end it.
        pending = pending[pendingHead...].filter { $0.request != request }
        pendingHead = 0
        pending.append(.event(request: request, kind: .end, flags: EventHeader.End.cancelled.rawValue, atom: []))
    }

    // MARK: rendering

    private func pump() {
        while true {
            drainCommands()  // a cancel that came while rendering takes effect before more is rendered
            guard flushPending() else { return }          // rings full: wait for run() to play
            if renderer == nil {
                // The next request, once all of its text is here.
                guard let next = queue.first, assembling[next.id] == nil else { return }
                start(queue.removeFirst())
                continue
            }
            if aheadFrames >= aheadTarget { return }
            renderNext()
            maxAhead = max(maxAhead, aheadFrames)
        }
    }

    /// Audio rendered and not yet played: in the frame ring, and waiting to go into it.
    private var aheadFrames: Int { frames.available + pendingCount }

    private var pendingCount: Int {
        var n = 0
        for item in pending[pendingHead...] { if case .frames(_, let s) = item { n += s.count } }
        return n
    }

    private func start(_ request: SpeechRequest) {
        do {
            renderer = try ProgramRenderer(request: request, catalog: catalog, outputRate: outputRate, defaultVoice: defaultVoice)
            current = request.id
            maxAhead = 0
            pending.append(.event(request: request.id, kind: .begin, flags: 0, atom: []))
        } catch {
            fail(request.id, "\(error)")
        }
    }

    /// Ends a request that never started with an error.
    private func fail(_ request: Int64, _ message: String) {
        log.requestError("request \(request): \(message)")
        pending.append(.event(request: request, kind: .atom, flags: 0,
                              atom: forge { $0.error(request: request, message: message, self.urids) }))
        pending.append(.event(request: request, kind: .end, flags: EventHeader.End.failed.rawValue, atom: []))
    }

    /// Renders the next item and moves its audio into the rings as it comes, so a live host
    /// hears the first words while the rest is still being synthesized.
    private func renderNext() {
        guard let renderer else { return }
        let request = renderer.request.id
        do {
            try renderer.next(isCancelled: { self.cancelWaiting(for: request) }) { chunk in
                var from = 0
                for marker in chunk.markers {
                    if marker.frame > from {
                        pending.append(.frames(request: request, samples: chunk.samples[from..<marker.frame]))
                        from = marker.frame
                    }
                    let event = SpkEvent.Marker(request: request, type: marker.type,
                                                textOffset: marker.source.offset + (textBases[request] ?? 0),
                                                textLength: marker.source.length, name: marker.name)
                    pending.append(.event(request: request, kind: .atom, flags: marker.type == .word ? EventHeader.wordBoundary : 0,
                                          atom: forge { $0.marker(event, self.urids) }))
                }
                if from < chunk.samples.count {
                    pending.append(.frames(request: request, samples: chunk.samples[from...]))
                }
                _ = flushPending()
            }
            if renderer.isFinished { finish(request, .finished) }
        } catch {
            log.requestError("request \(request): \(error)")
            pending.append(.event(request: request, kind: .atom, flags: 0,
                                  atom: forge { $0.error(request: request, message: "\(error)", self.urids) }))
            finish(request, .failed)
        }
    }

    /// Whether run() has sent a cancel of `request` (or of everything) not yet taken: rendering
    /// stops at the engine's next chunk instead of finishing a long run first.
    private func cancelWaiting(for request: Int64) -> Bool {
        commands.contains { record in
            let header = record.loadUnaligned(as: CommandHeader.self)
            return header.kind == CommandHeader.Kind.cancelAll.rawValue
                || (header.kind == CommandHeader.Kind.cancel.rawValue && header.request == request)
        }
    }

    private func finish(_ request: Int64, _ how: EventHeader.End) {
        textBases[request] = nil
        pending.append(.event(request: request, kind: .end, flags: how.rawValue, atom: []))
        renderer = nil
        current = 0
        if let statsPath, let file = fopen(statsPath, "a") {
            fputs("request \(request) maxAheadFrames \(maxAhead) sampleRate \(Int(outputRate))\n", file)
            fclose(file)
        }
    }

    /// Moves pending items into the rings, in order; false when a ring is full.
    private func flushPending() -> Bool {
        while pendingHead < pending.count {
            switch pending[pendingHead] {
            case .frames(let request, let samples):
                let wrote = samples.withUnsafeBufferPointer { frames.write($0) }
                position += Int64(wrote)
                if wrote < samples.count {
                    pending[pendingHead] = .frames(request: request, samples: samples.dropFirst(wrote))
                    return false
                }
            case .event(let request, let kind, let flags, let atom):
                // spk:Started belongs at the request's first frame: its begin waits until
                // something follows it (the first audio, or the end), or run() would report the
                // start and then play silence until the engine's first chunk is ready.
                if kind == .begin && pendingHead == pending.count - 1 { return true }
                let header = EventHeader(kind: kind.rawValue, flags: flags, request: request, position: position,
                                         atomLength: UInt32(atom.count))
                let ok = events.write(length: EventHeader.size + atom.count) { p in
                    p.storeBytes(of: header, as: EventHeader.self)
                    atom.withUnsafeBytes { (p + EventHeader.size).copyMemory(from: $0.baseAddress!, byteCount: atom.count) }
                }
                if !ok { return false }
            }
            pendingHead += 1
        }
        pending.removeAll(keepingCapacity: true)
        pendingHead = 0
        return true
    }

    // MARK: atoms

    private func forge(_ write: (inout AtomWriter) -> Void) -> [UInt8] {
        var capacity = 1024
        while true {
            var bytes = [UInt8](repeating: 0, count: capacity)
            let (used, overflowed) = bytes.withUnsafeMutableBytes { buffer -> (Int, Bool) in
                var writer = AtomWriter(buffer.baseAddress!, capacity: capacity)
                write(&writer)
                return (writer.offset, writer.overflowed)
            }
            if !overflowed { return Array(bytes[..<used]) }
            capacity *= 4
        }
    }

    /// A message for `run()` to send at once, not tied to the audio.
    private func reply(_ write: (inout AtomWriter) -> Void) {
        let atom = forge(write)
        if !replies.write(length: atom.count, { p in atom.withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: atom.count) } }) {
            log.warning("spk: reply of \(atom.count) bytes does not fit; dropped")
        }
    }
}
