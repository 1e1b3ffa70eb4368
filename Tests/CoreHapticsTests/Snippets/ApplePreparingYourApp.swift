// After Apple, "Preparing your app to play haptics" and the CHHapticEngine overview
// (https://developer.apple.com/documentation/corehaptics/preparing-your-app-to-play-haptics):
// check the hardware's capabilities, create the engine, restart it from the reset handler,
// log the stopped handler's reasons (every case, as Apple's later samples list them, such as
// "Delivering Rich App Experiences with Haptics"), start it. The view controller is reduced to a class with
// the same properties.
import CoreHaptics
import HapticsTestSupport
import Testing

@MainActor
private final class HapticViewController {
    var engine: CHHapticEngine!
    var supportsHaptics: Bool = false
    var log: [String] = []

    func viewDidLoad() {
        // Check if the device supports haptics.
        let hapticCapability = CHHapticEngine.capabilitiesForHardware()
        supportsHaptics = hapticCapability.supportsHaptics

        createEngine()
    }

    func createEngine() {
        // Create and configure a haptic engine.
        do {
            engine = try CHHapticEngine()
        } catch let error {
            fatalError("Engine Creation Error: \(error)")
        }

        // The reset handler provides an opportunity to restart the engine.
        engine.resetHandler = {
            print("Reset Handler: Restarting the engine.")
            do {
                // Try restarting the engine.
                try self.engine.start()
                // Register any custom resources you had registered, using registerAudioResource.
                // Recreate all haptic pattern players you had created, using createPlayer.
            } catch {
                fatalError("Failed to restart the engine: \(error)")
            }
        }

        // The stopped handler alerts engine stoppage.
        engine.stoppedHandler = { reason in
            print("Stop Handler: The engine stopped for reason: \(reason.rawValue)")
            switch reason {
            case .audioSessionInterrupt: print("Audio session interrupt")
            case .applicationSuspended: print("Application suspended")
            case .idleTimeout: print("Idle timeout")
            case .systemError: print("System error")
            case .notifyWhenFinished: print("Playback finished")
            case .gameControllerDisconnect: print("Controller disconnected.")
            case .engineDestroyed: print("Engine destroyed.")
            @unknown default:
                print("Unknown error")
            }
        }

        // Start the haptic engine for the first time.
        do {
            try self.engine.start()
        } catch {
            print("Failed to start the engine: \(error)")
        }
    }

    func playTransient() {
        let event = CHHapticEvent(eventType: .hapticTransient, parameters: [
            CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.9),
            CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.6),
        ], relativeTime: 0)
        do {
            let pattern = try CHHapticPattern(events: [event], parameters: [])
            let player = try engine.makePlayer(with: pattern)
            try player.start(atTime: CHHapticTimeImmediate)
        } catch let error {
            print("Error creating a haptic transient pattern: \(error)")
        }
    }
}

@Suite("CoreHaptics snippet: Apple's engine preparation")
@MainActor
struct ApplePreparingYourAppTests {
    @Test("the prepared engine reports support, runs, and plays a tap at 0.9²")
    func prepared() throws {
        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let controller = HapticViewController()
            controller.viewDidLoad()
            #expect(controller.supportsHaptics)
            #expect(controller.engine.hapticEngine.isRunning)
            controller.playTransient()
            return try withExtendedLifetime(controller) { try output.samples(seconds: 0.4) }
        }
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 1, "onsets \(onsets)")
        #expect(abs(Taps.peak(x, at: onsets[0]) - 0.81) < 0.02)
    }
}
