#ifndef HAPTICS_CPULSE_H
#define HAPTICS_CPULSE_H

#include <stddef.h>

/// A Float32 playback stream on a PulseAudio server (or PipeWire's), driven through libpulse's
/// main loop by the one thread that writes: a blocking write that `haptics_pulse_stop` can cut
/// short from any thread, and the stream's latency and fill. Every function but
/// `haptics_pulse_stop` belongs to the writing thread (or to one thread at a time). libpulse is opened on first use, not linked, so
/// the program runs where it is not installed.
typedef struct haptics_pulse_stream haptics_pulse_stream;

/// Whether libpulse could be loaded: 1 or 0.
int haptics_pulse_available(void);

/// Whether a sound server answers at `server` (NULL: where libpulse looks, `$PULSE_SERVER`,
/// `$PULSE_RUNTIME_PATH`, the user's runtime folder; never started): 1, 0 with the reason in
/// `message` (which the caller empties first), -1 when libpulse is missing. Waits at most
/// `timeout_ms`.
int haptics_pulse_server_answers(const char *server, unsigned timeout_ms, char *message, size_t message_size);

/// Connects to the server ahead of `haptics_pulse_open` (loading libpulse first), on a thread
/// of the caller's that would otherwise wait: the next open for the same `application` takes
/// the connection, waiting for it if it is still being made, and connects itself when this
/// one failed (so that it reports why). Does nothing while another connection is made or
/// waits, when libpulse is missing, or once `haptics_pulse_preconnect_in_background` made the
/// program's connection ahead. Waits for the server at most `timeout_ms`.
void haptics_pulse_preconnect(const char *application, unsigned timeout_ms);

/// The client name the server lists for this program's streams.
#define HAPTICS_PULSE_APPLICATION "haptics"
/// How long opening (or connecting ahead) waits for the server: a frozen one never answers.
#define HAPTICS_PULSE_OPEN_TIMEOUT_MS 3000u

/// `haptics_pulse_preconnect(HAPTICS_PULSE_APPLICATION, HAPTICS_PULSE_OPEN_TIMEOUT_MS)` on a
/// thread of its own, returning at once: for a program's constructor, which knows from its
/// command line that it will play on the server before the rest of the program has started
/// (`haptics play --device pulse`). The thread runs at real-time priority 1 where the system
/// allows it, as `play`'s start does; its work is bounded (a load and a handshake).
void haptics_pulse_preconnect_in_background(void);

/// Whether `haptics_pulse_preconnect_in_background` was called in this process: 1 or 0.
int haptics_pulse_connects_in_background(void);

/// Connects to the server (`$PULSE_SERVER`, else the user's default) and opens a playback
/// stream on its default sink with a buffer of about `buffer_frames`, refilled `period_frames`
/// at a time; playback starts once a period is queued. Waits for the server at most
/// `timeout_ms`. Returns NULL on failure, with the reason in `message`.
haptics_pulse_stream *haptics_pulse_open(
    const char *application, unsigned rate, unsigned channels, unsigned buffer_frames, unsigned period_frames,
    unsigned timeout_ms, char *message, size_t message_size);

/// The buffer and period the server granted, in frames.
unsigned haptics_pulse_buffer_frames(const haptics_pulse_stream *stream);
unsigned haptics_pulse_period_frames(const haptics_pulse_stream *stream);

/// Queues `frames` interleaved frames, blocking while the buffer is full. Returns the frames
/// queued: all of them, or fewer when `haptics_pulse_stop` was called meanwhile; -1 when the
/// connection or the stream failed (see `haptics_pulse_failure`).
long haptics_pulse_write(haptics_pulse_stream *stream, const float *samples, size_t frames);

/// Writing thread: the next write goes over the (silent) frames still queued in the server,
/// starting at the next frame its sink reads from the stream, so that it is heard that much
/// sooner. The frames skipped are never played.
void haptics_pulse_skip_queued(haptics_pulse_stream *stream);

/// Writing thread: waits until `frames` may be written without blocking, a stop, or
/// `haptics_pulse_interrupt_wait` (one given while not waiting ends the next wait at once).
/// 0, or -1 when the connection or the stream failed. While the stream plays, the wait is
/// paced: it sleeps until `haptics_pulse_room_time` and a margin, then reads all the server
/// sent meanwhile at once (one wake-up a period while idle, not one for each packet).
int haptics_pulse_wait_for_room(haptics_pulse_stream *stream, size_t frames);

/// From any thread: ends the writing thread's `haptics_pulse_wait_for_room`.
void haptics_pulse_interrupt_wait(haptics_pulse_stream *stream);

/// When the server will have read far enough for `frames` to fit (the monotonic clock, in
/// microseconds), by the model of its read position that the stream keeps: it read
/// `read_anchor` frames of the `written` at `anchor_us` and reads on at `rate`, and a request
/// for room comes when the buffer of `buffer_frames` holds no more than its length less
/// `frames`. `anchor_us` when that is already so. The paced wait sleeps until then plus a margin.
long long haptics_pulse_room_time(
    long long written, long long read_anchor, long long anchor_us, unsigned buffer_frames, unsigned rate, size_t frames);

/// How many of `haptics_pulse_wait_for_room`'s waits were paced by the clock and found their
/// room at the first wake-up, how many woke too early and waited on for the server, and how
/// many (while the stream played) were not paced but took the server's request as it came, to
/// anchor the model on it: one in 1,024, and the one after a wake that found two periods' room.
unsigned haptics_pulse_paced_wakes(const haptics_pulse_stream *stream);
unsigned haptics_pulse_early_wakes(const haptics_pulse_stream *stream);
unsigned haptics_pulse_precise_waits(const haptics_pulse_stream *stream);

/// Writing thread: sends at once what a write over the queued silence gathered (it goes out
/// when a buffer is gathered; a drain sends it sooner).
void haptics_pulse_send_staged(haptics_pulse_stream *stream);

/// Frames written and not yet heard (the stream's buffer and the server's own latency) at the
/// end of the last write; 0 while the server has not said.
long haptics_pulse_delay(haptics_pulse_stream *stream);

/// Frames in the stream's buffer: its target length less what may be written now.
long haptics_pulse_queued(haptics_pulse_stream *stream);

/// From any thread: a blocked write returns, and the writing thread drops what is queued at its
/// next call.
void haptics_pulse_stop(haptics_pulse_stream *stream);

/// Writing thread: what is queued is dropped at the next write (closing drops it too); no
/// heap call now.
void haptics_pulse_flush(haptics_pulse_stream *stream);

/// How many times the buffer ran dry since opening (the server then waits for a period to be
/// queued before it plays again).
unsigned haptics_pulse_underflows(const haptics_pulse_stream *stream);

/// Why the connection or the stream failed; "" while they work.
const char *haptics_pulse_failure(haptics_pulse_stream *stream);

/// Disconnects and frees the stream; no write may be in progress.
void haptics_pulse_close(haptics_pulse_stream *stream);

#endif
