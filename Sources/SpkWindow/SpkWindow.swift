import CLV2
import CXFocus
import CXWindow
import Glibc
import SpkProtocol

/// The plugin window: an X11 child window of the host's `ui:parent`, on its own Xlib
/// connection, drawn with cairo and pango. Everything happens in `idle()`, which the host calls
/// from its GUI loop: take the X events that are waiting (never wait for one), send the text to
/// the plugin once typing pauses, redraw if something changed.
final class SpkWindow {
    let display: OpaquePointer
    let xWindow: Window
    let link: PluginLink
    var u: SpkURIDs { link.urids }
    let trace = TestTrace()
    private let inputMethod: XIM?
    let inputContext: XIC?
    var surface: OpaquePointer?
    /// What draw() draws into (WindowDrawing).
    var backBuffer: OpaquePointer?
    var width = WindowLayout.defaultWidth, height = WindowLayout.defaultHeight
    var layout: WindowLayout { WindowLayout(width: width, height: height) }
    let fonts: WindowFonts

    // What the window shows.
    var text = TextModel()
    var textScroll = 0.0
    var focus = Control.text
    var voices: [Voice] = []
    var selectedVoice = ""
    var voiceScroll = 0
    var speaking = false, paused = false
    /// The request whose word is lit (the latest to start).
    var currentRequest: Int64 = 0
    var lit: Range<Int>?
    var status = "Type what to say, then Speak (Ctrl+Enter)."
    var statusIsError = false
    var needsRedraw = true
    private var mapped = false
    private var closed = false

    // Keeping spk:text in the plugin: sent once typing pauses, and before speaking.
    var textDirty = false
    var lastEdit = 0.0
    /// Texts sent and not yet echoed back: their echoes are not news.
    var unechoed: [String] = []
    private var nextRequest: Int64 = (Int64(getpid()) << 32) | 1

