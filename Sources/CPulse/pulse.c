// A playback stream on a PulseAudio server through libpulse's asynchronous API, for `--device
// pulse`. ALSA's `pulse` plugin does the same job behind alsa-lib's I/O plugin layer and a
// second thread (libpulse's threaded main loop), and those cost more than the stream itself:
// `aplay -D pulse` used 3.5× the CPU of `pacat` for the same file and latency. Opening it also
// parses alsa-lib's configuration and connects to the server twice.
//
// Here the writing thread runs libpulse's plain main loop itself, as pacat does: it polls the
// server's socket while it waits for room (or, idle, sleeps until the room is due: see
// `haptics_pulse_wait_for_room`), so no lock is shared with another thread and no thread
// wakes another. (A threaded main loop, tried first, spent as much CPU as the plugin:
// the two real-time threads contended for its lock at every period.) Another thread talks to
// the stream only through `haptics_pulse_stop`, which sets a flag and interrupts the poll.
//
// libpulse is opened on first use (like alsa-lib, see CALSA/library.c), so a binary built here
// runs where it is not installed.

#define _GNU_SOURCE // ppoll
#include "CPulse.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <pulse/pulseaudio.h>

#define PULSE_FUNCTIONS(F) \
    F(pa_mainloop_new) \
    F(pa_mainloop_free) \
    F(pa_mainloop_get_api) \
    F(pa_mainloop_prepare) \
    F(pa_mainloop_poll) \
    F(pa_mainloop_dispatch) \
    F(pa_mainloop_iterate) \
    F(pa_mainloop_wakeup) \
    F(pa_context_new) \
    F(pa_context_unref) \
    F(pa_context_connect) \
    F(pa_context_disconnect) \
    F(pa_context_get_state) \
    F(pa_context_errno) \
    F(pa_stream_new) \
    F(pa_stream_unref) \
    F(pa_stream_connect_playback) \
    F(pa_stream_disconnect) \
    F(pa_stream_get_state) \
    F(pa_stream_set_underflow_callback) \
    F(pa_stream_writable_size) \
    F(pa_stream_write) \
    F(pa_stream_flush) \
    F(pa_stream_get_buffer_attr) \
    F(pa_stream_get_timing_info) \
    F(pa_stream_update_timing_info) \
    F(pa_operation_get_state) \
    F(pa_operation_unref) \
    F(pa_strerror)

static struct {
    int loaded;
#define DECLARE(name) __typeof__(&name) name;
    PULSE_FUNCTIONS(DECLARE)
#undef DECLARE
} pulse;

static pthread_once_t pulse_once = PTHREAD_ONCE_INIT;

