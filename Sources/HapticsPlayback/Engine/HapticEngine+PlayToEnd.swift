import FoundationEssentials
import Glibc
import HapticsCore
import HapticsSystem

extension HapticEngine {
    /// Plays a pattern now and returns once it has been heard: its last sample has left the
    /// device, not only the synthesis. For a command-line program that exits next, which would
    /// otherwise cut the feedback off. ``playPattern(_:)`` is the fire-and-forget form.
    ///
    /// - Throws: ``HapticError`` when the pattern is invalid or the engine cannot start.
    public func play(_ pattern: HapticPattern) async throws(HapticError) {
        let player = try makeAdvancedPlayer(with: pattern)
        let result: Result<Void, HapticError> = await withCheckedContinuation { continuation in
            player.completionHandler = { [self] _ in
                waitUntilHeard()
                continuation.resume(returning: .success(()))
            }
            do throws(HapticError) { try player.start(atTime: 0) } catch {
                player.completionHandler = nil
                continuation.resume(returning: .failure(error))
            }
        }
        try result.get()
    }

    /// Plays a pattern now and blocks the calling thread until it has been heard (see
    /// ``play(_:)``). Do not call it on the engine's notification thread (from a handler).
    public func playAndWait(_ pattern: HapticPattern) throws(HapticError) {
        let player = try makeAdvancedPlayer(with: pattern)
        let done = SystemSemaphore(value: 0)
        player.completionHandler = { [self] _ in
            waitUntilHeard()
            done.signal()
        }
        try player.start(atTime: 0)
        done.wait()
    }

    /// Waits until the engine clock reaches what has been rendered so far: the device has
    /// played everything it was handed (at most the output's buffer, about 20 ms). Bounded,
    /// so a stalled device cannot hold the caller.
    func waitUntilHeard() {
        let rendered = Double(clock.renderedFrames) / Double(sampleRate)
        let deadline = Date().addingTimeInterval(1)
        while isRunning && currentTime < rendered && Date() < deadline {
            usleep(1000)
        }
    }
}
