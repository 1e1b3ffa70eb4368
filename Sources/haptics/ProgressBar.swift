import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress bar on standard error, drawn only when standard error is a terminal
/// (nothing at all in pipes, files and CI logs), and only once the work has taken a second:
/// quick work stays quiet.
final class ProgressBar {
    private let label: String
    private let enabled: Bool
    private var shown = -1
    private let started = ContinuousClock.now

    init(_ label: String) {
        self.label = label
        enabled = isatty(STDERR_FILENO) == 1
    }

    /// Draws the bar at a fraction 0…1 (redrawn only when the percentage changes).
    func update(_ fraction: Double) {
        guard enabled, ContinuousClock.now - started > .seconds(1) else { return }
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        guard percent != shown else { return }
        shown = percent
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        writeAll("\r\(label) \(bar) \(percent)%", to: STDERR_FILENO)
    }

    /// Erases the bar.
    func finish() {
        guard enabled, shown >= 0 else { return }
        writeAll("\r" + String(repeating: " ", count: label.count + 36) + "\r", to: STDERR_FILENO)
        shown = -1
    }
}
