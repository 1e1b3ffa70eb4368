import Glibc

/// Raises the calling thread to real-time scheduling when the system allows it.
package enum RealtimePriority {
    /// Tries SCHED_FIFO at a moderate priority (what audio servers use for clients); without
    /// the privilege (no CAP_SYS_NICE, no rtkit) the thread keeps normal scheduling, which
    /// still works with a 20 ms buffer on an idle machine. With `realtime` false (a device
    /// that does not pace its writer, which renders as fast as it is let) the thread runs at
    /// normal priority even when the thread that started it was real-time (threads inherit
    /// their creator's policy: ``StartBoost``'s, or one a user gave the process).
    static func raiseCurrentThread(name: String = "haptics-audio", realtime: Bool = true) {
        // Named for `top -H`, debuggers and profilers (again, for threads started elsewhere):
        // pthread_setname_np is not visible to Swift on glibc.
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = name.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        var parameters = sched_param()
        guard realtime else {
            if isRealtime(sched_getscheduler(0)) { _ = pthread_setschedparam(pthread_self(), SCHED_OTHER, &parameters) }
            return
        }
        parameters.sched_priority = 40
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
    }

    static func isRealtime(_ policy: Int32) -> Bool { policy == SCHED_FIFO || policy == SCHED_RR }

    /// Real-time priority for a thread's latency-critical start, where the system allows it:
    /// `haptics play` from its `run()` until its first period is queued, so that on a busy
    /// machine its start waits for no normal-priority process (at load 5–7 the spawned play
    /// spent its tail runnable, waiting for a core; its p99 went from 117 ms to 64 ms).
    ///
    /// SCHED_FIFO at priority 1, below every other real-time thread (the sound server's, the
    /// audio thread's 40), above all normal ones. Threads started meanwhile inherit it: the
    /// loading of the device's library, and threads that wait and then work for microseconds
    /// (the signal watcher, the exit deadline it starts, the engine's notifications), which so
    /// answer a Ctrl-C on time on a busy machine too; an audio thread sets its own
    /// (``raiseCurrentThread(name:realtime:)``). A thread that was real-time already (the
    /// user's `chrt`) is left as it was.
    ///
    /// The caller bounds what runs raised: `play` boosts only a start whose input is small
    /// (a preset, a file of at most 256 KiB), so a large or hostile file is never read,
    /// parsed and compiled ahead of every normal process.
    package final class StartBoost {
        private var raised: Bool

        /// Raises the calling thread, if `condition` holds, the thread runs at normal priority
        /// and the system allows it.
        package init(if condition: Bool = true) {
            raised = false
            guard condition, !isRealtime(sched_getscheduler(0)) else { return }
            var parameters = sched_param()
            parameters.sched_priority = 1
            raised = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0
        }

        /// Whether the thread runs raised now.
        package var isRaised: Bool { raised }

        /// Back to normal priority, if it was raised (on the thread that made it; again: nothing).
        package func end() {
            guard raised else { return }
            raised = false
            var parameters = sched_param()
            _ = pthread_setschedparam(pthread_self(), SCHED_OTHER, &parameters)
        }
    }
}
