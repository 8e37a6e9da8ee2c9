import CLV2
import SpkProtocol

// What the plugin says, as the host forwards it from the notify port (ui:portNotification):
// parameter values (its answer to patch:Get, and echoes of every patch:Set), the voice list,
// speech events, word markers and errors.

extension SpkWindow {
    func portEvent(_ port: UInt32, size: UInt32, format: UInt32, _ buffer: UnsafeRawPointer) {
        guard format == link.eventTransfer, size >= 8 else { return }
        let atom = AtomRef(buffer)
        guard atom.totalSize <= Int(size) else { return }
        if let object = atom.object(u), object.otype == u.patchSet,
           let property = object[u.patchProperty]?.urid(u), let value = object[u.patchValue], value.type == u.atomString {
            if property == u.text { received(text: value.string) }
            if property == u.voice { received(voice: value.string) }
            if property != u.voices && property != u.catalog { return }
        }
        guard let event = SpkEvent.decode(atom, u) else { return }
        switch event {
        case .voices(let list):
            voices = list
            scrollVoiceIntoView()
            trace?.line("voices \(list.count)")
        case .started(let request):
            currentRequest = request
            speaking = true
            paused = false
            showLit(nil)
            show("Speaking…", error: false)
        case .finished(let request), .cancelled(let request):
            guard request == currentRequest else { return }
            speaking = false
            paused = false
            showLit(nil)
            if case .finished = event { show("Done.", error: false) } else { show("Stopped.", error: false) }
            if case .finished = event { trace?.line("finished") } else { trace?.line("cancelled") }
        case .paused:
            paused = true
            show("Paused: Continue goes on from here.", error: false)
            trace?.line("paused")
        case .continued:
            paused = false
            show("Speaking…", error: false)
            trace?.line("continued")
        case .marker(let marker):
            guard marker.type == .word else { return }
            // A window opened while speech plays learns of it from its next word.
            if !speaking {
                speaking = true
                currentRequest = marker.request
                show("Speaking…", error: false)
            }
            showLit(marker.textOffset..<(marker.textOffset + marker.textLength))
        case .error(_, let message):
            show(message, error: true)
            trace?.line("error \(message)")
        case .catalog, .ready:
            break  // the window's text fits one message: it never sends chunks
        }
        needsRedraw = true
    }

    /// spk:text from the plugin: the state it was loaded with, a preset, another UI, or the echo
    /// of what this window sent (not news). While the person is typing their text wins: it is
    /// sent within a moment.
    private func received(text value: String) {
        if let index = unechoed.firstIndex(of: value) {
            unechoed.removeFirst(index + 1)
            return
        }
        guard !textDirty, value != text.string else { return }
        text.set(value)
        showLit(nil)
        trace?.line("text \(value)")
    }

    private func received(voice identifier: String) {
        guard identifier != selectedVoice else { return }
        selectedVoice = identifier
        scrollVoiceIntoView()
        trace?.line("voice-set \(identifier)")
        needsRedraw = true
    }

    /// Lights a word (a byte range of the text), or none.
    func showLit(_ range: Range<Int>?) {
        guard range != lit else { return }
        lit = range
        updateTextLayout()
        if let range, let clamped = text.clamped(range.lowerBound, range.count) {
            let word = String(decoding: text.bytes[clamped], as: UTF8.self)
            trace?.line("lit \(range.lowerBound) \(range.count) \(word)")
        } else {
            trace?.line("lit none")
        }
    }
}
