import HapticsRender
import HapticsSystem
import Synchronization

/// Everything the engine's threads share with its audio thread, and nothing else: the command
/// and event rings, the flags the audio thread reads, and the wake-ups. Every member is safe
/// to touch from the threads the table at the top of `RenderLoop.swift` names, which is why
/// the type is `Sendable` without exceptions; what only the audio thread touches is in
/// ``RenderLoop``.
///
/// The primitives, each for a reason:
/// - `Atomic`: what the audio thread reads or writes while it runs (the stop request, the
///   nap flag, the count of scheduled commands, the idle timeout, the clipped count), and the
///   rings' positions (``SPSCQueue``): it may never wait for another thread.
/// - `SystemSemaphore`: every wake-up, from any thread to a waiting one (the end of the audio
///   thread's nap, with its monotonic timeout; the notification thread's wake): `sem_post`
///   takes no lock and allocates nothing, so the audio thread may post it.
/// - `Locked` (`SystemLock`): the audio thread's end error, written once by that thread after
///   its loop ended and read by the others; a value no atomic holds.
final class EngineMailbox: Sendable {
    /// Commands from the API side (one producer at a time: ``HapticEngine/send(_:)`` holds
    /// the engine's producer lock) to the audio thread.
    let commands = SPSCQueue<EngineCommand>(capacity: 4096)
    /// Commands sent ahead of the render position and not yet applied or dropped.
    let scheduledCommands = Atomic<Int>(0)
    /// Notices from the audio thread to the notification thread. One producer at a time: the
    /// audio thread while it runs, else the control side holding the lifecycle lock
    /// (``RenderLoop/applyWhileStopped()``).
    let events = SPSCQueue<EngineEvent>(capacity: 4096)
    /// Signalled after posting events, to wake the notification thread.
    let wake = SystemSemaphore(value: 0)
    /// After how many idle frames the audio thread reports idleness (0: never): set from the
    /// API side (auto-shutdown on or off) while the audio thread reads it.
    let idleTimeoutFrames = Atomic<Int>(0)
    private let stopRequested = Atomic<Bool>(false)
    /// The audio thread's idle naps: it sets ``isNapping`` and waits on ``napEnd``, which a
    /// command or a stop posts, so that they take effect at once rather than after the nap.
    private let isNapping = Atomic<Bool>(false)
    private let napEnd = SystemSemaphore(value: 0)
    /// The output stage's clipped count, published after each block for other threads.
    private let clipped = Atomic<Int>(0)
    private let endError = Locked<HapticError?>(nil)

    /// Posts an event to the notification thread (its one producer at the time, see
    /// ``events``).
    func post(_ event: EngineEvent) {
        // When the notification thread is 4096 events behind, the event is lost (a long curve's
        // points leak rather than being freed here).
        _ = events.push(event)
        wake.signal()
    }

    // MARK: Stop

    /// Asks the audio thread to fade the output out and end (any thread).
    ///
    /// A flag rather than a command: the command queue has one producer at a time (``send``
    /// serialises them), and a stop queued behind a full list of commands for future frames
    /// would wait for them to fall due.
    func requestFadeOutAndStop() {
        stopRequested.store(true, ordering: .releasing)
        endNap()
    }

    /// Whether a stop was asked for and not yet taken (the audio thread's idle naps end on it).
    var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    /// Takes the stop request, if there is one (audio thread).
    func takeStopRequest() -> Bool { stopRequested.exchange(false, ordering: .acquiring) }

    /// Forgets a stop request left from the last run (control side, before a start).
    func clearStopRequest() { stopRequested.store(false, ordering: .relaxed) }

    // MARK: Naps

    /// Waits up to `nanoseconds` (audio thread), unless a command or a stop is waiting or
    /// arrives meanwhile. Returns whether one did.
    func nap(nanoseconds: Int) -> Bool {
        isNapping.store(true, ordering: .sequentiallyConsistent)
        // Checked after announcing the nap: a command pushed before it is seen here, one
        // pushed after it finds the flag set and posts.
        if commands.peek() != nil || isStopRequested {
            if !isNapping.exchange(false, ordering: .sequentiallyConsistent) { napEnd.wait() }
            return true
        }
        let woken = napEnd.wait(nanoseconds: nanoseconds)
        // Timed out while a waker took the flag: its post is on its way; take it so that the
        // next nap does not end at once.
        if !woken && !isNapping.exchange(false, ordering: .sequentiallyConsistent) { napEnd.wait() }
        return woken
    }

    /// Ends the audio thread's nap, if it is taking one (any thread, after queueing a command).
    func endNap() {
        guard isNapping.exchange(false, ordering: .sequentiallyConsistent) else { return }
        // Before the post: until it, the audio thread waits in its nap, so the device is open.
        deviceWaitInterrupt.withLock { $0?() }
        napEnd.signal()
    }

    /// Ends the device's own wait in ``nap(waitingOn:)`` (any thread); set by the control side
    /// before the audio thread starts. A lock, not an atomic: it holds a closure.
    let deviceWaitInterrupt = Locked<(@Sendable () -> Void)?>(nil)

    /// Runs `wait`, the device's wait for room, as a nap (audio thread): a command or a stop
    /// ends it through ``deviceWaitInterrupt``.
    func nap(waitingOn wait: () -> Void) {
        isNapping.store(true, ordering: .sequentiallyConsistent)
        if commands.peek() == nil && !isStopRequested { wait() }
        // A waker took the flag: its post is on its way; take it so that the next nap does not
        // end at once.
        if !isNapping.exchange(false, ordering: .sequentiallyConsistent) { napEnd.wait() }
    }

    // MARK: Figures

    /// Clipped samples so far (any thread).
    var clippedSamples: Int { clipped.load(ordering: .relaxed) }

    /// Publishes the output stage's clipped count (audio thread, after each block).
    func publishClipped(_ count: Int) { clipped.store(count, ordering: .relaxed) }

    /// Records why the audio thread ended (called once, as it ends).
    func setEndError(_ error: HapticError?) { endError.withLock { $0 = error } }

    /// The error that ended the audio thread, if any, left in place.
    func endErrorRecorded() -> HapticError? { endError.withLock { $0 } }

    /// Takes the error that ended the audio thread, if any.
    func takeEndError() -> HapticError? {
        endError.withLock { e in
            defer { e = nil }
            return e
        }
    }
}
