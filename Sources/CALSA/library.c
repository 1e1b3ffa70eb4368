// libasound, opened the first time an ALSA function is called rather than linked.
//
// Every command paid for loading libasound (and relocating it) at start-up, although only
// `play`, `devices` and the engine use it: about 0.4 ms of a 4 ms `haptics list`. A machine
// without alsa-lib can now run everything else, and `play` says what to install. The Swift
// code calls the functions by their usual names (declared by <alsa/asoundlib.h>); these
// definitions forward to the library's, looked up once. After that first call, a forward is
// one atomic load and an indirect call: nothing that could block the audio thread.

#include "CALSA.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

// Each function: return type, name, parameters, arguments, and what it returns when the
// library is missing (for the void ones, nothing).
#define ALSA_FUNCTIONS(F)                                                                                                    \
    F(int, snd_card_next, (int *card), (card), -ENOENT)                                                                      \
    F(int, snd_card_get_name, (int card, char **name), (card, name), -ENOENT)                                                \
    F(int, snd_card_get_longname, (int card, char **name), (card, name), -ENOENT)                                            \
    F(int, snd_device_name_hint, (int card, const char *iface, void ***hints), (card, iface, hints), -ENOENT)                \
    F(int, snd_device_name_free_hint, (void **hints), (hints), -ENOENT)                                                      \
    F(char *, snd_device_name_get_hint, (const void *hint, const char *id), (hint, id), NULL)                               \
    F(int, snd_lib_error_set_handler, (snd_lib_error_handler_t handler), (handler), -ENOENT)                                 \
    F(const char *, snd_strerror, (int errnum), (errnum), haptics_alsa_missing_message)                                      \
    F(const char *, snd_pcm_format_name, (const snd_pcm_format_t format), (format), "unknown")                               \
    F(int, snd_pcm_open, (snd_pcm_t **pcm, const char *name, snd_pcm_stream_t stream, int mode), (pcm, name, stream, mode),   \
      -ENOENT)                                                                                                               \
    F(int, snd_pcm_close, (snd_pcm_t *pcm), (pcm), -ENOENT)                                                                  \
    F(int, snd_config_update, (void), (), -ENOENT)                                                                            \
    F(int, snd_pcm_nonblock, (snd_pcm_t *pcm, int nonblock), (pcm, nonblock), -ENOENT)                                       \
    F(snd_pcm_type_t, snd_pcm_type, (snd_pcm_t *pcm), (pcm), SND_PCM_TYPE_HW)                                                \
    F(snd_pcm_state_t, snd_pcm_state, (snd_pcm_t *pcm), (pcm), SND_PCM_STATE_DISCONNECTED)                                   \
    F(int, snd_pcm_prepare, (snd_pcm_t *pcm), (pcm), -ENOENT)                                                                \
    F(int, snd_pcm_drain, (snd_pcm_t *pcm), (pcm), -ENOENT)                                                                  \
    F(int, snd_pcm_drop, (snd_pcm_t *pcm), (pcm), -ENOENT)                                                                   \
    F(int, snd_pcm_recover, (snd_pcm_t *pcm, int err, int silent), (pcm, err, silent), -ENOENT)                              \
    F(int, snd_pcm_wait, (snd_pcm_t *pcm, int timeout), (pcm, timeout), -ENOENT)                                             \
    F(snd_pcm_sframes_t, snd_pcm_avail, (snd_pcm_t *pcm), (pcm), -ENOENT)                                                    \
    F(int, snd_pcm_delay, (snd_pcm_t *pcm, snd_pcm_sframes_t *delay), (pcm, delay), -ENOENT)                                 \
    F(snd_pcm_sframes_t, snd_pcm_writei, (snd_pcm_t *pcm, const void *buffer, snd_pcm_uframes_t size), (pcm, buffer, size),   \
      -ENOENT)                                                                                                               \
    F(int, snd_pcm_hw_params_malloc, (snd_pcm_hw_params_t **params), (params), -ENOENT)                                      \
    F(int, snd_pcm_hw_params_any, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params), (pcm, params), -ENOENT)                     \
    F(int, snd_pcm_hw_params, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params), (pcm, params), -ENOENT)                         \
    F(int, snd_pcm_hw_params_set_access, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, snd_pcm_access_t access),             \
      (pcm, params, access), -ENOENT)                                                                                        \
    F(int, snd_pcm_hw_params_test_format, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, snd_pcm_format_t format),            \
      (pcm, params, format), -ENOENT)                                                                                        \
    F(int, snd_pcm_hw_params_set_format, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, snd_pcm_format_t format),             \
      (pcm, params, format), -ENOENT)                                                                                        \
    F(int, snd_pcm_hw_params_set_channels, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, unsigned int value),                \
      (pcm, params, value), -ENOENT)                                                                                         \
    F(int, snd_pcm_hw_params_set_channels_near, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, unsigned int *value),          \
      (pcm, params, value), -ENOENT)                                                                                         \
    F(int, snd_pcm_hw_params_set_rate, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, unsigned int value, int dir),           \
      (pcm, params, value, dir), -ENOENT)                                                                                    \
    F(int, snd_pcm_hw_params_set_rate_near, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, unsigned int *value, int *dir),    \
      (pcm, params, value, dir), -ENOENT)                                                                                    \
    F(int, snd_pcm_hw_params_set_buffer_size_near, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, snd_pcm_uframes_t *value),  \
      (pcm, params, value), -ENOENT)                                                                                         \
    F(int, snd_pcm_hw_params_set_periods_near, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, unsigned int *value, int *dir), \
      (pcm, params, value, dir), -ENOENT)                                                                                    \
    F(int, snd_pcm_hw_params_get_buffer_size, (const snd_pcm_hw_params_t *params, snd_pcm_uframes_t *value),                 \
      (params, value), -ENOENT)                                                                                              \
    F(int, snd_pcm_hw_params_get_buffer_size_min, (const snd_pcm_hw_params_t *params, snd_pcm_uframes_t *value),             \
      (params, value), -ENOENT)                                                                                              \
    F(int, snd_pcm_hw_params_get_period_size, (const snd_pcm_hw_params_t *params, snd_pcm_uframes_t *frames, int *dir),      \
      (params, frames, dir), -ENOENT)                                                                                        \
    F(int, snd_pcm_hw_params_get_period_size_min, (const snd_pcm_hw_params_t *params, snd_pcm_uframes_t *frames, int *dir),  \
      (params, frames, dir), -ENOENT)                                                                                        \
    F(int, snd_pcm_hw_params_get_channels_min, (const snd_pcm_hw_params_t *params, unsigned int *value), (params, value),    \
      -ENOENT)                                                                                                               \
    F(int, snd_pcm_hw_params_get_channels_max, (const snd_pcm_hw_params_t *params, unsigned int *value), (params, value),    \
      -ENOENT)                                                                                                               \
    F(int, snd_pcm_hw_params_get_rate_min, (const snd_pcm_hw_params_t *params, unsigned int *value, int *dir),               \
      (params, value, dir), -ENOENT)                                                                                         \
    F(int, snd_pcm_hw_params_get_rate_max, (const snd_pcm_hw_params_t *params, unsigned int *value, int *dir),               \
      (params, value, dir), -ENOENT)                                                                                         \
    F(int, snd_pcm_sw_params_malloc, (snd_pcm_sw_params_t **params), (params), -ENOENT)                                      \
    F(int, snd_pcm_sw_params_current, (snd_pcm_t *pcm, snd_pcm_sw_params_t *params), (pcm, params), -ENOENT)                \
    F(int, snd_pcm_sw_params, (snd_pcm_t *pcm, snd_pcm_sw_params_t *params), (pcm, params), -ENOENT)                         \
    F(int, snd_pcm_sw_params_set_avail_min, (snd_pcm_t *pcm, snd_pcm_sw_params_t *params, snd_pcm_uframes_t value),          \
      (pcm, params, value), -ENOENT)                                                                                         \
    F(int, snd_pcm_sw_params_set_start_threshold, (snd_pcm_t *pcm, snd_pcm_sw_params_t *params, snd_pcm_uframes_t value),    \
      (pcm, params, value), -ENOENT)

