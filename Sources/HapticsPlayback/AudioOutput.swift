import Glibc
import HapticsSystem

/// Where the engine's mixed signal goes: a device that takes interleaved Float32 frames at a
/// fixed rate.
///
/// Threading: an output is created on one thread and then handed to the engine's audio
/// thread, hence `Sendable`. ``write(_:)`` and ``pendingFrames()`` belong to that one audio
/// thread. ``stop()`` may be called from any thread, also while a ``write(_:)`` is blocked (the
/// write then returns early, its remaining samples discarded). ``drain()`` and ``close()`` must
/// not overlap a ``write(_:)``: call them from the audio thread, or after it has finished.
public protocol AudioOutput: AnyObject, Sendable {
    /// Frames per second the device runs at.
    var sampleRate: Int { get }
    /// Samples per frame; ``write(_:)`` takes this many interleaved samples per frame.
    var channelCount: Int { get }
    /// Frames per write the device prefers (the ALSA period size).
    var periodFrames: Int { get }
    /// Frames the device queues at most (the ALSA buffer size).
    var bufferFrames: Int { get }

    /// Writes interleaved Float32 samples (`frames × channelCount` of them), blocking until
    /// they are queued.
    ///
    /// Audio thread only: it does not allocate, lock or log. It recovers from underruns and
    /// suspends itself and fades the first re-written samples in over about 1 ms, so a
    /// recovery never clicks. A trailing partial frame is ignored.
    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioOutputError)

    /// Frames written but not yet heard, for the engine clock; 0 when unknown.
    func pendingFrames() -> Int

    /// Frames written and still in the device's own buffer (``bufferFrames`` at most; unlike
    /// ``pendingFrames()``, not what a sound server holds beyond it). Audio thread only. While
    /// nothing plays, the engine lets this drain to about a period before writing more silence,
    /// so that a sound started then is not queued behind a buffer of it. 0 when unknown, which
    /// keeps the buffer full.
    func queuedFrames() -> Int

    /// Lets queued audio play out, then stops; later writes start playback afresh.
    func drain()

    /// Stops at once, discarding queued audio; later writes start playback afresh. Idempotent.
    func stop()

    /// Whether writes are paced by a real clock (a sound card, a sound server). `null` and
    /// `file:` devices take samples as fast as they come; the engine does not give its audio
    /// thread real-time priority for those, since it would spin a core at that priority.
    var isPaced: Bool { get }

    /// Closes the device; later writes fail with ``AudioOutputError/deviceLost(device:reason:)``.
    /// Idempotent.
    func close()
}

extension AudioOutput {
    /// Outputs are paced unless they say otherwise.
    public var isPaced: Bool { true }

    /// Unknown unless the output says: the engine then keeps its buffer full.
    public func queuedFrames() -> Int { 0 }
}

/// Why an audio output could not open or stopped working.
public enum AudioOutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device is missing, busy or refused to open (the CLI exits with 69).
    case deviceUnavailable(device: String, reason: String)
    /// The device opened but cannot play the requested rate, channel count or format.
    case unsupportedConfiguration(device: String, reason: String)
    /// The device went away or failed for good while playing (unplugged, closed, I/O error).
    case deviceLost(device: String, reason: String)

    /// The device the error is about.
    public var device: String {
        switch self {
        case .deviceUnavailable(let device, _), .unsupportedConfiguration(let device, _), .deviceLost(let device, _):
            device
        }
    }

    /// What went wrong, without the device name.
    public var reason: String {
        switch self {
        case .deviceUnavailable(_, let reason), .unsupportedConfiguration(_, let reason), .deviceLost(_, let reason):
            reason
        }
    }

    /// One line naming the device and what failed, for the user.
    public var description: String {
        switch self {
        case .deviceUnavailable(let device, let reason), .unsupportedConfiguration(let device, let reason):
            "audio device '\(device)': \(reason)"
        case .deviceLost(let device, let reason):
            "audio device '\(device)' stopped working: \(reason)"
        }
    }
}

/// Sleeps while `frames` play at `sampleRate`, resuming after signals: how an output's drain
/// waits for what the device holds to be heard, without the device's own blocking drain.
func sleepWhilePlaying(frames: Int, sampleRate: Int) {
    guard frames > 0 else { return }
    SystemClock.sleep(nanoseconds: frames * 1_000_000_000 / max(1, sampleRate))
}
