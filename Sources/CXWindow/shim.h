// The plugin window's drawing stack: Xlib for the window and input, cairo (xlib surface) to
// draw, pango to lay out text. No toolkit: nothing here clashes with a host's GTK 2, GTK 3 or Qt.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <X11/Xatom.h>
#include <cairo/cairo.h>
#include <cairo/cairo-xlib.h>
#include <pango/pangocairo.h>

static const long spk_window_event_mask =
    ExposureMask | KeyPressMask | ButtonPressMask | StructureNotifyMask | FocusChangeMask;

// XCreateIC is variadic: Swift cannot call it.
static inline XIC spk_create_ic(XIM im, Window window) {
    return XCreateIC(im, XNInputStyle, XIMPreeditNothing | XIMStatusNothing,
                     XNClientWindow, window, XNFocusWindow, window, (char *)NULL);
}
