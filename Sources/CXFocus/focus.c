#include "CXFocus.h"

static int error_seen;

static int trap(Display *display, XErrorEvent *event) {
    (void)display; (void)event;
    error_seen = 1;
    return 0;
}

int spk_set_focus(Display *display, Window window) {
    XSync(display, False);
    error_seen = 0;
    int (*previous)(Display *, XErrorEvent *) = XSetErrorHandler(trap);
    XSetInputFocus(display, window, RevertToParent, CurrentTime);
    XSync(display, False);
    XSetErrorHandler(previous);
    return !error_seen;
}
