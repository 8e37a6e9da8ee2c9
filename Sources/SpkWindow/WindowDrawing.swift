import CXWindow
import Glibc
import SpkProtocol

/// Pango layouts for the field's text and for labels, on a context of the process's default
/// cairo font map (shared, as every pango user in a process shares it; nothing of the host's).
final class WindowFonts {
    let context: OpaquePointer
    let text: OpaquePointer
    let label: OpaquePointer
    private let textFont: OpaquePointer
    private let labelFont: OpaquePointer

    init() {
        context = pango_font_map_create_context(pango_cairo_font_map_get_default())
        text = pango_layout_new(context)
        label = pango_layout_new(context)
        textFont = pango_font_description_from_string("Sans 12")
        labelFont = pango_font_description_from_string("Sans 10")
        pango_layout_set_font_description(text, textFont)
        pango_layout_set_font_description(label, labelFont)
        pango_layout_set_wrap(text, PANGO_WRAP_WORD_CHAR)
    }

    func release() {
        g_object_unref(UnsafeMutableRawPointer(text))
        g_object_unref(UnsafeMutableRawPointer(label))
        g_object_unref(UnsafeMutableRawPointer(context))
        pango_font_description_free(textFont)
        pango_font_description_free(labelFont)
    }
}

private let pangoScale = 1024.0

extension SpkWindow {
    var textLayout: OpaquePointer { fonts.text }

