// After the Kodeco (formerly raywenderlich.com) tutorial "Core Haptics: Getting Started",
// whose `HapticManager` is widely copied into open-source apps: a failable
// `HapticManager` owns the engine, enables auto-shutdown, and plays a "slice" pattern — a
// soft continuous swish with a crisp snip — built from events, asking the engine to stop
// once the players finish.
import CoreHaptics
import HapticsTestSupport
import Testing

private class HapticManager {
    // 1
    let hapticEngine: CHHapticEngine

    // 2
    init?() {
        // 3
        let hapticCapability = CHHapticEngine.capabilitiesForHardware()
        guard hapticCapability.supportsHaptics else {
            return nil
        }

        // 4
        do {
            hapticEngine = try CHHapticEngine()
        } catch let error {
            print("Haptic engine Creation Error: \(error)")
            return nil
        }

        do {
            try hapticEngine.start()
        } catch let error {
            print("Haptic failed to start Error: \(error)")
        }
        hapticEngine.isAutoShutdownEnabled = true
    }

    func playSlice() {
        do {
            // 1
            let pattern = try slicePattern()
            // 2
            try hapticEngine.start()
            // 3
            let player = try hapticEngine.makePlayer(with: pattern)
            // 4
            try player.start(atTime: CHHapticTimeImmediate)
            // 5
            hapticEngine.notifyWhenPlayersFinished { _ in
                return .stopEngine
            }
        } catch {
            print("Failed to play slice: \(error)")
        }
    }
}

extension HapticManager {
    private func slicePattern() throws -> CHHapticPattern {
        let slice = CHHapticEvent(
            eventType: .hapticContinuous,
            parameters: [
                CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.35),
                CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.25)
            ],
            relativeTime: 0,
            duration: 0.25)

        let snip = CHHapticEvent(
            eventType: .hapticTransient,
            parameters: [
                CHHapticEventParameter(parameterID: .hapticIntensity, value: 1.0),
                CHHapticEventParameter(parameterID: .hapticSharpness, value: 1.0)
            ],
            relativeTime: 0.08)

        return try CHHapticPattern(events: [slice, snip], parameters: [])
    }
}

@Suite("CoreHaptics snippet: Kodeco's HapticManager")
struct KodecoHapticManagerTests {
    @Test("playSlice plays a soft swish with a snip at 80 ms, then the engine stops itself")
    func slice() throws {
        let output = FileOutput()
        let (x, running) = try output.run { () throws -> ([Float], Bool) in
            let manager = try #require(HapticManager())
            manager.playSlice()
            // The finished handler's .stopEngine ends the engine soon after the pattern.
            Wait.until(timeout: .seconds(3), interval: .milliseconds(10)) { !manager.hapticEngine.hapticEngine.isRunning }
            return (try output.samples(seconds: 0.25), manager.hapticEngine.hapticEngine.isRunning)
        }
        #expect(!running, "notifyWhenPlayersFinished's .stopEngine stopped the engine")
        let start = try #require(Signal.firstNonZero(x))
        let swish = Signal.amplitude(x, at: Double(start) / 48_000 + 0.04, frequency: 120, sampleRate: 48_000)
        #expect(abs(swish - 0.1225) < 0.02, "the swish is 0.35² (\(swish))")
        let snip = Signal.peak(x, (start + 3840)..<(start + 4400))
        #expect(snip > 0.9, "the snip at 80 ms is at full strength (\(snip))")
    }
}
