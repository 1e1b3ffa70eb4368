import FoundationEssentials
import Glibc
import Haptics
import HapticsSystem

/// For commands that write files (`render`, `export`, `analyze`, `convert`) and any `--watch`:
/// on SIGINT or SIGTERM, removes the temporary file of the write in progress, so the target
/// keeps its old contents and nothing is left behind, and exits 130 or 143 with one line, as
/// `play` does. The exit is `_exit`, from the watcher's thread: the main thread may be mid-work,
/// and `exit` would run the process's destructors under it.
func removeUnfinishedFilesOnSignals() {
    let watcher = SignalWatcher(signals: [SIGINT, SIGTERM])
    watcher.onSignal {
        AtomicFile.removeTemporaryFiles()
        let signal = watcher.signal ?? SIGINT
        // The last line, even while a decoder's standard error is being captured, and nothing
        // from the main thread's work after it.
        let line = "haptics: \(signal == SIGTERM ? "terminated" : "interrupted")"
        StandardError.exit(withLastLine: Diagnostics.styled(line) + "\n", code: 128 + signal)
    }
}