    /// Lays out the field's text (after an edit, a resize or a new lit word) and keeps the
    /// cursor in view.
    func updateTextLayout() {
        let field = layout.text
        pango_layout_set_width(textLayout, Int32((field.width - 12) * pangoScale))
        var bytes = text.bytes
        bytes.append(0)
        bytes.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { pango_layout_set_text(textLayout, $0.baseAddress, Int32($0.count - 1)) }
        }
        let attributes = pango_attr_list_new()
        if let lit, let range = text.clamped(lit.lowerBound, lit.count) {
            if let background = pango_attr_background_new(0xFC00, 0xE900, 0x4F00) {
                background.pointee.start_index = UInt32(range.lowerBound)
                background.pointee.end_index = UInt32(range.upperBound)
                pango_attr_list_insert(attributes, background)
            }
            if let weight = pango_attr_weight_new(PANGO_WEIGHT_BOLD) {
                weight.pointee.start_index = UInt32(range.lowerBound)
                weight.pointee.end_index = UInt32(range.upperBound)
                pango_attr_list_insert(attributes, weight)
            }
        }
        pango_layout_set_attributes(textLayout, attributes)
        pango_attr_list_unref(attributes)
        let cursor = cursorRect()
        let visible = field.height - 12
        if cursor.y < textScroll { textScroll = cursor.y }
        if cursor.y + cursor.height > textScroll + visible { textScroll = cursor.y + cursor.height - visible }
        needsRedraw = true
    }

    /// The cursor's rectangle in layout pixels.
    func cursorRect() -> Rect {
        var strong = PangoRectangle()
        pango_layout_get_cursor_pos(textLayout, Int32(text.cursor), &strong, nil)
        return Rect(x: Double(strong.x) / pangoScale, y: Double(strong.y) / pangoScale,
                    width: 1, height: max(Double(strong.height) / pangoScale, 14))
    }

    /// The byte offset nearest a point in layout pixels.
    func textIndex(x: Double, y: Double) -> Int {
        var index: Int32 = 0, trailing: Int32 = 0
        _ = pango_layout_xy_to_index(textLayout, Int32(x * pangoScale), Int32(y * pangoScale), &index, &trailing)
        var offset = Int(index)
        for _ in 0..<max(Int(trailing), 0) { offset = text.next(offset) }
        return offset
    }

    /// Draws the whole window into a client-side image, then puts it on the X window in one
    /// paint. Drawn straight onto the xlib surface, cairo caches the glyphs it renders per X
    /// connection and keeps some of that after the connection closes: about 4 KiB per
    /// open/close of the window (WindowCycleTests).
    func draw() {
        needsRedraw = false
        guard let surface else { return }
        if backBuffer == nil || cairo_image_surface_get_width(backBuffer) != Int32(width)
            || cairo_image_surface_get_height(backBuffer) != Int32(height) {
            if let backBuffer { cairo_surface_destroy(backBuffer) }
            backBuffer = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        }
        guard let cr = cairo_create(backBuffer) else { return }
        defer {
            cairo_destroy(cr)
            if let out = cairo_create(surface) {
                cairo_set_source_surface(out, backBuffer, 0, 0)
                cairo_paint(out)
                cairo_destroy(out)
            }
            cairo_surface_flush(surface)
            XFlush(display)
        }
        let l = layout
        setColor(cr, 0.93, 0.93, 0.92)
        cairo_paint(cr)

        // The text field.
        fillBox(cr, l.text, focused: focus == .text)
        cairo_save(cr)
        cairo_rectangle(cr, l.text.x + 2, l.text.y + 2, l.text.width - 4, l.text.height - 4)
        cairo_clip(cr)
        setColor(cr, 0.1, 0.1, 0.1)
        cairo_move_to(cr, l.text.x + 6, l.text.y + 6 - textScroll)
        pango_cairo_update_layout(cr, textLayout)
        pango_cairo_show_layout(cr, textLayout)
        if focus == .text {
            let c = cursorRect()
            setColor(cr, 0.1, 0.1, 0.1)
            cairo_rectangle(cr, l.text.x + 6 + c.x, l.text.y + 6 - textScroll + c.y, 1.5, c.height)
            cairo_fill(cr)
        }
        cairo_restore(cr)

        // The buttons.
        button(cr, l.speak, "Speak", focused: focus == .speak)
        button(cr, l.pause, paused ? "Continue" : "Pause", focused: focus == .pause, enabled: speaking || paused)
        button(cr, l.stop, "Stop", focused: focus == .stop, enabled: speaking || paused)

        // The voice list.
        setColor(cr, 0.2, 0.2, 0.2)
        label(cr, "Voice (\(voices.count)):", x: l.voices.x, y: l.voiceLabelY)
        fillBox(cr, l.voices, focused: focus == .voices)
        cairo_save(cr)
        cairo_rectangle(cr, l.voices.x + 2, l.voices.y + 2, l.voices.width - 4, l.voices.height - 4)
        cairo_clip(cr)
        for row in 0..<WindowLayout.voiceRows {
            let index = voiceScroll + row
            guard voices.indices.contains(index) else { break }
            let voice = voices[index]
            let y = l.voices.y + 2 + Double(row) * WindowLayout.voiceRowHeight
            if voice.identifier == selectedVoice {
                setColor(cr, 0.21, 0.45, 0.80)
                cairo_rectangle(cr, l.voices.x + 2, y, l.voices.width - 4, WindowLayout.voiceRowHeight)
                cairo_fill(cr)
                setColor(cr, 1, 1, 1)
            } else {
                setColor(cr, 0.1, 0.1, 0.1)
            }
            label(cr, Self.describe(voice), x: l.voices.x + 8, y: y + 3)
        }
        cairo_restore(cr)

        // The status line: the last thing that happened, errors in red.
        if statusIsError { setColor(cr, 0.75, 0.05, 0.05) } else { setColor(cr, 0.2, 0.2, 0.2) }
        label(cr, status, x: l.status.x, y: l.status.y + 4, width: l.status.width)

    }

    /// What a voice row says: name, language and quality.
    static func describe(_ voice: Voice) -> String {
        let language = voice.primaryLanguages.first ?? voice.supportedLanguages.first ?? "?"
        return "\(voice.name) — \(language) — \(voice.quality.rawValue)"
    }

    private func setColor(_ cr: OpaquePointer, _ r: Double, _ g: Double, _ b: Double) { cairo_set_source_rgb(cr, r, g, b) }

    private func fillBox(_ cr: OpaquePointer, _ r: Rect, focused: Bool) {
        setColor(cr, 1, 1, 1)
        cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        cairo_fill(cr)
        outline(cr, r, focused: focused)
    }

    private func outline(_ cr: OpaquePointer, _ r: Rect, focused: Bool) {
        if focused { setColor(cr, 0.21, 0.45, 0.80); cairo_set_line_width(cr, 3) } else { setColor(cr, 0.55, 0.55, 0.55); cairo_set_line_width(cr, 1) }
        cairo_rectangle(cr, r.x + 0.5, r.y + 0.5, r.width - 1, r.height - 1)
        cairo_stroke(cr)
    }

    private func button(_ cr: OpaquePointer, _ r: Rect, _ title: String, focused: Bool, enabled: Bool = true) {
        setColor(cr, 0.98, 0.98, 0.97)
        cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        cairo_fill(cr)
        outline(cr, r, focused: focused)
        if enabled { setColor(cr, 0.1, 0.1, 0.1) } else { setColor(cr, 0.6, 0.6, 0.6) }
        let (w, h) = labelSize(title)
        label(cr, title, x: r.x + (r.width - w) / 2, y: r.y + (r.height - h) / 2)
    }

    private func labelSize(_ s: String) -> (Double, Double) {
        let layout = fonts.label
        pango_layout_set_width(layout, -1)
        pango_layout_set_text(layout, s, -1)
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(layout, &w, &h)
        return (Double(w), Double(h))
    }

    private func label(_ cr: OpaquePointer, _ s: String, x: Double, y: Double, width: Double? = nil) {
        let layout = fonts.label
        pango_layout_set_width(layout, width.map { Int32($0 * pangoScale) } ?? -1)
        pango_layout_set_ellipsize(layout, width == nil ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END)
        pango_layout_set_text(layout, s, -1)
        cairo_move_to(cr, x, y)
        pango_cairo_update_layout(cr, layout)
        pango_cairo_show_layout(cr, layout)
    }
}
