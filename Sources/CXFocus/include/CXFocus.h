#include <X11/Xlib.h>

// Gives `window` the keyboard focus; 1 when the server took it, 0 on an X error (the window
// not viewable yet). The error is trapped for the length of the call, on the UI thread, so it
// never reaches the process's handler, which by default exits the host.
int spk_set_focus(Display *display, Window window);
