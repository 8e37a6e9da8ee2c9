import LockFree
import SpkProtocol

// The audio thread. Everything here is bounded work on memory allocated at instantiation:
// no allocation, no lock, no system call. Requests go to the worker as records; audio and
// timed events come back through the rings and are played at the frame they belong to.

extension SynthInstance {
    func run(_ sampleCount: UInt32) {
        let n = Int(sampleCount)
        guard let out else { return }
        let rate = (ratePort?.pointee ?? 1).clamped(to: ControlRange.rate)
        let pitch = (pitchPort?.pointee ?? 1).clamped(to: ControlRange.pitch)
        let volume = (volumePort?.pointee ?? 1).clamped(to: ControlRange.volume)

        var writer = notifyWriter()
        let sequence = writer.beginSequence(urids)
        if worker.hasMore.load(ordering: .acquiring) && frames.available < frames.capacity / 2 { requestWork() }

        if announceParameters {
            announceParameters = false
            sendParameter(urids.text, text, at: 0, &writer)
            sendParameter(urids.voice, voice, at: 0, &writer)
        }
        var frame = 0
        if let control {
            SequenceRef(control).forEachEvent { time, atom in
                let at = min(max(Int(time), frame), n)
                play(out, from: frame, to: at, &writer)
                frame = at
                handle(atom, at: at, rate: rate, pitch: pitch, &writer)
            }
        }
        play(out, from: frame, to: n, &writer)
        applyVolume(out, count: n, target: volume)
        // Replies last, so a host that works synchronously gets them in the block that asked.
        sendReplies(at: max(n - 1, 0), &writer)
        writer.end(sequence)
    }

    private func notifyWriter() -> AtomWriter {
        guard let notify else { return AtomWriter(UnsafeMutableRawPointer(mutating: scratchAtom), capacity: 0) }
        // The host sets the output port's atom size to the buffer's capacity.
        return AtomWriter(notify, capacity: Int(notify.load(as: UInt32.self)))
    }

    // MARK: input

    private func handle(_ atom: AtomRef, at frame: Int, rate: Float, pitch: Float, _ w: inout AtomWriter) {
        if atom.type == urids.atomString {
            speak(text: atom.stringBytes, voice: nil, request: nil, rate: rate, pitch: pitch, at: frame, &w)
            return
        }
        if atom.type == urids.midiEvent {
            handleMIDI(atom, at: frame, rate: rate, pitch: pitch, &w)
            return
        }
        guard let object = atom.object(urids) else { return }
        switch object.otype {
        case urids.speak:
            guard let ssml = object[urids.ssml], ssml.type == urids.atomString else {
                emitError(request: object[urids.request]?.integer(urids) ?? 0, StaticMessage.speakWithoutSSML, at: frame, &w)
                return
            }
            let voice = object[urids.voice].flatMap { $0.type == urids.atomString ? $0.stringBytes : nil }
            speak(text: ssml.stringBytes, voice: voice, request: object[urids.request]?.integer(urids),
                  rate: rate, pitch: pitch, more: object[urids.more]?.integer(urids) ?? 0 != 0, at: frame, &w)
        case urids.append:
            // The next bytes of a request too large for one message; dropped if it was cancelled.
            guard let request = object[urids.request]?.integer(urids), active.contains(request),
                  let ssml = object[urids.ssml], ssml.type == urids.atomString else { return }
            var header = CommandHeader(kind: CommandHeader.Kind.append.rawValue, request: request)
            if object[urids.more]?.integer(urids) ?? 0 != 0 { header.flags = CommandHeader.more }
            if !sendCommand(header, voice: nil, text: ssml.stringBytes) { emitError(request: request, StaticMessage.requestTooLarge, at: frame, &w) }
        case urids.cancel:
            if let request = object[urids.request]?.integer(urids) {
                cancel(request, at: frame, &w)
            } else {
                cancelAll(at: frame, &w)
            }
        case urids.pause:
            pause(atWord: object[urids.boundary]?.urid(urids) == urids.word, at: frame, &w)
        case urids.continue:
            resume(at: frame, &w)
        case urids.patchSet:
            guard let property = object[urids.patchProperty]?.urid(urids), let value = object[urids.patchValue],
                  value.type == urids.atomString else { return }
            if property == urids.voice {
                voice.store(value.stringBytes)
                _ = sendCommand(CommandHeader(kind: CommandHeader.Kind.setVoice.rawValue), voice: value.stringBytes, text: nil)
            } else if property == urids.text, !text.store(value.stringBytes) {
                emitError(request: 0, StaticMessage.textTooLong, at: frame, &w)
                return
            } else if property != urids.text {
                return
            }
            // Echoed, so every UI of this instance (the host's own controls, the spk window)
            // shows what was set, whoever set it.
            w.frameTime(Int64(frame))
            w.raw(UnsafeRawBufferPointer(start: atom.pointer, count: atom.totalSize))
        case urids.patchGet:
            let property = object[urids.patchProperty]?.urid(urids)
            if property == nil {
                // A bare patch:Get asks for every patch:writable parameter (LV2 patch).
                sendParameter(urids.text, text, at: frame, &w)
                sendParameter(urids.voice, voice, at: frame, &w)
            } else if property == urids.voices {
                _ = sendCommand(CommandHeader(kind: CommandHeader.Kind.getVoices.rawValue), voice: nil, text: nil)
            } else if property == urids.catalog {
                _ = sendCommand(CommandHeader(kind: CommandHeader.Kind.getCatalog.rawValue), voice: nil, text: nil)
            }
        default:
            break
        }
    }

