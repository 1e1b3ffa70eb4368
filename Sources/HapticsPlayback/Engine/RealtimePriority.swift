import Glibc

/// Raises the calling thread to real-time scheduling when the system allows it.
enum RealtimePriority {
    /// Tries SCHED_FIFO at a moderate priority (what audio servers use for clients); without
    /// the privilege (no CAP_SYS_NICE, no rtkit) the thread keeps normal scheduling, which
    /// still works with a 20 ms buffer on an idle machine.
    static func raiseCurrentThread(name: String = "haptics-audio", realtime: Bool = true) {
        // Named for `top -H`, debuggers and profilers (again, for threads started elsewhere):
        // pthread_setname_np is not visible to Swift on glibc.
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = name.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        guard realtime else { return }
        var parameters = sched_param()
        parameters.sched_priority = 40
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
    }
}
