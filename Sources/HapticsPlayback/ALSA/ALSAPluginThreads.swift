import FoundationEssentials
import Glibc

/// Threads that ALSA plugins start inside this process to do the actual I/O, raised to the
/// audio thread's real-time priority.
///
/// The `pulse` plugin hands every write to libpulse's own thread ("threaded-ml"), which sends
/// it to the server. At normal priority that thread waits behind any busy thread on a loaded
/// machine, and with a 10 ms buffer the stream underruns though the audio thread itself is on
/// time: the audio path is only as real-time as its slowest thread.
enum ALSAPluginThreads {
    /// The priority the engine's audio thread gets (see `RealtimePriority`).
    static let priority: Int32 = 40
    /// libpulse's name for the thread of a `pa_threaded_mainloop`.
    static let pulseThreadName = "threaded-ml"

    /// This process's thread ids.
    static func current() -> Set<pid_t> {
        // readdir rather than FileManager, whose first use costs `play` a noticeable part of
        // its start-up.
        guard let folder = opendir("/proc/self/task") else { return [] }
        defer { closedir(folder) }
        var threads = Set<pid_t>()
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let thread = pid_t(name) { threads.insert(thread) }
        }
        return threads
    }

    /// Raises the plugin I/O threads started since `before` to SCHED_FIFO when the system
    /// allows it (as for the audio thread, without the privilege nothing changes). Only
    /// threads named as libpulse names its own are touched: threads other code started
    /// meanwhile keep their scheduling.
    static func raise(startedSince before: Set<pid_t>) {
        for thread in current().subtracting(before) where name(of: thread) == pulseThreadName {
            var parameters = sched_param()
            parameters.sched_priority = priority
            _ = sched_setscheduler(thread, SCHED_FIFO, &parameters)
        }
    }

    private static func name(of thread: pid_t) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/self/task/\(thread)/comm", encoding: .utf8) else { return nil }
        return text.trimmingCharacters(in: " \n\t")
    }
}
