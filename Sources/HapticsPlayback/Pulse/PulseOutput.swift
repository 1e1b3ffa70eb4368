internal import CPulse
import Glibc
import Synchronization

/// A playback stream on the user's PulseAudio server (or PipeWire's), through libpulse: what
/// the device name `pulse` plays on when libpulse is installed.
///
/// ALSA's `pulse` device reaches the same server through alsa-lib's plugin layer and a second
/// thread, which cost 3.5× the CPU of the stream itself and a second connection at start-up;
/// here the audio thread runs libpulse's main loop itself (see `CPulse/pulse.c`). The behaviour is the
/// ALSA output's: Float32 frames, a buffer of about `latency` refilled a period (a third of it,
/// at most 2.5 ms of a buffer of 10 ms or less) at a time, playback starting once a period is queued, a 1 ms fade-in after a stop, and
/// ``AudioOutputError/deviceLost(device:reason:)`` when the server goes away.
///
/// See ``AudioOutput`` for which thread may call what.
package final class PulseOutput: AudioOutput, @unchecked Sendable {
    /// The device name this output answers to.
    package static let deviceName = "pulse"
    /// Whether a sound server answers, asked of libpulse: at `server` (a libpulse address such
    /// as `unix:/run/user/1000/pulse/native`), or where libpulse itself looks when nil
    /// (`PULSE_SERVER`, `PULSE_RUNTIME_PATH`, the user's runtime folder). Nil when libpulse is
    /// not installed; otherwise whether it answered within `timeoutMilliseconds`, and why not.
    package static func serverAnswers(at server: String? = nil, timeoutMilliseconds: UInt32 = 500) -> (answers: Bool, reason: String)? {
        var message = [CChar](repeating: 0, count: 256)
        let result = message.withUnsafeMutableBufferPointer { buffer in
            if let server {
                return server.withCString { haptics_pulse_server_answers($0, timeoutMilliseconds, buffer.baseAddress, buffer.count) }
            }
            return haptics_pulse_server_answers(nil, timeoutMilliseconds, buffer.baseAddress, buffer.count)
        }
        guard result >= 0 else { return nil }
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (result == 1, reason)
    }

    /// How long opening waits for the server: a frozen one never answers.
    static let openTimeoutMilliseconds: UInt32 = HAPTICS_PULSE_OPEN_TIMEOUT_MS

    package let sampleRate: Int
    package let channelCount: Int
    package let periodFrames: Int
    package let bufferFrames: Int

    /// Times the buffer ran dry since opening (the server plays on once a period is queued;
    /// the signal fades in), for diagnostics.
    package var underflowCount: Int { Int(haptics_pulse_underflows(stream)) }

    // @unchecked Sendable: the stream (libpulse's main loop, run by the writing thread), the
    // fade and the scratch buffer belong to the audio thread; stop() only sets a flag and
    // interrupts the loop's poll; close() must not overlap a write.
    private let stream: OpaquePointer
    private let closed = Atomic<Bool>(false)
    /// Bumped by every stop(), so the next write fades in.
    private let stops = Atomic<Int>(0)
    private var stopsSeen = 0
    private var underflowsSeen: UInt32 = 0
    private var fade: ALSAFadeIn
    private let scratchFrames: Int
    private let scratch: UnsafeMutablePointer<Float>

    /// Whether libpulse is installed (it is loaded on first use).
    package static var isAvailable: Bool { haptics_pulse_available() != 0 }

    /// The client name the server lists for the stream.
    static var applicationName: String { HAPTICS_PULSE_APPLICATION }

    /// Loads libpulse and connects to the server ahead of the first ``init(sampleRate:channelCount:latency:)``,
    /// which takes the connection (waiting for it if it is still being made): for a thread
    /// that would otherwise wait while the caller reads and compiles its pattern. A failed
    /// connection is made again by the open, which says why.
    package static func connectAhead() {
        haptics_pulse_preconnect(applicationName, openTimeoutMilliseconds)
    }

    /// Whether the program's constructor began connecting ahead already (`haptics play
    /// --device pulse`: see `CStartup/connect_early.c`), so that ``connectAhead()`` has nothing
    /// to do.
    package static var connectsEarly: Bool { haptics_pulse_connects_in_background() != 0 }

    /// Connects to the server and opens a stream on its default sink.
    ///
    /// - Throws: ``AudioOutputError/deviceUnavailable(device:reason:)`` when libpulse is
    ///   missing or the server cannot be reached, refuses the stream or does not answer;
    ///   ``AudioOutputError/unsupportedConfiguration(device:reason:)`` for a rate or channel
    ///   count no server plays.
    package init(sampleRate: Int, channelCount: Int, latency: Duration = .milliseconds(20)) throws(AudioOutputError) {
        let device = Self.deviceName
        guard (1...384_000).contains(sampleRate) else {
            throw .unsupportedConfiguration(device: device, reason: "sample rate \(sampleRate) Hz is out of range")
        }
        guard (1...32).contains(channelCount) else {
            throw .unsupportedConfiguration(device: device, reason: "channel count \(channelCount) is out of range")
        }
        guard latency > .zero else { throw .unsupportedConfiguration(device: device, reason: "latency must be positive") }
        let seconds = Double(latency.components.seconds) + Double(latency.components.attoseconds) * 1e-18
        // Periods as on an ALSA device: a third of the buffer, at most 2.5 ms of a short one.
        let buffer = max(3, Int((seconds * Double(sampleRate)).rounded()))
        let period = max(1, buffer / Int(ALSAConfiguration.periods(forBuffer: seconds)))
        var message = [CChar](repeating: 0, count: 256)
        let opened = haptics_pulse_open(
            Self.applicationName, UInt32(sampleRate), UInt32(channelCount), UInt32(buffer), UInt32(period), Self.openTimeoutMilliseconds,
            &message, message.count)
        guard let opened else {
            throw .deviceUnavailable(device: device, reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        stream = opened
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        bufferFrames = Int(haptics_pulse_buffer_frames(opened))
        periodFrames = max(1, Int(haptics_pulse_period_frames(opened)))
        fade = ALSAFadeIn(length: (sampleRate + 999) / 1000)
        scratchFrames = max(periodFrames, 256)
        scratch = .allocate(capacity: scratchFrames * channelCount)
    }

    deinit {
        close()
        scratch.deallocate()
    }

    // MARK: Audio thread

    package func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioOutputError) {
        guard !closed.load(ordering: .acquiring) else {
            throw .deviceLost(device: Self.deviceName, reason: "the device was closed")
        }
        guard let base = samples.baseAddress else { return }
        // What follows a stop, or a buffer that ran dry, fades in rather than jumping from
        // silence.
        let stopsAtStart = stops.load(ordering: .acquiring)
        let underflows = haptics_pulse_underflows(stream)
        if stopsAtStart != stopsSeen || underflows != underflowsSeen {
            stopsSeen = stopsAtStart
            underflowsSeen = underflows
            fade.arm()
        }
        let totalFrames = samples.count / channelCount
        var done = 0
        while done < totalFrames {
            var source = base + done * channelCount
            var frames = totalFrames - done
            if fade.isActive {
                frames = min(frames, scratchFrames)
                ALSASampleConversion.copy(source, frames: frames, channels: channelCount, into: scratch, fade: &fade)
                source = UnsafePointer(scratch)
            }
            let written = haptics_pulse_write(stream, source, frames)
            if written < 0 {
                throw .deviceLost(device: Self.deviceName, reason: String(cString: haptics_pulse_failure(stream)))
            }
            // Fewer frames than asked: stop() was called meanwhile, and the rest is dropped.
            if written < frames { return }
            done += frames
        }
    }

    /// The next write starts at the next frame the server's sink reads from the stream, over
    /// the (silent) frames queued before it: see ``QueuedSilenceSkipping``.
    func skipQueuedSilence() {
        guard !closed.load(ordering: .acquiring) else { return }
        haptics_pulse_skip_queued(stream)
        skips.add(1, ordering: .relaxed)
    }

    /// Audio thread: waits until `frames` can be written without blocking, a stop, or
    /// ``interruptWait()`` (the engine's idle wait: a start renders at once rather than after
    /// the server's next request, up to a period later). While the stream plays it sleeps until
    /// the room is due by the stream's model of the server's read position, then reads all the
    /// server sent: one wake-up a period (see `haptics_pulse_wait_for_room`).
    func waitForRoom(frames: Int) {
        guard !closed.load(ordering: .acquiring) else { return }
        _ = haptics_pulse_wait_for_room(stream, frames)
    }

    /// Any thread: ends ``waitForRoom(frames:)`` (or the next one, when none is under way).
    func interruptWait() {
        guard !closed.load(ordering: .acquiring) else { return }
        haptics_pulse_interrupt_wait(stream)
    }

    /// How many of ``waitForRoom(frames:)``'s waits slept until the time the stream's model of
    /// the server's read position gave and found the room there, how many woke too early and
    /// waited on for the server's request, and how many took the request as it came to anchor
    /// the model on it (diagnostics, tests).
    package var pacedWaits: (onTime: Int, early: Int, precise: Int) {
        (Int(haptics_pulse_paced_wakes(stream)), Int(haptics_pulse_early_wakes(stream)), Int(haptics_pulse_precise_waits(stream)))
    }

    /// How many writes went over the queued silence (``skipQueuedSilence()``), for tests.
    var skippedStarts: Int { skips.load(ordering: .relaxed) }
    private let skips = Atomic<Int>(0)

    package func pendingFrames() -> Int {
        guard !closed.load(ordering: .acquiring) else { return 0 }
        return max(0, haptics_pulse_delay(stream))
    }

    package func queuedFrames() -> Int {
        guard !closed.load(ordering: .acquiring) else { return 0 }
        return max(0, haptics_pulse_queued(stream))
    }

    package func drain() {
        guard !closed.load(ordering: .acquiring) else { return }
        haptics_pulse_send_staged(stream)
        // Waits for what was written to be heard, then drops the (silent) rest, as the ALSA
        // output does. Bounded: a frozen server reports a delay that never shrinks. The delay
        // includes the server's own (about a period), hence a bound above the buffer.
        sleepWhilePlaying(frames: min(pendingFrames(), bufferFrames + sampleRate / 2), sampleRate: sampleRate)
        stops.add(1, ordering: .releasing)
        haptics_pulse_flush(stream)
    }

    // MARK: Any thread

    package func stop() {
        guard !closed.load(ordering: .acquiring) else { return }
        stops.add(1, ordering: .releasing)
        haptics_pulse_stop(stream)
    }

    package func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        haptics_pulse_close(stream)
    }
}