    /// MIDI for generic hosts: note-on speaks `spk:text`, its note-off cancels what it started,
    /// all-notes-off and all-sound-off cancel everything.
    private func handleMIDI(_ atom: AtomRef, at frame: Int, rate: Float, pitch: Float, _ w: inout AtomWriter) {
        guard atom.size >= 3 else { return }
        let bytes = atom.body.assumingMemoryBound(to: UInt8.self)
        let status = bytes[0] & 0xF0, note = Int(bytes[1] & 0x7F), velocity = bytes[2]
        switch status {
        case 0x90 where velocity > 0:
            let id = nextRequestID
            text.withOwnBytes { text in
                guard !text.isEmpty else { return }
                // Notes from 60 speak one line each (PhraseBank); lower notes the whole text.
                var range = 0..<text.count
                if note >= PhraseBank.firstNote {
                    guard let line = PhraseBank.line(note - PhraseBank.firstNote, in: text), !line.isEmpty else {
                        // The worker logs why: run() itself does not.
                        _ = sendCommand(CommandHeader(kind: CommandHeader.Kind.missingPhrase.rawValue, request: Int64(note),
                                                      textBase: UInt32(PhraseBank.lineCount(text))), voice: nil, text: nil)
                        return
                    }
                    range = line
                }
                speak(text: UnsafeBufferPointer(start: text.baseAddress! + range.lowerBound, count: range.count), voice: nil, request: nil, rate: rate, pitch: pitch,
                      textBase: range.lowerBound, at: frame, &w)
                noteRequests[note] = id
            }
        case 0x80, 0x90:
            if noteRequests[note] != 0 {
                cancel(noteRequests[note], at: frame, &w)
                noteRequests[note] = 0
            }
        case 0xB0 where note == 120 || note == 123:
            cancelAll(at: frame, &w)
        default:
            break
        }
    }

    /// `spk:Pause`: at once, or when playback reaches the next word.
    private func pause(atWord: Bool, at frame: Int, _ w: inout AtomWriter) {
        guard current != 0 || active.count > 0, !paused else { return }
        if atWord {
            pauseAtWord = true
        } else {
            paused = true
            emit(urids.paused, request: current, at: frame, &w)
        }
    }

    private func resume(at frame: Int, _ w: inout AtomWriter) {
        pauseAtWord = false
        guard paused else { return }
        paused = false
        emit(urids.continued, request: current, at: frame, &w)
    }

    private func speak(text: UnsafeBufferPointer<UInt8>, voice: UnsafeBufferPointer<UInt8>?, request: Int64?,
                       rate: Float, pitch: Float, more: Bool = false, textBase: Int = 0, at frame: Int, _ w: inout AtomWriter) {
        let id = request ?? nextRequestID
        if request == nil { nextRequestID += 1 }
        guard !active.isFull else {
            emitError(request: id, StaticMessage.queueFull, at: frame, &w)
            return
        }
        var header = CommandHeader(kind: CommandHeader.Kind.speak.rawValue, request: id, rate: rate, pitch: pitch,
                                   textBase: UInt32(textBase))
        if (trimPort?.pointee ?? 1) >= 0.5 { header.flags |= CommandHeader.trimLeadingSilence }
        if more { header.flags |= CommandHeader.more }
        guard sendCommand(header, voice: voice, text: text) else {
            emitError(request: id, StaticMessage.requestTooLarge, at: frame, &w)
            return
        }
        active.insert(id)
    }

