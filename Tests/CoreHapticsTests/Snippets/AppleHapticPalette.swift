// After Apple's sample "Updating Continuous and Transient Haptic Parameters in Real Time"
// (https://developer.apple.com/documentation/corehaptics/updating-continuous-and-transient-haptic-parameters-in-real-time):
// a long continuous event in an advanced player is started when a touch begins, shaped by
// dynamic intensity and sharpness controls as the touch moves, and stopped when it ends;
// its completion handler restores the palette. Touch handling and colours are reduced to
// methods and a flag.
import CoreHaptics
import Foundation
import HapticsTestSupport
import HapticsTestSupport
import Testing

@MainActor
private final class PaletteViewController {
    var engine: CHHapticEngine!
    var continuousPlayer: CHHapticAdvancedPatternPlayer!
    let initialIntensity: Float = 1.0
    let initialSharpness: Float = 0.5
    var paletteRestored = false

    func createAndStartHapticEngine() {
        // Create and configure a haptic engine.
        do {
            engine = try CHHapticEngine()
        } catch let error {
            fatalError("Engine Creation Error: \(error)")
        }

        // Mute audio to reduce latency for collision haptics.
        engine.playsHapticsOnly = true

        // The stopped handler alerts you of engine stoppage.
        engine.stoppedHandler = { reason in
            print("Stop Handler: The engine stopped for reason: \(reason.rawValue)")
        }

        // The reset handler provides an opportunity to restart the engine.
        engine.resetHandler = {
            print("Reset Handler: Restarting the engine.")
            do {
                // Try restarting the engine.
                try self.engine.start()
                // Recreate the continuous player.
                self.createContinuousHapticPlayer()
            } catch {
                print("Failed to start the engine")
            }
        }

        // Start the haptic engine for the first time.
        do {
            try self.engine.start()
        } catch {
            print("Failed to start the engine: \(error)")
        }
    }

    func createContinuousHapticPlayer() {
        // Create an intensity parameter:
        let intensity = CHHapticEventParameter(parameterID: .hapticIntensity,
                                               value: initialIntensity)

        // Create a sharpness parameter:
        let sharpness = CHHapticEventParameter(parameterID: .hapticSharpness,
                                               value: initialSharpness)

        // Create a continuous event with a long duration from the parameters.
        let continuousEvent = CHHapticEvent(eventType: .hapticContinuous,
                                            parameters: [intensity, sharpness],
                                            relativeTime: 0,
                                            duration: 100)

        do {
            // Create a pattern from the continuous haptic event.
            let pattern = try CHHapticPattern(events: [continuousEvent], parameters: [])

            // Create a player from the continuous haptic pattern.
            continuousPlayer = try engine.makeAdvancedPlayer(with: pattern)

        } catch let error {
            print("Pattern Player Creation Error: \(error)")
        }

        continuousPlayer.completionHandler = { _ in
            DispatchQueue.main.async {
                // Restore original color.
                self.paletteRestored = true
            }
        }
    }

    func touchBegan() {
        // Warm engine.
        do {
            // Begin playing continuous pattern.
            try continuousPlayer.start(atTime: CHHapticTimeImmediate)
        } catch let error {
            print("Error starting the continuous haptic player: \(error)")
        }
    }

    func touchMoved(dynamicIntensity: Float, dynamicSharpness: Float) {
        // Create dynamic parameters for the updated intensity & sharpness.
        let intensityParameter = CHHapticDynamicParameter(parameterID: .hapticIntensityControl,
                                                          value: dynamicIntensity,
                                                          relativeTime: 0)

        let sharpnessParameter = CHHapticDynamicParameter(parameterID: .hapticSharpnessControl,
                                                          value: dynamicSharpness,
                                                          relativeTime: 0)

        // Send dynamic parameters to the haptic player.
        do {
            try continuousPlayer.sendParameters([intensityParameter, sharpnessParameter],
                                                atTime: 0)
        } catch let error {
            print("Dynamic Parameter Error: \(error)")
        }
    }

    func touchEnded() {
        // Stop playing the haptic pattern.
        do {
            try continuousPlayer.stop(atTime: CHHapticTimeImmediate)
        } catch let error {
            print("Error stopping the continuous haptic player: \(error)")
        }
    }
}

@Suite("CoreHaptics snippet: Apple's haptic palette")
@MainActor
struct AppleHapticPaletteTests {
    @Test("a touch plays the continuous player at full strength, a move halves its intensity, its end stops it")
    func touch() throws {
        let output = TestOutput.paced()
        output.run {
            let controller = PaletteViewController()
            controller.createAndStartHapticEngine()
            controller.createContinuousHapticPlayer()
            controller.touchBegan()
            // Kept: the user's touch, held, moved and lifted at these times, is the scenario.
            Thread.sleep(forTimeInterval: 0.25)
            controller.touchMoved(dynamicIntensity: 0.5, dynamicSharpness: 0)
            Thread.sleep(forTimeInterval: 0.25)
            controller.touchEnded()
            Thread.sleep(forTimeInterval: 0.2)
            withExtendedLifetime(controller) {}
        }
        let x = output.samples
        try #require(x.count > 48_000 * 6 / 10)
        // Sharpness 0.5 on the wideband profile is 180 Hz.
        let early = Signal.amplitude(x, at: 0.15, frequency: 180, sampleRate: 48_000)
        let late = Signal.amplitude(x, at: 0.4, frequency: 180, sampleRate: 48_000)
        #expect(abs(early - 1) < 0.05, "early \(early)")
        #expect(abs(late - 0.25) < 0.05, "after the move \(late)")
        let end = try #require(Signal.lastNonZero(x))
        #expect(Double(end) / 48_000 < 0.65, "stopped at \(Double(end) / 48_000) s")
    }
}