static void pulse_load(void) {
    // Lazily bound, as paplay's loader binds them. Most of the 25 libraries libpulse brings
    // are marked to be bound at load whatever the mode; the rest (libsndfile and its codecs,
    // X11, xcb) are never called by a stream, and RTLD_NOW bound their 1,244 calls as well:
    // 0.26-0.39 ms of a spawned play's start (issue #28). The functions below are looked up
    // here all the same, so no call of ours into libpulse is ever resolved on the audio thread.
    void *library = dlopen("libpulse.so.0", RTLD_LAZY | RTLD_LOCAL);
    if (!library) return;
#define RESOLVE(name)                                                                                                        \
    pulse.name = (__typeof__(&name))dlsym(library, #name);                                                                   \
    if (!pulse.name) return;
    PULSE_FUNCTIONS(RESOLVE)
#undef RESOLVE
    pulse.loaded = 1;
}

int haptics_pulse_available(void) {
    pthread_once(&pulse_once, pulse_load);
    return pulse.loaded;
}

struct haptics_pulse_stream {
    pa_mainloop *mainloop;
    pa_context *context;
    pa_stream *stream;
    size_t frame_bytes;
    unsigned rate;
    unsigned buffer_frames;
    unsigned period_frames;
    /// Bumped by every stop; the writing thread compares it with the last it acted on.
    atomic_uint stops;
    unsigned stops_handled;
    /// Times the buffer ran dry (the server then waits for a period before playing again).
    atomic_uint underflows;
    /// The latency read at the end of the last write, in frames.
    atomic_long delay;
    /// Set by `haptics_pulse_skip_queued`: the next write lands at the server's read position.
    int seek_to_read;
    /// Such a write is a whole buffer, sent at once: the writes that follow the seek are
    /// gathered here (`staged` bytes of a buffer's) and sent as one. Sent a period at a time,
    /// the sink could read between two of them and run dry behind the first (a start can come
    /// at any moment of the sink's cycle).
    char *stage;
    size_t staged;
    int staging;
    /// The delay, kept here rather than asked of libpulse: its timing updates (automatic, or
    /// requested) each allocate an operation and a reply slot, about 20 heap calls at a
    /// stream's start and one every 1.5 s after, on the writing thread. Frames written so far
    /// (`written`, on a timeline where a seek's write follows the read position), and where
    /// the server reads on it: `read_anchor` at `anchor_us`, advancing at the stream's rate
    /// while `playing`, kept between `written` less a buffer and `written`, and pulled towards
    /// what each of the server's requests says it has read. The sink's own latency
    /// (`sink_frames`) is asked once, at open.
    long long written;
    long long read_anchor;
    long long anchor_us;
    int playing;
    long sink_frames;
    /// The room the last look found, to tell a request from the server (room grew).
    size_t room;
    /// Bumped by `haptics_pulse_interrupt_wait`; `haptics_pulse_wait_for_room` returns when it
    /// differs from the last value it acted on.
    atomic_uint interrupts;
    unsigned interrupts_handled;
    /// The paced wait's own wake-up, an eventfd (-1 if none could be made: the wait is then not
    /// paced). `haptics_pulse_stop` and `haptics_pulse_interrupt_wait` signal it as well as the
    /// main loop, so that a wait sleeping on it alone ends at once too.
    int wake_fd;
    /// How long after the model's time for the room a paced wait wakes (a third of a period,
    /// at least 0.5 ms): the server's request comes when its sink reads, a little after the
    /// model's time, later on a busy machine, and the shared memory's releases apart from it.
    long long pace_margin_us;
    /// Paced waits until the next that takes the server's request as it comes, to anchor the
    /// model on it (a paced wake only says that the request came before it, so a model falling
    /// behind the server's clock would not be seen); 0 after one that slept past a request.
    unsigned pace_until_resync;
    /// Paced wakes, and those that had to wait on for the server (diagnostics, tests).
    atomic_uint paced_wakes;
    atomic_uint early_wakes;
    /// Waits that took the request as it came (see `pace_until_resync`), for the same.
    atomic_uint precise_waits;
    char failure[256];
};

/// Paced waits between two that anchor the model on the server's request (7 s of the standard
/// 6.7 ms period): such a wait also wakes for the releases that come before the request, and
/// between two the model drifts from the server's clock by at most 0.7 ms at 100 ppm.
static unsigned pace_resync_every = 1024;

static void stream_underflowed(pa_stream *stream, void *userdata) {
    (void)stream;
    haptics_pulse_stream *s = userdata;
    atomic_fetch_add_explicit(&s->underflows, 1, memory_order_release);
    // The server read all there was and waits for a period before it plays on.
    s->read_anchor = s->written;
    s->playing = 0;
}

/// Records why the connection or the stream failed, if either has; 1 when one has.
static int has_failed(haptics_pulse_stream *s) {
    if (s->failure[0]) return 1;
    pa_context_state_t context = pulse.pa_context_get_state(s->context);
    pa_stream_state_t stream = s->stream ? pulse.pa_stream_get_state(s->stream) : PA_STREAM_READY;
    if (PA_CONTEXT_IS_GOOD(context) && PA_STREAM_IS_GOOD(stream)) return 0;
    int code = pulse.pa_context_errno(s->context);
    snprintf(s->failure, sizeof s->failure, "the sound server connection failed: %s", code ? pulse.pa_strerror(code) : "it closed");
    return 1;
}

/// Runs the main loop once: polls at most `timeout_us` (-1: until something happens or a stop
/// interrupts), then dispatches what came. 0, or -1 when the loop itself failed.
static int run_once(haptics_pulse_stream *s, int timeout_us) {
    if (pulse.pa_mainloop_prepare(s->mainloop, timeout_us) < 0 || pulse.pa_mainloop_poll(s->mainloop) < 0 ||
        pulse.pa_mainloop_dispatch(s->mainloop) < 0) {
        if (s->failure[0] == 0) snprintf(s->failure, sizeof s->failure, "libpulse's main loop failed");
        return -1;
    }
    return 0;
}

/// Ends a paced wait's sleep (any thread): see `wake_fd`.
static void signal_wake(haptics_pulse_stream *s) {
    if (s->wake_fd < 0) return;
    uint64_t one = 1;
    // Only fails when the counter is full, which wakes the sleeper all the same.
    if (write(s->wake_fd, &one, sizeof one) < 0) {}
}

static long long monotonic_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

/// Runs the main loop until `ready` says the connection is up, it failed, or the deadline
/// passed (a frozen server never answers). 0, -1 (failed) or -2 (no answer).
static int wait_until(haptics_pulse_stream *s, int (*ready)(haptics_pulse_stream *), long long deadline) {
    while (!ready(s)) {
        if (has_failed(s)) return -1;
        long long left = deadline - monotonic_us();
        if (left <= 0) return -2;
        if (run_once(s, (int)(left < 100000 ? left : 100000)) < 0) return -1;
    }
    return 0;
}

static int context_ready(haptics_pulse_stream *s) { return pulse.pa_context_get_state(s->context) == PA_CONTEXT_READY; }
static int stream_ready(haptics_pulse_stream *s) { return pulse.pa_stream_get_state(s->stream) == PA_STREAM_READY; }

/// The sink's own latency in frames, asked once (on the opening thread, so that its
/// allocations are not the writing thread's): 0 when the server does not say in time.
static long sink_latency(haptics_pulse_stream *s, long long deadline) {
    pa_operation *operation = pulse.pa_stream_update_timing_info(s->stream, NULL, NULL);
    if (!operation) return 0;
    while (pulse.pa_operation_get_state(operation) == PA_OPERATION_RUNNING && !has_failed(s)) {
        long long left = deadline - monotonic_us();
        if (left <= 0 || run_once(s, (int)(left < 100000 ? left : 100000)) < 0) break;
    }
    pulse.pa_operation_unref(operation);
    const pa_timing_info *timing = pulse.pa_stream_get_timing_info(s->stream);
    return timing ? (long)(timing->sink_usec * s->rate / 1000000) : 0;
}

/// A connection made ahead of its stream by `haptics_pulse_preconnect`, which the next
/// `haptics_pulse_open` of the same application takes (waiting for one still being made):
/// its main loop and ready context, owned by no thread meanwhile.
static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int connecting;
    /// How the last one ended when it left no connection: -1 failed, -2 the server did not
    /// answer in time (then the open does not wait as long again), 0 none.
    int outcome;
    char application[64];
    pa_mainloop *mainloop;
    pa_context *context;
} preconnected = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};

