import CXWindow
import Glibc

// Keys and clicks. Keyboard first: Tab and Shift+Tab cycle the controls, Ctrl+Enter speaks from
// anywhere, Escape stops; in the text field keys edit, on a button Space or Enter presses it,
// in the voice list the arrows choose.

extension SpkWindow {
    func keyPress(_ event: inout XKeyEvent) {
        var buffer = [CChar](repeating: 0, count: 64)
        var keysym: KeySym = 0
        var typed = ""
        if let inputContext {
            var status: Int32 = 0
            let n = Xutf8LookupString(inputContext, &event, &buffer, 63, &keysym, &status)
            if n > 0 { typed = String(decoding: buffer[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        } else {
            let n = XLookupString(&event, &buffer, 63, &keysym, nil)
            // Without an input method, XLookupString gives Latin-1.
            if n > 0 { typed = String(String.UnicodeScalarView(buffer[0..<Int(n)].map { Unicode.Scalar(UInt8(bitPattern: $0)) })) }
        }
        let control = event.state & UInt32(ControlMask) != 0
        let shift = event.state & UInt32(ShiftMask) != 0
        let key = Int32(truncatingIfNeeded: keysym)
        switch key {
        case XK_Tab, XK_ISO_Left_Tab:
            moveFocus(by: shift || key == XK_ISO_Left_Tab ? -1 : 1)
            return
        case XK_Escape:
            stop()
            return
        case XK_Return where control, XK_KP_Enter where control:
            speak()
            return
        default:
            break
        }
        switch focus {
        case .text: textKey(key, typed: typed, control: control, shift: shift)
        case .speak, .pause, .stop:
            if key == XK_Return || key == XK_KP_Enter || key == XK_space { press(focus) }
        case .voices: voiceKey(key)
        }
    }

    func moveFocus(by step: Int) {
        let count = Control.allCases.count
        focus = Control(rawValue: (focus.rawValue + step + count) % count)!
        trace?.line("focus \(focus.name)")
        needsRedraw = true
    }

    func press(_ control: Control) {
        switch control {
        case .speak: speak()
        case .pause: pauseOrContinue()
        case .stop: stop()
        case .text, .voices: break
        }
    }

    private func textKey(_ key: Int32, typed: String, control: Bool, shift: Bool) {
        var edited = false
        switch key {
        case XK_BackSpace: edited = text.backspace()
        case XK_Delete, XK_KP_Delete: edited = text.deleteForward()
        case XK_Left, XK_KP_Left: text.moveLeft()
        case XK_Right, XK_KP_Right: text.moveRight()
        case XK_Home, XK_KP_Home: if control { text.moveToStart() } else { text.moveToLineStart() }
        case XK_End, XK_KP_End: if control { text.moveToEnd() } else { text.moveToLineEnd() }
        case XK_Up, XK_KP_Up: moveCursorLine(-1)
        case XK_Down, XK_KP_Down: moveCursorLine(1)
        case XK_Return, XK_KP_Enter: edited = text.insert("\n")
        case XK_v where control, XK_V where control, XK_Insert where shift: requestPaste(from: "CLIPBOARD")
        default:
            // Printable input only: control characters (Ctrl+letters) are not text.
            if !control, !typed.isEmpty, typed.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
                edited = text.insert(typed)
                if !edited { show("The text is at its limit (16 KiB).", error: true) }
            }
        }
        if edited { textEdited() } else { updateTextLayout() }
    }

    /// Up and Down: the same x on the line above or below.
    private func moveCursorLine(_ direction: Double) {
        let c = cursorRect()
        let y = c.y + c.height / 2 + direction * c.height
        if y < 0 { text.moveToLineStart(); return }
        text.place(textIndex(x: c.x, y: y))
    }

    private func voiceKey(_ key: Int32) {
        let index = voices.firstIndex { $0.identifier == selectedVoice } ?? -1
        switch key {
        case XK_Up, XK_KP_Up: selectVoice(at: max(index - 1, 0))
        case XK_Down, XK_KP_Down: selectVoice(at: min(index + 1, voices.count - 1))
        case XK_Page_Up, XK_KP_Page_Up: selectVoice(at: max(index - WindowLayout.voiceRows, 0))
        case XK_Page_Down, XK_KP_Page_Down: selectVoice(at: min(index + WindowLayout.voiceRows, voices.count - 1))
        case XK_Home, XK_KP_Home: selectVoice(at: 0)
        case XK_End, XK_KP_End: selectVoice(at: voices.count - 1)
        default: break
        }
    }

    func buttonPress(_ event: XButtonEvent) {
        let x = Double(event.x), y = Double(event.y)
        let l = layout
        // The wheel scrolls the voice list or the text.
        if event.button == 4 || event.button == 5 {
            let step = event.button == 4 ? -1 : 1
            if l.voices.contains(x, y) {
                voiceScroll = max(0, min(voiceScroll + step, max(voices.count - WindowLayout.voiceRows, 0)))
            } else if l.text.contains(x, y) {
                textScroll = max(0, textScroll + Double(step) * 40)
            }
            needsRedraw = true
            return
        }
        // A middle click in the text pastes the primary selection there.
        if event.button == 2, l.text.contains(x, y) {
            focus = .text
            text.place(textIndex(x: x - l.text.x - 6, y: y - l.text.y - 6 + textScroll))
            updateTextLayout()
            requestPaste(from: "PRIMARY")
            return
        }
        guard event.button == 1, let control = Control.allCases.first(where: { l.rect($0).contains(x, y) }) else { return }
        if focus != control {
            focus = control
            trace?.line("focus \(focus.name)")
        }
        switch control {
        case .text:
            text.place(textIndex(x: x - l.text.x - 6, y: y - l.text.y - 6 + textScroll))
            updateTextLayout()
        case .voices:
            let row = Int((y - l.voices.y - 2) / WindowLayout.voiceRowHeight)
            selectVoice(at: voiceScroll + row)
        case .speak, .pause, .stop:
            press(control)
        }
        needsRedraw = true
    }
}
