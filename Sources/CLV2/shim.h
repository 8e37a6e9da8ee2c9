// LV2 is header-only: the structs and inline helpers of the specifications spk speaks.
#include <lv2/core/lv2.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/util.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>
#include <lv2/options/options.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/log/log.h>
#include <lv2/midi/midi.h>
#include <lv2/state/state.h>
#include <lv2/ui/ui.h>

#include <stdarg.h>

// LV2 log's printf is variadic, which Swift cannot define: this one forwards to the log's own
// vprintf (which the host writes in Swift). The log struct is its own handle.
static inline int spk_log_printf(LV2_Log_Handle handle, LV2_URID type, const char *format, ...) {
    LV2_Log_Log *log = (LV2_Log_Log *)handle;
    va_list args;
    va_start(args, format);
    int n = log->vprintf(handle, type, format, args);
    va_end(args);
    return n;
}

/// Fills a host's log struct: its own handle, spk_log_printf, and the host's vprintf.
static inline void spk_log_init(LV2_Log_Log *log,
                                int (*vprintf)(LV2_Log_Handle, LV2_URID, const char *, va_list)) {
    log->handle = log;
    log->printf = spk_log_printf;
    log->vprintf = vprintf;
}
