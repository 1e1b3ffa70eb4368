// feedbackd's D-Bus interface through sd-bus (libsystemd). sd-bus is a small C API on every
// systemd machine, with no main loop of its own to host: the daemon's thread polls its
// descriptor beside the engine's eventfd and the signalfd. libsystemd is opened on first use,
// like alsa-lib (CALSA/library.c) and libpulse (CPulse/pulse.c), so the static binary has no
// link-time dependency on it. The vtables, the parsing of `a{sv}` and `a(du)`, and every call
// to sd-bus's variadic functions live here, where sd-bus's macros and varargs can be used.

#include "CSDBus.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>

#define SD_FUNCTIONS(F)                                                                                                  \
    F(sd_bus_open_user)                                                                                                  \
    F(sd_bus_flush_close_unref)                                                                                          \
    F(sd_bus_get_fd)                                                                                                     \
    F(sd_bus_get_events)                                                                                                 \
    F(sd_bus_get_timeout)                                                                                                \
    F(sd_bus_process)                                                                                                    \
    F(sd_bus_flush)                                                                                                      \
    F(sd_bus_request_name)                                                                                               \
    F(sd_bus_add_object_vtable)                                                                                          \
    F(sd_bus_add_match)                                                                                                  \
    F(sd_bus_add_match_async)                                                                                            \
    F(sd_bus_add_filter)                                                                                                 \
    F(sd_bus_message_is_method_call)                                                                                     \
    F(sd_bus_message_get_path)                                                                                           \
    F(sd_bus_message_rewind)                                                                                             \
    F(sd_bus_call_method_async)                                                                                          \
    F(sd_bus_slot_unref)                                                                                                 \
    F(sd_bus_message_read)                                                                                               \
    F(sd_bus_message_enter_container)                                                                                    \
    F(sd_bus_message_exit_container)                                                                                     \
    F(sd_bus_message_peek_type)                                                                                          \
    F(sd_bus_message_skip)                                                                                               \
    F(sd_bus_message_get_sender)                                                                                         \
    F(sd_bus_message_is_method_error)                                                                                    \
    F(sd_bus_message_append)                                                                                             \
    F(sd_bus_reply_method_return)                                                                                        \
    F(sd_bus_reply_method_errorf)                                                                                        \
    F(sd_bus_emit_signal)                                                                                                \
    F(sd_bus_emit_properties_changed)                                                                                    \
    F(sd_bus_error_set)

static struct {
    int loaded;
    char failure[200];
    const unsigned *vtable_format;
#define DECLARE(name) __typeof__(&name) name;
    SD_FUNCTIONS(DECLARE)
#undef DECLARE
} sd;

static pthread_once_t sd_once = PTHREAD_ONCE_INIT;

static void sd_load(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(sd.failure, sizeof sd.failure, "libsystemd.so.0 cannot be loaded (%s)", dlerror());
        return;
    }
