import HapticsCore
import Testing
@testable import HapticsPlayback

/// The native engine refuses what synthesis cannot take, with the error Core Haptics uses for
/// a bad pattern, before anything reaches the audio thread (issue #24: an event at 1.9·10¹⁴ s
/// trapped the audio thread; NaN in `sendParameters` reached every player's sound).
@Suite("Engine refuses hostile numbers")
struct HostilePatternEngineTests {
    @Test("a player for a pattern with an event at 1e15 s or a NaN value is refused as invalidPattern")
    func hostilePatternIsRefused() throws {
        let engine = HapticEngine(device: "null")
        for pattern in [
            HapticPattern(events: [.transient(at: 1e15, intensity: 1, sharpness: 0.5)]),
            HapticPattern(events: [.continuous(at: 0, duration: 0.1, intensity: .nan, sharpness: 0.5)]),
        ] {
            #expect {
                _ = try engine.makePlayer(with: pattern)
            } throws: { error in
                guard case .invalidPattern(let why) = error as? HapticError else { return false }
                return why.hasPrefix("events[0]")
            }
        }
    }

    @Test("sendParameters and scheduleParameterCurve refuse non-finite values; the player keeps playing")
    func nonFiniteControlsAreRefused() throws {
        let engine = HapticEngine(device: "null")
        try engine.start()
        defer { engine.stop() }
        let player = try engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5)]))
        try player.start()
        #expect(throws: HapticError.self) {
            try player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, .nan)])
        }
        #expect(throws: HapticError.self) {
            try player.scheduleParameterCurve(HapticParameterCurve(.hapticIntensityControl, at: 0, points: [(0, 1), (0.1, .infinity)]))
        }
        #expect(throws: HapticError.self) {
            try player.scheduleParameterCurve(HapticParameterCurve(.hapticIntensityControl, at: 0, points: [(0, 1), (1e9, 0.5)]))
        }
        try player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, 0.5)])
    }
}
