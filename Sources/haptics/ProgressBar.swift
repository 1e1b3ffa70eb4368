import FoundationEssentials
import HapticsRender
import HapticsSystem
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
        enabled = isatty(STDERR_FILENO) == 1 && !Diagnostics.isQuiet
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
        StandardError.write("\r\(label) \(bar) \(percent)%")
    }

    /// Runs work whose progress cannot be counted (reading and converting a file), showing the
    /// time it has taken with a moving bar once it has taken a second, on a terminal only.
    static func during<T>(_ label: String, _ work: () throws -> T) rethrows -> T {
        guard isatty(STDERR_FILENO) == 1, !Diagnostics.isQuiet else { return try work() }
        let done = SystemSemaphore(value: 0)
        let ended = SystemSemaphore(value: 0)
        let thread = SystemThread {
            let bar = ProgressBar(label)
            var tick = 0
            while !done.wait(nanoseconds: 100_000_000) {
                tick += 1
                bar.spin(tick)
            }
            bar.finish()
            ended.signal()
        }
        thread.start()
        defer {
            done.signal()
            ended.wait()
        }
        return try work()
    }

    /// Draws a block moving along the bar, and the seconds elapsed.
    private func spin(_ tick: Int) {
        let elapsed = ContinuousClock.now - started
        guard enabled, elapsed > .seconds(1) else { return }
        let width = 30
        let position = tick % (2 * width - 2)
        let at = position < width ? position : 2 * width - 2 - position
        let bar = String(repeating: "░", count: at) + "█" + String(repeating: "░", count: width - 1 - at)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        shown = 0
        StandardError.write("\r\(label) \(bar) \(seconds.fixed(1)) s")
    }

    /// Erases the bar.
    func finish() {
        guard enabled, shown >= 0 else { return }
        StandardError.write("\r" + String(repeating: " ", count: label.count + 36) + "\r")
        shown = -1
    }
}