/// Whether `haptics_pulse_preconnect_in_background` was called: that connection is the one
/// made ahead for the program's start, and a later call to connect ahead (`play`'s
/// `AudioDevice.prepare`) must not make a second one once the open has taken the first.
static atomic_int began_in_background;

static void preconnect(const char *application, unsigned timeout_ms) {
    if (!haptics_pulse_available() || strlen(application) >= sizeof preconnected.application) return;
    pthread_mutex_lock(&preconnected.lock);
    int busy = preconnected.connecting || preconnected.context;
    if (!busy) {
        preconnected.connecting = 1;
        preconnected.outcome = 0;
        strcpy(preconnected.application, application);
    }
    pthread_mutex_unlock(&preconnected.lock);
    if (busy) return;
    // A stream in all but its stream, for `wait_until` and `has_failed`.
    haptics_pulse_stream connection = {.wake_fd = -1};
    connection.mainloop = pulse.pa_mainloop_new();
    connection.context =
        connection.mainloop ? pulse.pa_context_new(pulse.pa_mainloop_get_api(connection.mainloop), application) : NULL;
    int outcome = -1;
    if (connection.context && pulse.pa_context_connect(connection.context, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) >= 0) {
        outcome = wait_until(&connection, context_ready, monotonic_us() + (long long)timeout_ms * 1000);
    }
    if (outcome != 0) {
        // The open connects again and says why it cannot.
        if (connection.context) {
            pulse.pa_context_disconnect(connection.context);
            pulse.pa_context_unref(connection.context);
        }
        if (connection.mainloop) pulse.pa_mainloop_free(connection.mainloop);
        connection.mainloop = NULL;
        connection.context = NULL;
    }
    pthread_mutex_lock(&preconnected.lock);
    preconnected.mainloop = connection.mainloop;
    preconnected.context = connection.context;
    preconnected.outcome = outcome;
    preconnected.connecting = 0;
    pthread_cond_broadcast(&preconnected.changed);
    pthread_mutex_unlock(&preconnected.lock);
}

void haptics_pulse_preconnect(const char *application, unsigned timeout_ms) {
    if (!atomic_load(&began_in_background)) preconnect(application, timeout_ms);
}

static void *preconnect_thread(void *unused) {
    (void)unused;
    preconnect(HAPTICS_PULSE_APPLICATION, HAPTICS_PULSE_OPEN_TIMEOUT_MS);
    return NULL;
}

