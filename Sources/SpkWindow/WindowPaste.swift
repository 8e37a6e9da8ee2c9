import CXWindow

// Paste: Ctrl+V (or Shift+Insert) inserts the clipboard, a middle click the primary selection,
// as in other X programs. X hands a selection over asynchronously: the window asks for it as
// UTF-8 into a property of its own, and inserts it when the owner's SelectionNotify arrives
// (in a later idle call: nothing waits).

extension SpkWindow {
    func requestPaste(from selection: String) {
        let owner = XInternAtom(display, selection, 0)
        XConvertSelection(display, owner, XInternAtom(display, "UTF8_STRING", 0), XInternAtom(display, "SPK_PASTE", 0),
                          xWindow, UInt(CurrentTime))
        XFlush(display)
    }

    func selectionArrived(_ event: XSelectionEvent) {
        guard event.property != 0 else { return }  // the owner had nothing, or refused UTF-8
        var type: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let limit = Int(TextModel.capacity / 4)
        guard XGetWindowProperty(display, xWindow, event.property, 0, limit, 1, 0, &type, &format, &count, &after, &data) == Success,
              let data else { return }
        defer { XFree(data) }
        guard format == 8, count > 0 else { return }
        let pasted = String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self)
        // Line breaks as \n (a CR of CRLF dropped), no other control characters.
        let clean = String(String.UnicodeScalarView(pasted.unicodeScalars.filter { $0 == "\n" || $0 == "\t" || $0.value >= 0x20 && $0.value != 0x7F }))
        if text.insert(clean) {
            textEdited()
            trace?.line("paste \(clean)")
        } else {
            show("The paste does not fit: the text is at most 16 KiB.", error: true)
        }
    }
}