    init?(parent: UInt, link: PluginLink, resize: UnsafePointer<LV2UI_Resize>?, title: String) {
        guard let display = XOpenDisplay(nil) else {
            fputs("spk window: cannot open the X display\n", stderr)
            return nil
        }
        self.display = display
        self.link = link
        let screen = XDefaultScreen(display)
        xWindow = XCreateSimpleWindow(display, Window(parent), 0, 0, UInt32(width), UInt32(height), 0,
                                      XBlackPixel(display, screen), XWhitePixel(display, screen))
        XStoreName(display, xWindow, "spk-window")
        if let hints = XAllocSizeHints() {
            hints.pointee.flags = PMinSize | PBaseSize
            hints.pointee.min_width = Int32(WindowLayout.minimumWidth); hints.pointee.min_height = Int32(WindowLayout.minimumHeight)
            hints.pointee.base_width = Int32(width); hints.pointee.base_height = Int32(height)
            XSetWMNormalHints(display, xWindow, hints)
            XFree(hints)
        }
        XSelectInput(display, xWindow, spk_window_event_mask)
        // UTF-8 typing through the X input method when there is one; Latin-1 keysyms otherwise.
        let window = xWindow
        inputMethod = XOpenIM(display, nil, nil, nil)
        inputContext = inputMethod.flatMap { spk_create_ic($0, window) }
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, xWindow, &attributes)
        surface = cairo_xlib_surface_create(display, xWindow, attributes.visual, Int32(width), Int32(height))
        fonts = WindowFonts()
        XMapRaised(display, xWindow)
        XFlush(display)
        if let resize, let ui_resize = resize.pointee.ui_resize {
            _ = ui_resize(resize.pointee.handle, Int32(WindowLayout.defaultWidth), Int32(WindowLayout.defaultHeight))
        }
        trace?.line("open \(title)")
        link.askForVoices()
        link.askForParameters()
        updateTextLayout()
    }

    /// Cleanup: the text reaches the plugin before the window goes, so closing loses nothing.
    func close() {
        guard !closed else { return }
        closed = true
        if textDirty { sendText() }
        trace?.line("close")
        fonts.release()
        if let surface { cairo_surface_destroy(surface) }
        if let backBuffer { cairo_surface_destroy(backBuffer) }
        surface = nil
        backBuffer = nil
        if let inputContext { XDestroyIC(inputContext) }
        if let inputMethod { XCloseIM(inputMethod) }
        XDestroyWindow(display, xWindow)
        XCloseDisplay(display)
    }

    // MARK: the host's idle call

    /// 0 while the window lives (ui:idleInterface).
    func idle() -> Int32 {
        guard !closed else { return 1 }
        var event = XEvent()
        while XPending(display) > 0 {
            XNextEvent(display, &event)
            if XFilterEvent(&event, 0) != 0 { continue }
            handle(&event)
        }
        if textDirty && now() - lastEdit > 0.3 { sendText() }
        if needsRedraw { draw() }
        return 0
    }

    private func handle(_ event: inout XEvent) {
        switch event.type {
        case Expose:
            if event.xexpose.count == 0 { needsRedraw = true }
        case ConfigureNotify:
            let w = Int(event.xconfigure.width), h = Int(event.xconfigure.height)
            if w != width || h != height {
                width = w; height = h
                if let surface { cairo_xlib_surface_set_size(surface, Int32(w), Int32(h)) }
                updateTextLayout()
            }
        case MapNotify:
            mapped = true
            takeFocus()
            needsRedraw = true
        case UnmapNotify:
            mapped = false
        case FocusIn:
            if let inputContext { XSetICFocus(inputContext) }
            needsRedraw = true
        case FocusOut:
            if let inputContext { XUnsetICFocus(inputContext) }
            if textDirty { sendText() }
            needsRedraw = true
        case KeyPress:
            keyPress(&event.xkey)
        case SelectionNotify:
            selectionArrived(event.xselection)
        case ButtonPress:
            takeFocus()
            buttonPress(event.xbutton)
        default:
            break
        }
    }

    /// Keyboard focus to this window: at map (the text field is ready to type into) and on
    /// every click (jalv.qt5 passes keys to an embedded window only once it is clicked).
    func takeFocus() {
        guard mapped else { return }
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, xWindow, &attributes)
        guard attributes.map_state == IsViewable else { return }
        if spk_set_focus(display, xWindow) != 0 { trace?.line("focus \(focus.name)") }
    }

    // MARK: what the buttons do

    func speak() {
        if textDirty { sendText() }
        guard !text.bytes.isEmpty else {
            show("Nothing to speak: type some text first.", error: false)
            return
        }
        let request = nextRequest
        nextRequest += 1
        link.speak(text.string, request: request)
        trace?.line("speak \(request)")
        show("Speaking…", error: false)
    }

    func pauseOrContinue() {
        if paused { link.resume() } else if speaking { link.pause() }
    }

    func stop() {
        link.stop()
        trace?.line("stop")
    }

    func selectVoice(at index: Int) {
        guard voices.indices.contains(index) else { return }
        selectedVoice = voices[index].identifier
        scrollVoiceIntoView()
        link.setVoice(selectedVoice)
        trace?.line("voice \(selectedVoice)")
        needsRedraw = true
    }

    func scrollVoiceIntoView() {
        guard let index = voices.firstIndex(where: { $0.identifier == selectedVoice }) else { return }
        if index < voiceScroll { voiceScroll = index }
        if index >= voiceScroll + WindowLayout.voiceRows { voiceScroll = index - WindowLayout.voiceRows + 1 }
    }

    func sendText() {
        let value = text.string
        unechoed.append(value)
        if unechoed.count > 32 { unechoed.removeFirst() }
        link.setText(value)
        textDirty = false
        trace?.line("text-sent \(value)")
    }

    func textEdited() {
        textDirty = true
        lastEdit = now()
        lit = nil
        updateTextLayout()
    }

    func show(_ message: String, error: Bool) {
        status = message
        statusIsError = error
        needsRedraw = true
    }

    func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
