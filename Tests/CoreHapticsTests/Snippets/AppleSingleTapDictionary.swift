// After Apple, "Playing a Single-tap Haptic Pattern"
// (https://developer.apple.com/documentation/corehaptics/playing-a-single-tap-haptic-pattern):
// a dictionary literal with fully qualified keys becomes a pattern, played by a player made
// for it. The article's code, in a function that takes the engine.
import CoreHaptics
import HapticsTestSupport
import Testing

private func playSingleTap(engine: CHHapticEngine) throws {
    let hapticDict = [
        CHHapticPattern.Key.pattern: [
            [CHHapticPattern.Key.event: [CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticTransient,
                  CHHapticPattern.Key.time: 0.001,
                  CHHapticPattern.Key.eventDuration: 1.0] // End of first event
            ] // End of first dictionary entry in the array
        ] // End of array
    ] // End of haptic dictionary

    let pattern = try CHHapticPattern(dictionary: hapticDict)

    let player = try engine.makePlayer(with: pattern)

    engine.notifyWhenPlayersFinished { error in
        return .stopEngine
    }

    // Start the haptic engine to prepare for use.
    try engine.start()

    // Start playing the haptic pattern immediately
    try player.start(atTime: CHHapticTimeImmediate)
}

@Suite("CoreHaptics snippet: Apple's single-tap dictionary")
struct AppleSingleTapDictionaryTests {
    @Test("the dictionary plays one tap at the default intensity (0.75², 0.56) 1 ms after the start")
    func singleTap() throws {
        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let engine = try CHHapticEngine()
            return try withExtendedLifetime(engine) {
                try playSingleTap(engine: engine)
                return try output.samples(seconds: 0.5)
            }
        }
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 1, "onsets \(onsets)")
        #expect(abs(Taps.peak(x, at: onsets[0]) - 0.5625) < 0.02)
    }
}