    private func cancel(_ request: Int64, at frame: Int, _ w: inout AtomWriter) {
        guard active.remove(request) else { return }
        drop(request, at: frame, &w)
        _ = sendCommand(CommandHeader(kind: CommandHeader.Kind.cancel.rawValue, request: request), voice: nil, text: nil)
    }

    private func cancelAll(at frame: Int, _ w: inout AtomWriter) {
        guard active.count > 0 else { return }
        for i in 0..<active.count { drop(active[i], at: frame, &w) }
        active.removeAll()
        _ = sendCommand(CommandHeader(kind: CommandHeader.Kind.cancelAll.rawValue), voice: nil, text: nil)
    }

    /// Silences a request from this frame on: playing, its rest is skipped; queued, it is
    /// skipped when it comes.
    private func drop(_ request: Int64, at frame: Int, _ w: inout AtomWriter) {
        emit(urids.cancelled, request: request, at: frame, &w)
        if request == current {
            skipping = true
            paused = false      // the paused request is gone; what follows plays
        } else {
            dropped.insert(request)
        }
        if active.count == 0 { pauseAtWord = false }
    }

    /// Hands a command to the worker and asks for work; false when the command ring is full.
    private func sendCommand(_ header: CommandHeader, voice: UnsafeBufferPointer<UInt8>?, text: UnsafeBufferPointer<UInt8>?) -> Bool {
        var header = header
        header.voiceLength = UInt32(voice?.count ?? 0)
        header.textLength = UInt32(text?.count ?? 0)
        let voiceCount = voice?.count ?? 0, textCount = text?.count ?? 0
        let ok = commands.write(length: CommandHeader.size + voiceCount + textCount) { p in
            // Plain copies: a helper closure capturing a cursor would box it on the heap.
            p.storeBytes(of: header, as: CommandHeader.self)
            if let base = voice?.baseAddress, voiceCount > 0 { (p + CommandHeader.size).copyMemory(from: base, byteCount: voiceCount) }
            if let base = text?.baseAddress, textCount > 0 { (p + CommandHeader.size + voiceCount).copyMemory(from: base, byteCount: textCount) }
        }
        if ok { requestWork() }
        return ok
    }

    // MARK: output

    /// Plays the timeline into `out[from..<to]`: frames from the ring, events at their frames.
    private func play(_ out: UnsafeMutablePointer<Float>, from: Int, to end: Int, _ w: inout AtomWriter) {
        var frame = from
        while true {
            emitDueEvents(at: frame, &w)
            guard frame < end else { return }
            let available = frames.available
            let nextEvent = nextEventPosition()
            let untilEvent = nextEvent.map { Int($0 - playhead) } ?? Int.max
            if paused && !skipping {
                (out + frame).update(repeating: 0, count: end - frame)
                return
            }
            if skipping {
                let drop = min(available, untilEvent)
                if drop > 0 {
                    frames.discard(drop)
                    playhead += Int64(drop)
                    continue
                }
            } else {
                let take = min(available, untilEvent, end - frame)
                if take > 0 {
                    frames.read(into: out + frame, count: take)
                    frame += take
                    playhead += Int64(take)
                    continue
                }
            }
            // Nothing to play yet (idle, or the worker is behind): silence.
            (out + frame).update(repeating: 0, count: end - frame)
            frame = end
        }
    }

    private func nextEventPosition() -> Int64? {
        guard let record = events.peek() else { return nil }
        return record.loadUnaligned(as: EventHeader.self).position
    }

