import Foundation

/// Raises the calling thread to real-time scheduling when the system allows it.
enum RealtimePriority {
    /// Tries SCHED_FIFO at a moderate priority (what audio servers use for clients); without
    /// the privilege (no CAP_SYS_NICE, no rtkit) the thread keeps normal scheduling, which
    /// still works with a 20 ms buffer on an idle machine.
    static func raiseCurrentThread() {
        var parameters = sched_param()
        parameters.sched_priority = 40
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
    }
}
