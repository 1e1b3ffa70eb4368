import FoundationEssentials
import Glibc
import Haptics
import HapticsSystem

/// For commands that write files (`render`, `export`): on SIGINT or SIGTERM, removes the
/// temporary file of the write in progress, so the target keeps its old contents and nothing
/// is left behind, and exits 130 or 143 with one line, as `play` does.
func removeUnfinishedFilesOnSignals() {
    let watcher = SignalWatcher(signals: [SIGINT, SIGTERM])
    watcher.onSignal {
        AtomicFile.removeTemporaryFiles()
        let signal = watcher.signal ?? SIGINT
        writeStandardError("haptics: \(signal == SIGTERM ? "terminated" : "interrupted")")
        _exit(128 + signal)
    }
}
