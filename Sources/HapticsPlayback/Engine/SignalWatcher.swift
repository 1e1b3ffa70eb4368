import FoundationEssentials
import HapticsRender
import Glibc
import HapticsSystem

/// Turns signals (SIGINT, SIGTERM) into a callback on a watcher thread, so an app can stop its
/// engine — fading audio out, setting motors to zero — instead of dying mid-sample with a
/// coil or motor still driven.
///
/// ```swift
/// let watcher = SignalWatcher(signals: [SIGINT, SIGTERM])
/// watcher.onSignal { engine.stop(); exit(130) }
/// ```
///
/// The handler installed for the signals only writes the signal's number to a pipe (the one
/// thing a signal handler can safely do); a thread reads the pipe and runs the callback. A
/// second signal of the same kind while the first is handled is remembered, not lost.
package final class SignalWatcher: @unchecked Sendable {
    private let lock = SystemLock()
    private var handler: (@Sendable () -> Void)?
    private var _received: Int32?

    /// Starts watching `signals`. The process-wide handlers stay installed for the process's
    /// life; a later watcher takes over the callback. The signals are unblocked on the calling
    /// thread, in case the process inherited a mask that blocks them. A signal the process
    /// inherited as ignored stays ignored (a shell starts background jobs with SIGINT ignored,
    /// and Ctrl-C at the terminal is not meant for them).
    package init(signals: [Int32]) {
        SignalPipe.shared.install(signals)
        SignalPipe.shared.setWatcher(self)
    }

    /// Calls `handler` (on the watcher thread) when a signal arrives, at once if one already has.
    package func onSignal(_ handler: @escaping @Sendable () -> Void) {
        let already = lock.withLock { () -> Bool in
            self.handler = handler
            return _received != nil
        }
        if already { handler() }
    }

    /// Whether a signal arrived.
    package var received: Bool { lock.withLock { _received != nil } }

    /// The first signal that arrived, if any.
    package var signal: Int32? { lock.withLock { _received } }

    fileprivate func fire(_ number: Int32) {
        let handler = lock.withLock { () -> (@Sendable () -> Void)? in
            if _received == nil { _received = number }
            return self.handler
        }
        handler?()
    }
}

/// The write end of the self-pipe, read by the signal handler; set once, before any handler
/// is installed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The process-wide half of ``SignalWatcher``: the pipe, the handlers and the reading thread.
private final class SignalPipe: @unchecked Sendable {
    static let shared = SignalPipe()
    private let lock = SystemLock()
    /// Bit `n` for signal `n` (1…63): not a `Set`, whose generic storage's
    /// metadata is built on first use, a tenth of a millisecond before `play` can start
    /// loading its device's library.
    private var installed: UInt64 = 0
    private weak var watcher: SignalWatcher?
    private var readEnd: Int32 = -1

    private init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        // A full pipe must not block the handler: the byte is dropped, the signal still seen.
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        readEnd = ends[0]
        signalPipeWriteEnd = ends[1]
        let fd = readEnd
        let thread = SystemThread { [unowned self] in
            var byte: UInt8 = 0
            while true {
                guard (try? systemCall { read(fd, &byte, 1) }) == 1 else { return }
                let watcher = self.lock.withLock { self.watcher }
                watcher?.fire(Int32(byte))
            }
        }
        thread.name = "haptics-signals"
        thread.start()
    }

    func setWatcher(_ watcher: SignalWatcher) {
        lock.withLock { self.watcher = watcher }
    }

    func install(_ signals: [Int32]) {
        lock.withLock {
            for number in signals where installed & (1 << UInt64(number)) == 0 {
                var inherited = sigaction()
                sigaction(number, nil, &inherited)
                if unsafeBitCast(inherited.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                    continue
                }
                var action = sigaction()
                action.__sigaction_handler.sa_handler = { number in
                    var byte = UInt8(truncatingIfNeeded: number)
                    _ = write(signalPipeWriteEnd, &byte, 1)
                }
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                sigaction(number, &action, nil)
                installed |= 1 << UInt64(number)
            }
        }
        // A process can start with these signals blocked: children inherit the mask of the
        // thread that spawned them, and libdispatch's threads block nearly every signal. The
        // handlers would then never run and Ctrl-C or SIGTERM would be ignored, so unblock
        // them on this thread, which then receives them.
        var watched = sigset_t()
        sigemptyset(&watched)
        for number in signals { sigaddset(&watched, number) }
        pthread_sigmask(SIG_UNBLOCK, &watched, nil)
    }
}