    private func emitDueEvents(at frame: Int, _ w: inout AtomWriter) {
        while let record = events.peek() {
            let header = record.loadUnaligned(as: EventHeader.self)
            guard header.position <= playhead, !(paused && !skipping) else { return }
            let request = header.request
            // A pause at the next word takes effect before that word's marker, or where the
            // speech ends.
            if pauseAtWord && !skipping && request == current && current != 0
                && (header.flags & EventHeader.wordBoundary != 0 || header.kind == EventHeader.Kind.end.rawValue) {
                pauseAtWord = false
                paused = true
                emit(urids.paused, request: current, at: frame, &w)
                return
            }
            switch EventHeader.Kind(rawValue: header.kind) {
            case .begin?:
                current = request
                if dropped.remove(request) { skipping = true } else { emit(urids.started, request: request, at: frame, &w) }
            case .atom?:
                if !(skipping && request == current) && !dropped.contains(request) {
                    w.frameTime(Int64(frame))
                    w.raw(UnsafeRawBufferPointer(start: record.baseAddress! + EventHeader.size, count: Int(header.atomLength)))
                }
            case .end?:
                if request == current {
                    if skipping {
                        skipping = false
                    } else if header.flags == EventHeader.End.finished.rawValue {
                        emit(urids.finished, request: request, at: frame, &w)
                    }
                    current = 0
                } else {
                    dropped.remove(request)
                }
                active.remove(request)
            case nil:
                break
            }
            events.pop()
        }
    }

    private func sendReplies(at frame: Int, _ w: inout AtomWriter) {
        while let record = replies.peek() {
            w.frameTime(Int64(frame))
            w.raw(record)
            replies.pop()
        }
    }

    private func emit(_ otype: UInt32, request: Int64, at frame: Int, _ w: inout AtomWriter) {
        w.frameTime(Int64(frame))
        w.requestEvent(otype, request: request, urids)
    }

    /// `patch:Set` of a string parameter with its current value (the answer to a bare patch:Get).
    private func sendParameter(_ property: UInt32, _ value: SeqlockBytes, at frame: Int, _ w: inout AtomWriter) {
        value.withOwnBytes { bytes in
            w.frameTime(Int64(frame))
            let object = w.beginObject(urids, otype: urids.patchSet)
            w.key(urids.patchProperty); w.urid(property, urids)
            w.key(urids.patchValue); w.string(UnsafeRawBufferPointer(bytes), urids)
            w.end(object)
        }
    }

    private func emitError(request: Int64, _ message: StaticMessage, at frame: Int, _ w: inout AtomWriter) {
        w.frameTime(Int64(frame))
        let object = w.beginObject(urids, otype: urids.error)
        w.key(urids.request); w.long(request, urids)
        w.key(urids.message); w.string(message.bytes, urids)
        w.end(object)
    }

    /// Volume follows its port with a ramp over the block, so changes do not click.
    private func applyVolume(_ out: UnsafeMutablePointer<Float>, count: Int, target: Float) {
        let start = lastVolume
        lastVolume = target
        if start == 1 && target == 1 { return }
        let step = count > 0 ? (target - start) / Float(count) : 0
        for i in 0..<count { out[i] *= start + step * Float(i + 1) }
    }
}

/// Error texts run() can send without building a String.
enum StaticMessage {
    case queueFull, requestTooLarge, speakWithoutSSML, textTooLong

    var bytes: UnsafeRawBufferPointer {
        switch self {
        case .queueFull: Self.queueFullText
        case .requestTooLarge: Self.requestTooLargeText
        case .speakWithoutSSML: Self.speakWithoutSSMLText
        case .textTooLong: Self.textTooLongText
        }
    }

    private static let queueFullText = staticBytes("too many requests queued; cancel some or wait")
    private static let requestTooLargeText = staticBytes("request too large for the plugin's queue: send it in spk:Append chunks of at most 32 KiB")
    private static let speakWithoutSSMLText = staticBytes("spk:Speak needs an spk:ssml string")
    private static let textTooLongText = staticBytes("spk:text is longer than the plugin keeps (16 KiB)")

    /// Globals initialise lazily, allocating on first use: do that at instantiation, not in run().
    static func prepare() {
        _ = queueFullText; _ = requestTooLargeText; _ = speakWithoutSSMLText; _ = textTooLongText; _ = scratchAtom
    }

    private static func staticBytes(_ s: String) -> UnsafeRawBufferPointer {
        let bytes = Array(s.utf8)
        let p = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        p.copyBytes(from: bytes)
        return UnsafeRawBufferPointer(p)
    }
}

let scratchAtom = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