#define RESOLVE(name)                                                                                                    \
    sd.name = (__typeof__(&name))dlsym(library, #name);                                                                  \
    if (!sd.name) {                                                                                                      \
        snprintf(sd.failure, sizeof sd.failure, "libsystemd.so.0 has no %s (systemd 240 or later is needed)", #name);   \
        return;                                                                                                          \
    }
    SD_FUNCTIONS(RESOLVE)
#undef RESOLVE
    // The vtables name libsystemd's own format marker: sd-bus compares the address.
    sd.vtable_format = dlsym(library, "sd_bus_object_vtable_format");
    if (!sd.vtable_format) {
        snprintf(sd.failure, sizeof sd.failure, "libsystemd.so.0 has no sd_bus_object_vtable_format (systemd 242 or later is needed)");
        return;
    }
    sd.loaded = 1;
}

int hsd_available(char *message, size_t message_size) {
    pthread_once(&sd_once, sd_load);
    if (!sd.loaded && message && message_size) snprintf(message, message_size, "%s", sd.failure);
    return sd.loaded;
}

#define SERVICE "org.sigxcpu.Feedback"
#define PATH "/org/sigxcpu/Feedback"
#define INTERFACE "org.sigxcpu.Feedback"
#define HAPTIC_INTERFACE "org.sigxcpu.Feedback.Haptic"
#define ERROR_INVALID_ARGS "org.freedesktop.DBus.Error.InvalidArgs"
#define ERROR_LIMITS_EXCEEDED "org.freedesktop.DBus.Error.LimitsExceeded"

struct hsd_bus {
    sd_bus *bus;
    hsd_callbacks callbacks;
    int haptic;
};

struct hsd_watch {
    hsd_bus *owner;
    sd_bus_slot *match;
    sd_bus_slot *call;
    char name[];
};

// MARK: Properties feedbackd's GDBus answers otherwise

/// `Properties.Get`/`Set` of a property or interface our object does not have: GDBus (which
/// feedbackd uses) answers `InvalidArgs` ("No such property …"), sd-bus `UnknownProperty` or
/// `UnknownInterface`. Clients may test for feedbackd's answer, so ours is the same; every
/// other message goes on to sd-bus's own dispatch.
static int filter_properties(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    hsd_bus *b = userdata;
    const char *path = sd.sd_bus_message_get_path(m);
    if (!path || strcmp(path, PATH) != 0) return 0;
    if (sd.sd_bus_message_is_method_call(m, "org.freedesktop.DBus.Properties", "Get") <= 0
        && sd.sd_bus_message_is_method_call(m, "org.freedesktop.DBus.Properties", "Set") <= 0)
        return 0;
    const char *interface = NULL, *property = NULL;
    int r = sd.sd_bus_message_read(m, "ss", &interface, &property);
    sd.sd_bus_message_rewind(m, 1);
    if (r < 0 || !interface || !property) return 0;
    int known_interface = strcmp(interface, INTERFACE) == 0 || (b->haptic && strcmp(interface, HAPTIC_INTERFACE) == 0);
    if (!known_interface) return sd.sd_bus_reply_method_errorf(m, ERROR_INVALID_ARGS, "No such interface “%s”", interface) < 0 ? 0 : 1;
    if (strcmp(interface, INTERFACE) == 0 && strcmp(property, "Profile") == 0) return 0;
    return sd.sd_bus_reply_method_errorf(m, ERROR_INVALID_ARGS, "No such property “%s”", property) < 0 ? 0 : 1;
}

// MARK: Methods

static int reply_error(sd_bus_message *m, int code, const char *message) {
    const char *name = code == HSD_LIMITS_EXCEEDED ? ERROR_LIMITS_EXCEEDED : ERROR_INVALID_ARGS;
    return sd.sd_bus_reply_method_errorf(m, name, "%s", message);
}

/// Reads the `a{sv}` hints: the three feedbackd knows, each of its type; others are skipped.
static int read_hints(sd_bus_message *m, hsd_hints *hints) {
    int r = sd.sd_bus_message_enter_container(m, 'a', "{sv}");
    if (r < 0) return r;
    while ((r = sd.sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
        const char *key = NULL;
        r = sd.sd_bus_message_read(m, "s", &key);
        if (r < 0) return r;
        char type = 0;
        const char *contents = NULL;
        r = sd.sd_bus_message_peek_type(m, &type, &contents);
        if (r < 0) return r;
        int string = contents && strcmp(contents, "s") == 0;
        if (strcmp(key, "profile") == 0 && string) {
            r = sd.sd_bus_message_read(m, "v", "s", &hints->profile);
        } else if (strcmp(key, "sound-file") == 0 && string) {
            r = sd.sd_bus_message_read(m, "v", "s", &hints->sound_file);
        } else if (strcmp(key, "important") == 0 && contents && strcmp(contents, "b") == 0) {
            int value = 0;
            r = sd.sd_bus_message_read(m, "v", "b", &value);
            hints->has_important = 1;
            hints->important = value != 0;
        } else {
            r = sd.sd_bus_message_skip(m, "v");
        }
        if (r < 0) return r;
        r = sd.sd_bus_message_exit_container(m);
        if (r < 0) return r;
    }
    if (r < 0) return r;
    return sd.sd_bus_message_exit_container(m);
}

static int method_trigger(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    hsd_bus *b = userdata;
    const char *app_id = NULL, *event = NULL;
    hsd_hints hints = {0};
    int32_t timeout = -1;
    int r = sd.sd_bus_message_read(m, "ss", &app_id, &event);
    if (r < 0) return r;
    r = read_hints(m, &hints);
    if (r < 0) return r;
    r = sd.sd_bus_message_read(m, "i", &timeout);
    if (r < 0) return r;
    const char *sender = sd.sd_bus_message_get_sender(m);
    uint32_t id = 0;
    char message[256] = "";
    int code = b->callbacks.trigger(
        b->callbacks.context, sender ? sender : "", app_id, event, &hints, timeout, &id, message, sizeof message);
    if (code != HSD_OK) return reply_error(m, code, message);
    return sd.sd_bus_reply_method_return(m, "u", id);
}

static int method_end(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    hsd_bus *b = userdata;
    uint32_t id = 0;
    int r = sd.sd_bus_message_read(m, "u", &id);
    if (r < 0) return r;
    const char *sender = sd.sd_bus_message_get_sender(m);
    b->callbacks.end(b->callbacks.context, sender ? sender : "", id);
    return sd.sd_bus_reply_method_return(m, "");
}

/// Steps read at most from one `Vibrate` (the daemon documents its own limit below this).
#define VIBRATE_READ_LIMIT 65536

static int method_vibrate(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    hsd_bus *b = userdata;
    const char *app_id = NULL;
    int r = sd.sd_bus_message_read(m, "s", &app_id);
    if (r < 0) return r;
    r = sd.sd_bus_message_enter_container(m, 'a', "(du)");
    if (r < 0) return r;
    size_t count = 0, capacity = 0;
    double *amplitudes = NULL;
    uint32_t *durations = NULL;
    for (;;) {
        double amplitude = 0;
        uint32_t duration = 0;
        r = sd.sd_bus_message_read(m, "(du)", &amplitude, &duration);
        if (r <= 0) break;
        if (count >= VIBRATE_READ_LIMIT) continue;
        if (count == capacity) {
            size_t next = capacity ? capacity * 2 : 16;
            double *a = realloc(amplitudes, next * sizeof *a);
            if (a) amplitudes = a;
            uint32_t *d = realloc(durations, next * sizeof *d);
            if (d) durations = d;
            if (!a || !d) {
                r = -ENOMEM;
                break;
            }
            capacity = next;
        }
        amplitudes[count] = amplitude;
        durations[count] = duration;
        count++;
    }
    if (r >= 0) r = sd.sd_bus_message_exit_container(m);
    if (r < 0) {
        free(amplitudes);
        free(durations);
        return r;
    }
    const char *sender = sd.sd_bus_message_get_sender(m);
    int success = b->callbacks.vibrate(b->callbacks.context, sender ? sender : "", app_id, amplitudes, durations, count);
    free(amplitudes);
    free(durations);
    return sd.sd_bus_reply_method_return(m, "b", success ? 1 : 0);
}

static int get_profile(
    sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *reply, void *userdata,
    sd_bus_error *error) {
    (void)bus, (void)path, (void)interface, (void)property, (void)error;
    hsd_bus *b = userdata;
    char value[64] = "";
    b->callbacks.get_profile(b->callbacks.context, value, sizeof value);
    return sd.sd_bus_message_append(reply, "s", value);
}

static int set_profile(
    sd_bus *bus, const char *path, const char *interface, const char *property, sd_bus_message *value, void *userdata,
    sd_bus_error *error) {
    (void)path, (void)interface, (void)property, (void)error;
    hsd_bus *b = userdata;
    const char *profile = NULL;
    int r = sd.sd_bus_message_read(value, "s", &profile);
    if (r < 0) return r;
    if (b->callbacks.set_profile(b->callbacks.context, profile))
        sd.sd_bus_emit_properties_changed(bus, PATH, INTERFACE, "Profile", NULL);
    return 1;
}

// The START element is filled in at open: it must point at libsystemd's own format marker.
static sd_bus_vtable feedback_vtable[] = {
    {.type = _SD_BUS_VTABLE_START, .x.start = {.element_size = sizeof(sd_bus_vtable), .features = _SD_BUS_VTABLE_PARAM_NAMES}},
    SD_BUS_WRITABLE_PROPERTY("Profile", "s", get_profile, set_profile, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_METHOD_WITH_NAMES(
        "TriggerFeedback", "ssa{sv}i", SD_BUS_PARAM(app_id) SD_BUS_PARAM(event) SD_BUS_PARAM(hints) SD_BUS_PARAM(timeout),
        "u", SD_BUS_PARAM(id), method_trigger, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_NAMES("EndFeedback", "u", SD_BUS_PARAM(id), "", , method_end, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_SIGNAL_WITH_NAMES("FeedbackEnded", "uu", SD_BUS_PARAM(id) SD_BUS_PARAM(reason), 0),
    SD_BUS_VTABLE_END};

static sd_bus_vtable haptic_vtable[] = {
    {.type = _SD_BUS_VTABLE_START, .x.start = {.element_size = sizeof(sd_bus_vtable), .features = _SD_BUS_VTABLE_PARAM_NAMES}},
    SD_BUS_METHOD_WITH_NAMES(
        "Vibrate", "sa(du)", SD_BUS_PARAM(app_id) SD_BUS_PARAM(pattern), "b", SD_BUS_PARAM(success), method_vibrate,
        SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END};

// MARK: Signals from the bus

static int on_name_lost(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    hsd_bus *b = userdata;
    const char *name = NULL;
    if (sd.sd_bus_message_read(m, "s", &name) > 0 && name && strcmp(name, SERVICE) == 0)
        b->callbacks.name_lost(b->callbacks.context);
    return 0;
}

static int on_owner_changed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    hsd_watch *w = userdata;
    const char *name = NULL, *old_owner = NULL, *new_owner = NULL;
    if (sd.sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) > 0 && name && strcmp(name, w->name) == 0 &&
        new_owner && new_owner[0] == 0)
        w->owner->callbacks.client_vanished(w->owner->callbacks.context, w->name);
    return 0;
}

static int on_match_installed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)m, (void)userdata, (void)error;
    return 0;
}

/// The answer to `GetNameOwner` sent after a watch's match: an error means the client left
/// before the match was in place, so its leaving would not be signalled.
static int on_owner_answer(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)error;
    hsd_watch *w = userdata;
    if (sd.sd_bus_message_is_method_error(m, NULL)) w->owner->callbacks.client_vanished(w->owner->callbacks.context, w->name);
    return 0;
}

// MARK: The connection

hsd_bus *hsd_open(const hsd_callbacks *callbacks, int replace, int haptic, char *message, size_t message_size) {
    if (!hsd_available(message, message_size)) return NULL;
    feedback_vtable[0].x.start.vtable_format_reference = sd.vtable_format;
    haptic_vtable[0].x.start.vtable_format_reference = sd.vtable_format;
    hsd_bus *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    b->callbacks = *callbacks;
    int r = sd.sd_bus_open_user(&b->bus);
    if (r < 0) {
        snprintf(message, message_size, "cannot connect to the session bus (%s): %s",
                 getenv("DBUS_SESSION_BUS_ADDRESS") ? getenv("DBUS_SESSION_BUS_ADDRESS") : "DBUS_SESSION_BUS_ADDRESS is not set",
                 strerror(-r));
        free(b);
        return NULL;
    }
    b->haptic = haptic;
    const char *step = "answer properties as feedbackd";
    r = sd.sd_bus_add_filter(b->bus, NULL, filter_properties, b);
    if (r >= 0) {
        step = "export " INTERFACE;
        r = sd.sd_bus_add_object_vtable(b->bus, NULL, PATH, INTERFACE, feedback_vtable, b);
    }
    if (r >= 0 && haptic) {
        step = "export " HAPTIC_INTERFACE;
        r = sd.sd_bus_add_object_vtable(b->bus, NULL, PATH, HAPTIC_INTERFACE, haptic_vtable, b);
    }
    if (r >= 0) {
        step = "watch for NameLost";
        r = sd.sd_bus_add_match(
            b->bus, NULL,
            "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
            "member='NameLost',arg0='" SERVICE "'",
            on_name_lost, b);
    }
    if (r >= 0) {
        step = "own " SERVICE;
        r = sd.sd_bus_request_name(
            b->bus, SERVICE, SD_BUS_NAME_ALLOW_REPLACEMENT | (replace ? SD_BUS_NAME_REPLACE_EXISTING : 0));
        if (r == -EEXIST) {
            snprintf(message, message_size,
                     replace ? SERVICE " is owned by a process that does not allow replacement"
                             : SERVICE " is owned by another process (feedbackd or another daemon); --replace takes it over");
            sd.sd_bus_flush_close_unref(b->bus);
            free(b);
            return NULL;
        }
    }
    if (r < 0) {
        snprintf(message, message_size, "cannot %s on the session bus: %s", step, strerror(-r));
        sd.sd_bus_flush_close_unref(b->bus);
        free(b);
        return NULL;
    }
    return b;
}

void hsd_close(hsd_bus *b) {
    if (!b) return;
    sd.sd_bus_flush_close_unref(b->bus);
    free(b);
}

int hsd_fd(hsd_bus *b) { return sd.sd_bus_get_fd(b->bus); }

short hsd_events(hsd_bus *b) {
    int events = sd.sd_bus_get_events(b->bus);
    return events < 0 ? 0 : (short)events;
}

int64_t hsd_timeout_ms(hsd_bus *b) {
    uint64_t until = 0;
    if (sd.sd_bus_get_timeout(b->bus, &until) < 0 || until == UINT64_MAX) return -1;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t now_us = (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
    if (until <= now_us) return 0;
    return (int64_t)((until - now_us + 999) / 1000);
}

int hsd_process(hsd_bus *b, char *message, size_t message_size) {
    int r = sd.sd_bus_process(b->bus, NULL);
    if (r < 0 && message && message_size) snprintf(message, message_size, "the session bus connection failed: %s", strerror(-r));
    return r < 0 ? r : (r > 0 ? 1 : 0);
}

int hsd_flush(hsd_bus *b) { return sd.sd_bus_flush(b->bus); }

int hsd_emit_feedback_ended(hsd_bus *b, uint32_t id, uint32_t reason) {
    return sd.sd_bus_emit_signal(b->bus, PATH, INTERFACE, "FeedbackEnded", "uu", id, reason);
}

int hsd_emit_profile_changed(hsd_bus *b) { return sd.sd_bus_emit_properties_changed(b->bus, PATH, INTERFACE, "Profile", NULL); }

hsd_watch *hsd_watch_name(hsd_bus *b, const char *name) {
    size_t length = strlen(name);
    // A unique name is short and has no quote; anything else is not watched.
    if (length == 0 || length > 255 || strchr(name, '\'') || strchr(name, '\\')) return NULL;
    hsd_watch *w = calloc(1, sizeof *w + length + 1);
    if (!w) return NULL;
    w->owner = b;
    memcpy(w->name, name, length + 1);
    char rule[512];
    snprintf(rule, sizeof rule,
             "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
             "member='NameOwnerChanged',arg0='%s'",
             name);
    int r = sd.sd_bus_add_match_async(b->bus, &w->match, rule, on_owner_changed, on_match_installed, w);
    if (r < 0) {
        free(w);
        return NULL;
    }
    // Sent after the match, so the bus answers it after installing the match: a client gone
    // before then gets an error here instead of a signal.
    sd.sd_bus_call_method_async(
        b->bus, &w->call, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
        on_owner_answer, w, "s", w->name);
    return w;
}

void hsd_unwatch(hsd_watch *w) {
    if (!w) return;
    sd.sd_bus_slot_unref(w->match);
    sd.sd_bus_slot_unref(w->call);
    free(w);
}

// MARK: Signals and wake-ups

int hsd_signalfd(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

int hsd_read_signal(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    return n == (ssize_t)sizeof info ? (int)info.ssi_signo : 0;
}

int hsd_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

void hsd_eventfd_post(int fd) {
    uint64_t one = 1;
    ssize_t n = write(fd, &one, sizeof one);
    (void)n;
}

void hsd_eventfd_drain(int fd) {
    uint64_t value;
    ssize_t n = read(fd, &value, sizeof value);
    (void)n;
}
