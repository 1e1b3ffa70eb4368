import Glibc
import Synchronization
import HapticsSystem

/// Closes engines' outputs when the process exits, so that a program that plays and exits
/// (`Haptics.play`, a `CHHapticEngine` never stopped) leaves what it started heard and its
/// device closed: a `file:` device otherwise keeps the WAV header it wrote at open, whose
/// sizes say 0, and readers such as sox see no samples.
///
/// At `exit` (or a return from `main`), each registered engine still running is given up to
/// ``waitLimit`` for its players to finish, then stopped (which fades out and closes the
/// output). Engines are held weakly; one released or stopped before is skipped.
package enum EnginesAtExit {
    /// The longest the exit waits for players still playing, over all engines.
    package static let waitLimit: Duration = .seconds(2)

    // Written once, in init, before the entry is shared.
    private final class Entry: @unchecked Sendable {
        weak var engine: HapticEngine?
        init(_ engine: HapticEngine) { self.engine = engine }
    }

    private static let entries = Mutex<[Entry]?>(nil)

    /// Closes `engine`'s output at exit if it is still running then.
    package static func register(_ engine: HapticEngine) {
        entries.withLock { entries in
            if entries == nil {
                entries = []
                atexit { EnginesAtExit.closeAll() }
            }
            entries!.removeAll { $0.engine == nil }
            entries!.append(Entry(engine))
        }
    }

    /// Waits (bounded) for each running engine's players to finish, then stops it.
    package static func closeAll() {
        let engines = entries.withLock { entries -> [HapticEngine] in
            defer { entries = [] }
            return (entries ?? []).compactMap(\.engine)
        }
        let deadline = SystemClock.nanoseconds + Int(waitLimit.components.seconds) * 1_000_000_000
        for engine in engines where engine.isRunning {
            let finished = SystemSemaphore(value: 0)
            engine.notifyWhenPlayersFinished { _ in
                finished.signal()
                return .leaveEngineRunning
            }
            _ = finished.wait(until: deadline)
            engine.stop()
        }
    }
}
