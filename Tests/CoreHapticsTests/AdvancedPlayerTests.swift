import CoreHaptics
import Foundation
import HapticsTestSupport
import Synchronization
import Testing

@Suite("CoreHaptics advanced players")
struct AdvancedPlayerTests {
    let rate = 48_000.0

    /// Two taps 0.2 s apart, the first soft and the second strong.
    func twoTaps() throws -> CHHapticPattern {
        let soft = CHHapticEvent(
            eventType: .hapticTransient, parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.5)],
            relativeTime: 0)
        let strong = CHHapticEvent(
            eventType: .hapticTransient, parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: 1)],
            relativeTime: 0.2)
        return try CHHapticPattern(events: [soft, strong], parameters: [])
    }

    /// Runs `body` on a started engine with an advanced player for `pattern`, scheduling from
    /// a start time 0.2 s ahead; returns the recording from that start on.
    func record(
        _ pattern: CHHapticPattern, seconds: Double,
        _ body: (CHHapticEngine, any CHHapticAdvancedPatternPlayer, TimeInterval) throws -> Void
    ) throws -> [Float] {
        let output = FileOutput()
        return try output.run {
            let engine = try CHHapticEngine()
            return try withExtendedLifetime(engine) {
                try engine.start()
                let player = try engine.makeAdvancedPlayer(with: pattern)
                let start = engine.currentTime + 0.2
                try body(engine, player, start)
                let x = try output.samples(seconds: start + seconds)
                return Array(x[Int((start * rate).rounded())...])
            }
        }
    }

    @Test("loopEnabled with loopEnd repeats the pattern every loopEnd seconds until stopped")
    func loop() throws {
        let x = try record(try twoTaps(), seconds: 1) { _, player, start in
            player.loopEnabled = true
            player.loopEnd = 0.3
            try player.start(atTime: start)
            try player.stop(atTime: start + 0.95)
        }
        #expect(Taps.onsets(x) == [0, 9600, 14400, 24000, 28800, 38400, 43200])
    }

    @Test("playbackRate 2 plays twice as fast, at the same pitch")
    func rate2() throws {
        let x = try record(try twoTaps(), seconds: 0.4) { _, player, start in
            player.playbackRate = 2
            #expect(player.playbackRate == 2)
            try player.start(atTime: start)
        }
        #expect(Taps.onsets(x) == [0, 4800])
    }

    @Test("pause holds a continuous vibration and resume continues it where it paused")
    func pauseResume() throws {
        let buzz = CHHapticEvent(
            eventType: .hapticContinuous, parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: 1)],
            relativeTime: 0, duration: 0.3)
        let x = try record(try CHHapticPattern(events: [buzz], parameters: []), seconds: 0.8) { _, player, start in
            try player.start(atTime: start)
            try player.pause(atTime: start + 0.1)
            try player.resume(atTime: start + 0.4)
        }
        let period = 480
        #expect(Signal.rms(x, 2400..<(2400 + period)) > 0.5, "sounding before the pause")
        #expect(Signal.peak(x, 6000..<18000) == 0, "silent while paused")
        #expect(Signal.rms(x, 21600..<(21600 + period)) > 0.5, "sounding again after resume")
        #expect(Signal.peak(x, 31200..<38400) == 0, "ended 0.2 s after resuming (0.1 s played before the pause)")
    }

    @Test("seek(toOffset:) near the end of a long vibration ends it early and completes the player")
    func seek() throws {
        let buzz = CHHapticEvent(
            eventType: .hapticContinuous, parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: 1)],
            relativeTime: 0, duration: 10)
        let done = DispatchSemaphore(value: 0)
        let (engine, output) = TestOutput.pacedEngine()
        try engine.start()
        let player = try engine.makeAdvancedPlayer(with: try CHHapticPattern(events: [buzz], parameters: []))
        player.completionHandler = { _ in done.signal() }
        try player.start(atTime: CHHapticTimeImmediate)
        // Kept: a seek while the buzz is playing, 0.3 s in, is the behaviour under test.
        Thread.sleep(forTimeInterval: 0.3)
        try player.seek(toOffset: 9.9)
        wait(done, "the player to complete after the seek")
        engine.stop(completionHandler: nil)
        let x = output.samples
        let end = try #require(Signal.lastNonZero(x))
        #expect(Double(end) / rate < 1.5, "sound until \(Double(end) / rate) s")
        #expect(Signal.rms(x, 4800..<9600) > 0.5, "the vibration played before the seek")
    }

    @Test("the completion handler is called when the pattern ends")
    func completion() throws {
        let done = DispatchSemaphore(value: 0)
        let errors = Mutex<[String]>([])
        _ = try record(try twoTaps(), seconds: 0.3) { _, player, start in
            player.completionHandler = { error in
                if let error { errors.withLock { $0.append("\(error)") } }
                done.signal()
            }
            try player.start(atTime: start)
        }
        wait(done, "the completion handler")
        #expect(errors.withLock { $0 }.isEmpty)
    }

    @Test("isMuted silences a player; scheduleParameterCurve ramps intensity down")
    func muteAndCurve() throws {
        let buzz = CHHapticEvent(
            eventType: .hapticContinuous, parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: 1)],
            relativeTime: 0, duration: 0.4)
        let x = try record(try CHHapticPattern(events: [buzz], parameters: []), seconds: 0.6) { _, player, start in
            let curve = CHHapticParameterCurve(
                parameterID: .hapticIntensityControl,
                controlPoints: [
                    CHHapticParameterCurve.ControlPoint(relativeTime: 0, value: 1),
                    CHHapticParameterCurve.ControlPoint(relativeTime: 0.2, value: 0),
                ], relativeTime: 5)
            try player.scheduleParameterCurve(curve, atTime: start)
            #expect(curve.relativeTime == start, "the time given replaces the curve's own")
            try player.start(atTime: start)
        }
        let early = Signal.amplitude(x, at: 0.02, frequency: 180, sampleRate: rate)
        let late = Signal.amplitude(x, at: 0.3, frequency: 180, sampleRate: rate)
        #expect(early > 0.8, "early \(early)")
        #expect(late < 0.01, "late \(late)")

        let muted = try record(try twoTaps(), seconds: 0.4) { _, player, start in
            player.isMuted = true
            #expect(player.isMuted)
            try player.start(atTime: start)
        }
        #expect(Signal.peak(muted, 0..<muted.count) == 0)
    }
}
