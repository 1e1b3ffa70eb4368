#ifndef HAPTICS_CSDBUS_H
#define HAPTICS_CSDBUS_H

#include <stddef.h>
#include <stdint.h>

/// The feedback service's D-Bus connection: sd-bus from libsystemd, opened on first use (not
/// linked, so the static `haptics` binary runs where libsystemd is missing and only the daemon
/// needs it). It owns `org.sigxcpu.Feedback` on the session bus and exports feedbackd's two
/// interfaces at `/org/sigxcpu/Feedback`; the method calls, the `Profile` property and the
/// watched clients come back through `hsd_callbacks`. sd-bus objects are not thread-safe:
/// every function but `hsd_available` and the eventfd helpers belongs to one thread (the
/// daemon's), which also runs the callbacks.
typedef struct hsd_bus hsd_bus;

/// A watch on a client's bus name (see `hsd_watch`).
typedef struct hsd_watch hsd_watch;

/// The hints of a `TriggerFeedback` call that feedbackd reads; a hint of another type is
/// ignored, as feedbackd's `g_variant_dict_lookup` ignores it.
typedef struct {
    /// The `profile` hint (a string), or NULL.
    const char *profile;
    /// Whether an `important` hint (a boolean) came, and its value.
    int has_important;
    int important;
    /// The `sound-file` hint (a string), or NULL.
    const char *sound_file;
} hsd_hints;

/// What a call answers: success, or one of these D-Bus errors with the message written.
enum {
    HSD_OK = 0,
    /// `org.freedesktop.DBus.Error.InvalidArgs`
    HSD_INVALID_ARGS = 1,
    /// `org.freedesktop.DBus.Error.LimitsExceeded`
    HSD_LIMITS_EXCEEDED = 2,
};

/// The daemon's side of the connection; `context` is passed back to every callback.
typedef struct {
    void *context;
    /// `TriggerFeedback`: sets `*id` and returns HSD_OK, or returns an error with `message` set.
    int (*trigger)(
        void *context, const char *sender, const char *app_id, const char *event, const hsd_hints *hints,
        int32_t timeout, uint32_t *id, char *message, size_t message_size);
    /// `EndFeedback`.
    void (*end)(void *context, const char *sender, uint32_t id);
    /// Writes the `Profile` property's value (NUL-terminated) into `buffer`.
    void (*get_profile)(void *context, char *buffer, size_t size);
    /// Sets `Profile`: 1 when it changed (PropertiesChanged is then emitted), 0 when not.
    int (*set_profile)(void *context, const char *profile);
    /// `Vibrate`: the pattern's steps; returns the answer (1 or 0).
    int (*vibrate)(
        void *context, const char *sender, const char *app_id, const double *amplitudes, const uint32_t *durations,
        size_t count);
    /// A watched client left the bus.
    void (*client_vanished)(void *context, const char *name);
    /// Another process took `org.sigxcpu.Feedback` (it asked to replace us).
    void (*name_lost)(void *context);
} hsd_callbacks;

/// Whether libsystemd could be loaded: 1, or 0 with the reason in `message`.
int hsd_available(char *message, size_t message_size);

/// Connects to the session bus (`$DBUS_SESSION_BUS_ADDRESS`), exports the interfaces (the
/// Haptic one when `haptic`), and owns the name, allowing replacement; with `replace`, takes it
/// from the current owner. NULL on failure with the reason in `message`. `callbacks` is copied.
hsd_bus *hsd_open(const hsd_callbacks *callbacks, int replace, int haptic, char *message, size_t message_size);

/// Closes the connection (flushing what is queued), releasing the name.
void hsd_close(hsd_bus *bus);

/// The connection's descriptor and the poll events it waits for now.
int hsd_fd(hsd_bus *bus);
short hsd_events(hsd_bus *bus);
/// Milliseconds until sd-bus needs processing without I/O (a method call's timeout), rounded
/// up; -1 when nothing is pending.
int64_t hsd_timeout_ms(hsd_bus *bus);

/// Processes one message or step: 1 when it did something (call again), 0 when idle, a
/// negative errno when the connection failed (`message` set).
int hsd_process(hsd_bus *bus, char *message, size_t message_size);

/// Writes what is queued without blocking long; 0 or a negative errno.
int hsd_flush(hsd_bus *bus);

/// Emits `FeedbackEnded(id, reason)`.
int hsd_emit_feedback_ended(hsd_bus *bus, uint32_t id, uint32_t reason);

/// Emits `PropertiesChanged` for `Profile`.
int hsd_emit_profile_changed(hsd_bus *bus);

/// Calls `client_vanished` when `name` (a unique name) leaves the bus, or at once (on a later
/// `hsd_process`) when it already has. NULL when the watch could not be added.
hsd_watch *hsd_watch_name(hsd_bus *bus, const char *name);

/// Ends a watch and frees it (not from inside one of its own callbacks: after `hsd_process`).
void hsd_unwatch(hsd_watch *watch);

/// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread (threads started later inherit the
/// mask) and returns a signalfd that reads them; -1 on failure.
int hsd_signalfd(void);

/// Reads one signal from the signalfd: its number, or 0 when none is pending.
int hsd_read_signal(int fd);

/// A non-blocking eventfd, its post (any thread) and its drain (the polling thread).
int hsd_eventfd(void);
void hsd_eventfd_post(int fd);
void hsd_eventfd_drain(int fd);

#endif
