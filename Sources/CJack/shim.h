#include <jack/jack.h>
#include <jack/midiport.h>

// jack_client_open is variadic (the server name rides in the varargs): Swift cannot call it.
static inline jack_client_t *spk_jack_client_open(const char *name, jack_options_t options,
                                                  jack_status_t *status, const char *server) {
    if (server) return jack_client_open(name, options | JackServerName, status, server);
    return jack_client_open(name, options, status);
}
