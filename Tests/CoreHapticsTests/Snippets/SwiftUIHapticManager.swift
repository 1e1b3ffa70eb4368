// The shape most SwiftUI-era open-source apps give Core Haptics: a main-actor
// `HapticManager` singleton keeps `var engine: CHHapticEngine?`, prepares it after checking
// `capabilitiesForHardware()`, restarts it from the stopped and reset handlers (closures
// capturing `self` that hop to the main actor, as Swift 6 code must since the handlers run on
// the engine's threads), and plays each tap with a player in a local variable.
import CoreHaptics
import HapticsTestSupport
import Synchronization
import Testing

@MainActor
private final class HapticManager {
    static let shared = HapticManager()

    var engine: CHHapticEngine?
    var restarts = 0
    /// The test's record of every stopped-handler call, made on the engine's thread (the
    /// count above is made later, on the main actor).
    nonisolated let stopReasons = Mutex<[CHHapticEngine.StoppedReason]>([])

    // Nonisolated: a closure written inside the handler would be inferred main-actor
    // isolated, and Swift 6 traps when it runs on the engine's thread.
    nonisolated func recordStop(_ reason: CHHapticEngine.StoppedReason) {
        stopReasons.withLock { $0.append(reason) }
    }

    init() {
        prepareHaptics()
    }

    func prepareHaptics() {
        guard CHHapticEngine.capabilitiesForHardware().supportsHaptics else { return }

        do {
            engine = try CHHapticEngine()
            engine?.isAutoShutdownEnabled = true

            engine?.stoppedHandler = { reason in
                print("Haptic engine stopped: \(reason)")
                self.recordStop(reason)
                Task { @MainActor in
                    self.restarts += 1
                }
            }

            engine?.resetHandler = { [weak self] in
                print("Haptic engine reset, restarting")
                Task { @MainActor in
                    do {
                        try self?.engine?.start()
                    } catch {
                        print("Failed to restart the haptic engine: \(error)")
                    }
                }
            }

            try engine?.start()
        } catch {
            print("Haptic engine creation error: \(error.localizedDescription)")
        }
    }

    func playTap(intensity: Float = 1.0, sharpness: Float = 1.0) {
        guard CHHapticEngine.capabilitiesForHardware().supportsHaptics, let engine else { return }

        let intensityParameter = CHHapticEventParameter(parameterID: .hapticIntensity, value: intensity)
        let sharpnessParameter = CHHapticEventParameter(parameterID: .hapticSharpness, value: sharpness)
        let event = CHHapticEvent(eventType: .hapticTransient, parameters: [intensityParameter, sharpnessParameter], relativeTime: 0)

        do {
            let pattern = try CHHapticPattern(events: [event], parameters: [])
            let player = try engine.makePlayer(with: pattern)
            try player.start(atTime: CHHapticTimeImmediate)
        } catch {
            print("Failed to play haptic: \(error.localizedDescription)")
        }
    }

    func stop() async {
        try? await engine?.stop()
    }
}

@Suite("CoreHaptics snippet: a main-actor HapticManager")
@MainActor
struct SwiftUIHapticManagerTests {
    @Test("taps from local-variable players play in order; async stop and start work from the main actor")
    func taps() async throws {
        let output = FileOutput()
        let x = try await output.run { () async throws -> [Float] in
            let manager = HapticManager()
            manager.playTap(intensity: 0.5, sharpness: 0.2)
            // Not `await Task.sleep`: other main-actor tests could run meanwhile for long
            // enough that auto-shutdown stops the engine (and the file output starts over).
            usleep(150_000)
            manager.playTap()
            // The file output runs ahead of the wall clock: read up to the engine's clock.
            let x = try output.samples(seconds: (manager.engine?.currentTime ?? 0) + 0.3)
            await manager.stop()
            #expect(manager.engine?.hapticEngine.isRunning == false)
            try await manager.engine?.start()
            // On a loaded machine other tests can hold the main actor for longer than the idle
            // timeout (10 s) before this continuation runs; auto-shutdown then stops the idle
            // engine, rightly, and says so through the handler (just after stopping).
            let running = manager.engine?.hapticEngine.isRunning == true
            if !running { Wait.until(timeout: .seconds(5)) { !manager.stopReasons.withLock { $0 }.isEmpty } }
            let reasons = manager.stopReasons.withLock { $0 }
            #expect(running || reasons == [.idleTimeout], "the engine runs again after start()")
            #expect(reasons.allSatisfy { $0 == .idleTimeout }, "an explicit stop does not call the stopped handler: \(reasons)")
            return x
        }
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 2, "onsets \(onsets)")
        #expect(abs(Taps.peak(x, at: onsets[0]) - 0.25) < 0.02)
        #expect(abs(Taps.peak(x, at: onsets[1]) - 1) < 0.02)
    }
}