#define ALSA_PROCEDURES(F)                                                                                                   \
    F(snd_pcm_hw_params_copy, (snd_pcm_hw_params_t * destination, const snd_pcm_hw_params_t *source), (destination, source)) \
    F(snd_pcm_hw_params_free, (snd_pcm_hw_params_t * params), (params))                                                      \
    F(snd_pcm_sw_params_free, (snd_pcm_sw_params_t * params), (params))

static const char haptics_alsa_missing_message[] =
    "alsa-lib is not installed (Debian/Ubuntu: apt-get install libasound2)";

// The library's functions, looked up once.
static struct {
#define FIELD(type, name, parameters, arguments, missing) type(*name) parameters;
    ALSA_FUNCTIONS(FIELD)
#undef FIELD
#define FIELD(name, parameters, arguments) void(*name) parameters;
    ALSA_PROCEDURES(FIELD)
#undef FIELD
} alsa;

static int alsa_loaded;
static pthread_once_t alsa_once = PTHREAD_ONCE_INIT;

static void load_alsa(void) {
    void *library = dlopen("libasound.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        return;
    }
    int complete = 1;
#define LOOKUP(type, name, parameters, arguments, missing)                                                                   \
    alsa.name = (type(*) parameters)dlsym(library, #name);                                                                   \
    complete = complete && alsa.name != NULL;
    ALSA_FUNCTIONS(LOOKUP)
#undef LOOKUP
#define LOOKUP(name, parameters, arguments)                                                                                  \
    alsa.name = (void(*) parameters)dlsym(library, #name);                                                                   \
    complete = complete && alsa.name != NULL;
    ALSA_PROCEDURES(LOOKUP)
#undef LOOKUP
    // A library without one of them is too old to use at all.
    alsa_loaded = complete;
}

int haptics_alsa_available(void) {
    pthread_once(&alsa_once, load_alsa);
    return alsa_loaded;
}

// Hidden: linked into `haptics` under alsa-lib's own names, they must not be exported (the
// binary exports its symbols), or libasound's calls to its own functions, and its plugins',
// would bind to these forwards first.
#define HIDDEN __attribute__((visibility("hidden")))

#define FORWARD(type, name, parameters, arguments, missing)                                                                  \
    HIDDEN type name parameters {                                                                                                   \
        if (!haptics_alsa_available()) {                                                                                     \
            return missing;                                                                                                  \
        }                                                                                                                    \
        return alsa.name arguments;                                                                                          \
    }
ALSA_FUNCTIONS(FORWARD)
#undef FORWARD

#define FORWARD(name, parameters, arguments)                                                                                 \
    HIDDEN void name parameters {                                                                                                   \
        if (haptics_alsa_available()) {                                                                                      \
            alsa.name arguments;                                                                                             \
        }                                                                                                                    \
    }
ALSA_PROCEDURES(FORWARD)
#undef FORWARD