int haptics_pulse_connects_in_background(void) { return atomic_load(&began_in_background); }

void haptics_pulse_preconnect_in_background(void) {
    atomic_store(&began_in_background, 1);
    pthread_t thread;
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    // Real-time where allowed (root, an rtprio limit), as the start boost raises `play`: the
    // start waits for this connection. A process that is real-time already (the user's
    // `chrt`) passes its own priority on.
    int policy = sched_getscheduler(0);
    struct sched_param parameters = {.sched_priority = 1};
    int started = policy != SCHED_FIFO && policy != SCHED_RR && pthread_attr_setinheritsched(&attributes, PTHREAD_EXPLICIT_SCHED) == 0 &&
                  pthread_attr_setschedpolicy(&attributes, SCHED_FIFO) == 0 && pthread_attr_setschedparam(&attributes, &parameters) == 0 &&
                  pthread_create(&thread, &attributes, preconnect_thread, NULL) == 0;
    if (!started) {
        pthread_attr_setinheritsched(&attributes, PTHREAD_INHERIT_SCHED);
        pthread_create(&thread, &attributes, preconnect_thread, NULL);
    }
    pthread_attr_destroy(&attributes);
}

/// Takes the connection `haptics_pulse_preconnect` made for `application` into `s`, once it
/// is made: 1; -2 when it found the server not answering in time (once); else 0 (none, it
/// failed, or it is another application's).
static int take_preconnected(haptics_pulse_stream *s, const char *application) {
    pthread_mutex_lock(&preconnected.lock);
    while (preconnected.connecting) pthread_cond_wait(&preconnected.changed, &preconnected.lock);
    int mine = strcmp(preconnected.application, application) == 0;
    int taken = 0;
    if (mine && preconnected.context && pulse.pa_context_get_state(preconnected.context) == PA_CONTEXT_READY) {
        s->mainloop = preconnected.mainloop;
        s->context = preconnected.context;
        preconnected.mainloop = NULL;
        preconnected.context = NULL;
        taken = 1;
    } else if (mine && preconnected.outcome == -2) {
        taken = -2;
    }
    preconnected.outcome = 0;
    pthread_mutex_unlock(&preconnected.lock);
    return taken;
}

haptics_pulse_stream *haptics_pulse_open(const char *application, unsigned rate, unsigned channels, unsigned buffer_frames,
                                         unsigned period_frames, unsigned timeout_ms, char *message, size_t message_size) {
    if (!haptics_pulse_available()) {
        snprintf(message, message_size, "libpulse is not installed (Debian/Ubuntu: apt-get install libpulse0)");
        return NULL;
    }
    haptics_pulse_stream *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    s->frame_bytes = sizeof(float) * channels;
    s->rate = rate;
    s->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    int connected = take_preconnected(s, application);
    if (connected != 1) {
        s->mainloop = pulse.pa_mainloop_new();
        s->context = s->mainloop ? pulse.pa_context_new(pulse.pa_mainloop_get_api(s->mainloop), application) : NULL;
    }
    if (!s->context) {
        snprintf(message, message_size, "cannot create a libpulse context");
        if (s->mainloop) pulse.pa_mainloop_free(s->mainloop);
        if (s->wake_fd >= 0) close(s->wake_fd);
        free(s);
        return NULL;
    }
    long long deadline = monotonic_us() + (long long)timeout_ms * 1000;
    int waited = 0;
    const char *problem = NULL;
    if (connected == 1) {
        // Made on the loading thread while this one read and compiled the pattern.
    } else if (connected == -2) {
        // The loading thread waited the whole timeout for the server already.
        waited = -2;
        problem = "cannot connect to the sound server";
    } else if (pulse.pa_context_connect(s->context, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) {
        problem = "cannot connect to the sound server";
    } else if ((waited = wait_until(s, context_ready, deadline)) != 0) {
        problem = "cannot connect to the sound server";
    }
    if (!problem) {
        pa_sample_spec spec = {.format = PA_SAMPLE_FLOAT32NE, .rate = rate, .channels = (uint8_t)channels};
        s->stream = pulse.pa_stream_new(s->context, application, &spec, NULL);
        if (!s->stream) problem = "the sound server refused the stream";
    }
    if (!problem) {
        pulse.pa_stream_set_underflow_callback(s->stream, stream_underflowed, s);
        pa_buffer_attr attributes = {
            .maxlength = (uint32_t)-1,
            .tlength = (uint32_t)(buffer_frames * s->frame_bytes),
            // Playback starts once a period is queued, as on an ALSA device.
            .prebuf = (uint32_t)(period_frames * s->frame_bytes),
            .minreq = (uint32_t)(period_frames * s->frame_bytes),
            .fragsize = (uint32_t)-1,
        };
        // Requests a period at a time, as ALSA's plugin asks: the buffer is then the one asked
        // for (ADJUST_LATENCY let the server shrink it, and the low-latency stream underran).
        // No automatic timing updates: they allocate on the writing thread (see `written`).
        pa_stream_flags_t flags = PA_STREAM_EARLY_REQUESTS;
        if (pulse.pa_stream_connect_playback(s->stream, NULL, &attributes, flags, NULL, NULL) < 0) {
            problem = "the sound server refused the stream";
        } else if ((waited = wait_until(s, stream_ready, deadline)) != 0) {
            problem = "the sound server refused the stream";
        }
    }
    if (problem) {
        int code = pulse.pa_context_errno(s->context);
        if (waited == -2) {
            snprintf(message, message_size, "the sound server did not answer within %u ms", timeout_ms);
        } else if (code) {
            snprintf(message, message_size, "%s: %s", problem, pulse.pa_strerror(code));
        } else {
            snprintf(message, message_size, "%s", problem);
        }
        haptics_pulse_close(s);
        return NULL;
    }
    const pa_buffer_attr *granted = pulse.pa_stream_get_buffer_attr(s->stream);
    s->buffer_frames = granted ? (unsigned)(granted->tlength / s->frame_bytes) : buffer_frames;
    s->period_frames = granted ? (unsigned)(granted->minreq / s->frame_bytes) : period_frames;
    s->sink_frames = sink_latency(s, deadline);
    s->stage = malloc((size_t)s->buffer_frames * s->frame_bytes);
    s->room = pulse.pa_stream_writable_size(s->stream);
    long long period_us = (long long)s->period_frames * 1000000 / rate;
    s->pace_margin_us = period_us / 3 > 500 ? period_us / 3 : 500;
    return s;
}

unsigned haptics_pulse_buffer_frames(const haptics_pulse_stream *s) { return s->buffer_frames; }
unsigned haptics_pulse_period_frames(const haptics_pulse_stream *s) { return s->period_frames; }

/// Where the server reads now on the `written` timeline, by the stream's rate since the anchor.
static long long read_position(haptics_pulse_stream *s, long long now_us) {
    long long read = s->read_anchor;
    if (s->playing) read += (now_us - s->anchor_us) * (long long)s->rate / 1000000;
    long long floor = s->written - (long long)s->buffer_frames;
    if (read < floor) read = floor;
    return read < s->written ? read : s->written;
}

/// Moves the anchor to `read` now.
static void anchor(haptics_pulse_stream *s, long long read, long long now_us) {
    s->read_anchor = read;
    s->anchor_us = now_us;
}

/// After the main loop ran: a request (more room) says how much the server holds, hence where
/// it reads (libpulse's count of room is the server's, less the writes on their way). The
/// anchor moves an eighth of the way there (`pull` 8), so that the sink reading in blocks does
/// not jerk the clock while a rate that differs from the monotonic clock's is followed; all the
/// way (`pull` 1) when a paced wait takes the request as it comes (see `pace_until_resync`);
/// not at all (0) after a paced sleep, which read the request some time after it came. 1 when
/// the room grew.
static int observe_room(haptics_pulse_stream *s, int pull) {
    size_t room = pulse.pa_stream_writable_size(s->stream);
    if (room == (size_t)-1) return 0;
    size_t previous = s->room;
    s->room = room;
    size_t buffer = (size_t)s->buffer_frames * s->frame_bytes;
    if (room <= previous || room >= buffer || !s->playing) return 0;
    if (pull == 0) return 1;
    long long now = monotonic_us();
    long long reported = s->written - (long long)((buffer - room) / s->frame_bytes);
    long long read = read_position(s, now);
    anchor(s, read + (reported - read) / pull, now);
    return 1;
}

/// Frames written and not yet heard: those the server holds and the sink's own latency.
static long current_delay(haptics_pulse_stream *s) {
    return (long)(s->written - read_position(s, monotonic_us())) + s->sink_frames;
}

void haptics_pulse_skip_queued(haptics_pulse_stream *s) {
    if (!has_failed(s)) s->seek_to_read = 1;
}

/// Writing thread: drops what is queued if a stop came since the last look; 1 if one had.
static int handle_stop(haptics_pulse_stream *s) {
    unsigned stops = atomic_load_explicit(&s->stops, memory_order_acquire);
    if (stops == s->stops_handled) return 0;
    s->stops_handled = stops;
    if (!has_failed(s)) {
        // Not waited for: a frozen server would never confirm it.
        pa_operation *operation = pulse.pa_stream_flush(s->stream, NULL, NULL);
        if (operation) pulse.pa_operation_unref(operation);
        pulse.pa_mainloop_iterate(s->mainloop, 0, NULL);
    }
    // Nothing is queued now; playback starts again with the next write.
    s->staging = 0;
    s->staged = 0;
    anchor(s, s->written, monotonic_us());
    s->playing = 0;
    s->room = pulse.pa_stream_writable_size(s->stream);
    return 1;
}

/// Records why the server refused samples; -1.
static long refused(haptics_pulse_stream *s) {
    if (!has_failed(s)) {
        snprintf(s->failure, sizeof s->failure, "the sound server refused the samples: %s",
                 pulse.pa_strerror(pulse.pa_context_errno(s->context)));
    }
    return -1;
}

/// Sends the staged buffer over the queued silence: the server places it at the next frame its
/// sink reads from the stream (relative to its read index when it arrives, so never behind
/// it), and asks for what the seek freed. 0, or -1 when the server refused it.
static int send_staged(haptics_pulse_stream *s) {
    s->staging = 0;
    if (pulse.pa_stream_write(s->stream, s->stage, s->staged, NULL, 0, PA_SEEK_RELATIVE_ON_READ) < 0) return -1;
    s->staged = 0;
    s->room = pulse.pa_stream_writable_size(s->stream);
    return 0;
}

void haptics_pulse_send_staged(haptics_pulse_stream *s) {
    if (s->staging && s->staged > 0 && !has_failed(s)) {
        if (send_staged(s) < 0) refused(s);
        pulse.pa_mainloop_iterate(s->mainloop, 0, NULL);
    }
    s->staging = 0;
}

long haptics_pulse_write(haptics_pulse_stream *s, const float *samples, size_t frames) {
    handle_stop(s);
    const char *bytes = (const char *)samples;
    size_t total = frames * s->frame_bytes, done = 0;
    if (s->seek_to_read && s->stage) {
        // Over the silence still queued: the server reads on from these frames, and the
        // silence skipped drops out of the timeline.
        s->seek_to_read = 0;
        s->staging = 1;
        s->staged = 0;
        s->playing = 1;
        anchor(s, s->written, monotonic_us());
    }
    while (done < total) {
        if (handle_stop(s)) break;
        if (has_failed(s)) return -1;
        if (s->staging) {
            size_t buffer = (size_t)s->buffer_frames * s->frame_bytes;
            size_t count = total - done < buffer - s->staged ? total - done : buffer - s->staged;
            memcpy(s->stage + s->staged, bytes + done, count);
            s->staged += count;
            done += count;
            s->written += (long long)(count / s->frame_bytes);
            if (s->staged == buffer && send_staged(s) < 0) return refused(s);
            continue;
        }
        size_t writable = pulse.pa_stream_writable_size(s->stream);
        if (writable == (size_t)-1) {
            has_failed(s);
            return -1;
        }
        size_t count = total - done < writable ? total - done : writable;
        count -= count % s->frame_bytes;
        if (count == 0) {
            // Until the server asks for more, the connection changes, or a stop interrupts.
            if (run_once(s, -1) < 0) return -1;
            observe_room(s, 8);
            continue;
        }
        if (pulse.pa_stream_write(s->stream, bytes + done, count, NULL, 0, PA_SEEK_RELATIVE) < 0) return refused(s);
        if (!s->playing) {
            // The server plays once a period is queued: about now.
            s->playing = 1;
            anchor(s, s->written, monotonic_us());
        }
        done += count;
        s->written += (long long)(count / s->frame_bytes);
        s->room = pulse.pa_stream_writable_size(s->stream);
    }
    // Sends what was queued now rather than at the next wait, and reads what came meanwhile.
    if (pulse.pa_mainloop_iterate(s->mainloop, 0, NULL) < 0) {
        if (s->failure[0] == 0) snprintf(s->failure, sizeof s->failure, "libpulse's main loop failed");
        return -1;
    }
    observe_room(s, 8);
    atomic_store_explicit(&s->delay, current_delay(s), memory_order_relaxed);
    return (long)(done / s->frame_bytes);
}

long long haptics_pulse_room_time(long long written, long long read_anchor, long long anchor_us, unsigned buffer_frames,
                                  unsigned rate, size_t frames) {
    long long wanted = written - (long long)buffer_frames + (long long)frames - read_anchor;
    if (wanted <= 0 || rate == 0) return anchor_us;
    return anchor_us + (wanted * 1000000 + rate - 1) / (long long)rate;
}

/// Sleeps until `until_us` on the wait's own wake-up alone (not the server's socket), ending
/// at once when a stop or an interrupt signals it: 1 then, 0 at the time.
static int sleep_on_wake_fd(haptics_pulse_stream *s, long long until_us) {
    long long left = until_us - monotonic_us();
    if (left <= 0) return 0;
    struct timespec timeout = {.tv_sec = left / 1000000, .tv_nsec = (left % 1000000) * 1000};
    struct pollfd wake = {.fd = s->wake_fd, .events = POLLIN};
    if (ppoll(&wake, 1, &timeout, NULL) <= 0) return 0;
    uint64_t count;
    // Emptied: what it said is in the counters, looked at next.
    if (read(s->wake_fd, &count, sizeof count) < 0) {}
    return 1;
}

/// Dispatches, without blocking, everything the server sent meanwhile (requests and the
/// shared memory's releases alike, however many packets). 0, or -1 when the loop failed.
static int dispatch_pending(haptics_pulse_stream *s) {
    // `pa_mainloop_iterate` returns how many sources it dispatched: none, all is read.
    for (int round = 0; round < 16; round++) {
        int dispatched = pulse.pa_mainloop_iterate(s->mainloop, 0, NULL);
        if (dispatched < 0) {
            if (s->failure[0] == 0) snprintf(s->failure, sizeof s->failure, "libpulse's main loop failed");
            return -1;
        }
        if (dispatched == 0) break;
    }
    return 0;
}

int haptics_pulse_wait_for_room(haptics_pulse_stream *s, size_t frames) {
    size_t wanted = frames * s->frame_bytes;
    // Pacing: while the model of the server's read position can tell when the room will be
    // there, sleep until then (plus a margin) on the wait's own wake-up, then read everything
    // that came in one pass. Waiting on the socket instead woke the thread for each packet:
    // the server's request for a period, and apart from it, about one period in three, the
    // shared memory's release of the blocks it read (200 wake-ups a second on a 150/s period).
    // A wake before the request, and now and then a wait that takes the request as it comes,
    // anchor the model on the request (`precise`).
    int paced = 0, precise = 0;
    while (1) {
        if (handle_stop(s)) return 0;
        unsigned interrupts = atomic_load_explicit(&s->interrupts, memory_order_acquire);
        if (interrupts != s->interrupts_handled) {
            s->interrupts_handled = interrupts;
            return 0;
        }
        if (has_failed(s)) return -1;
        size_t writable = pulse.pa_stream_writable_size(s->stream);
        if (writable == (size_t)-1) return -1;
        if (writable >= wanted || s->staging) {
            if (paced && !precise) {
                atomic_fetch_add_explicit(&s->paced_wakes, 1, memory_order_relaxed);
                // Two requests or more: it slept past one, so the model runs late.
                if (writable >= wanted + (size_t)s->period_frames * s->frame_bytes) s->pace_until_resync = 0;
            }
            return 0;
        }
        if (!paced && s->playing && s->wake_fd >= 0) {
            paced = 1;
            long long due = haptics_pulse_room_time(s->written, s->read_anchor, s->anchor_us, s->buffer_frames, s->rate, frames) +
                            s->pace_margin_us;
            if (s->pace_until_resync > 0 && due > monotonic_us()) {
                if (sleep_on_wake_fd(s, due)) {
                    // A stop or an interrupt (acted on above), or one already acted on: then
                    // paced again, until the same time.
                    paced = 0;
                    continue;
                }
                s->pace_until_resync--;
                if (dispatch_pending(s) < 0) return -1;
                observe_room(s, 0);
                continue;
            }
            precise = 1;
            atomic_fetch_add_explicit(&s->precise_waits, 1, memory_order_relaxed);
        } else if (paced && !precise) {
            // Woke before the room: the model runs early. Wait for the request, anchor on it.
            precise = 1;
            atomic_fetch_add_explicit(&s->early_wakes, 1, memory_order_relaxed);
        }
        if (run_once(s, -1) < 0) return -1;
        if (observe_room(s, precise ? 1 : 8) && precise) s->pace_until_resync = pace_resync_every;
    }
}

void haptics_pulse_interrupt_wait(haptics_pulse_stream *s) {
    atomic_fetch_add_explicit(&s->interrupts, 1, memory_order_release);
    signal_wake(s);
    pulse.pa_mainloop_wakeup(s->mainloop);
}

unsigned haptics_pulse_paced_wakes(const haptics_pulse_stream *s) {
    return atomic_load_explicit(&((haptics_pulse_stream *)s)->paced_wakes, memory_order_relaxed);
}

unsigned haptics_pulse_early_wakes(const haptics_pulse_stream *s) {
    return atomic_load_explicit(&((haptics_pulse_stream *)s)->early_wakes, memory_order_relaxed);
}

unsigned haptics_pulse_precise_waits(const haptics_pulse_stream *s) {
    return atomic_load_explicit(&((haptics_pulse_stream *)s)->precise_waits, memory_order_relaxed);
}

long haptics_pulse_delay(haptics_pulse_stream *s) { return atomic_load_explicit(&s->delay, memory_order_relaxed); }

long haptics_pulse_queued(haptics_pulse_stream *s) {
    // Reads what the server said since the last write (its requests free up room).
    pulse.pa_mainloop_iterate(s->mainloop, 0, NULL);
    const pa_buffer_attr *attributes = pulse.pa_stream_get_buffer_attr(s->stream);
    size_t writable = pulse.pa_stream_writable_size(s->stream);
    if (!attributes || writable == (size_t)-1 || writable >= attributes->tlength) return 0;
    return (long)((attributes->tlength - writable) / s->frame_bytes);
}

void haptics_pulse_flush(haptics_pulse_stream *s) {
    // Taken at the next write, if any: flushing now would allocate libpulse's operation on the
    // writing thread, and after a drain the engine closes the stream, which drops it anyway.
    atomic_fetch_add_explicit(&s->stops, 1, memory_order_release);
}

void haptics_pulse_stop(haptics_pulse_stream *s) {
    atomic_fetch_add_explicit(&s->stops, 1, memory_order_release);
    signal_wake(s);
    pulse.pa_mainloop_wakeup(s->mainloop);
}

unsigned haptics_pulse_underflows(const haptics_pulse_stream *s) {
    return atomic_load_explicit(&((haptics_pulse_stream *)s)->underflows, memory_order_acquire);
}

const char *haptics_pulse_failure(haptics_pulse_stream *s) { return s->failure; }

void haptics_pulse_close(haptics_pulse_stream *s) {
    if (!s) return;
    if (s->stream) {
        pulse.pa_stream_set_underflow_callback(s->stream, NULL, NULL);
        pulse.pa_stream_disconnect(s->stream);
        pulse.pa_stream_unref(s->stream);
    }
    pulse.pa_context_disconnect(s->context);
    pulse.pa_context_unref(s->context);
    pulse.pa_mainloop_free(s->mainloop);
    if (s->wake_fd >= 0) close(s->wake_fd);
    free(s->stage);
    free(s);
}

int haptics_pulse_server_answers(const char *server, unsigned timeout_ms, char *message, size_t message_size) {
    if (!haptics_pulse_available()) {
        snprintf(message, message_size, "libpulse is not installed (Debian/Ubuntu: apt-get install libpulse0)");
        return -1;
    }
    haptics_pulse_stream *s = calloc(1, sizeof *s);
    if (!s) return -1;
    s->wake_fd = -1;
    s->mainloop = pulse.pa_mainloop_new();
    s->context = s->mainloop ? pulse.pa_context_new(pulse.pa_mainloop_get_api(s->mainloop), "haptics") : NULL;
    if (!s->context) {
        snprintf(message, message_size, "cannot create a libpulse context");
        if (s->mainloop) pulse.pa_mainloop_free(s->mainloop);
        free(s);
        return -1;
    }
    long long deadline = monotonic_us() + (long long)timeout_ms * 1000;
    int answered = 0;
    if (pulse.pa_context_connect(s->context, server, PA_CONTEXT_NOAUTOSPAWN, NULL) >= 0) {
        int waited = wait_until(s, context_ready, deadline);
        answered = waited == 0;
        if (waited == -2) snprintf(message, message_size, "the sound server did not answer within %u ms", timeout_ms);
    }
    if (!answered && (!message[0])) {
        int code = pulse.pa_context_errno(s->context);
        snprintf(message, message_size, "%s", code ? pulse.pa_strerror(code) : "no sound server");
    }
    haptics_pulse_close(s);
    return answered;
}
