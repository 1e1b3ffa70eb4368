import Foundation
import HapticsCore
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// The engine in real time: ALSA's `pulse` device into a private PulseAudio null sink, whose
/// monitor is recorded and measured. Times are checked relative to a reference tap, since the
/// sound server's own latency is unknown.
@Suite("Engine in real time through PulseAudio", .tags(.realtime), .enabled(if: RealTime.isSelected, RealTime.skipReason))
struct PulseEngineTests {
    static let rate = 48_000

    @Test("scheduled starts, a stop and a parameter change land within 2 ms of their times")
    func scheduleHolds() async throws {
        let tap = HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 1)])
        let hum = HapticPattern(events: [.continuous(at: 0, duration: 0.6, intensity: 1, sharpness: 1)])
        // Seconds after the reference tap.
        let firstTap = 0.25
        let secondTap = 0.5
        let stopStart = 0.8
        let stopAt = 1.1
        let humStart = 1.4
        let halveAt = 1.7

        let (recorded, clipped): ([Float], Int) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { server in
            let recording = try server.startRecording()
            // A deep buffer: the audio thread is real-time, but libpulse's own thread in this
            // process is not, and on a loaded machine it can fall behind and let the stream
            // underrun (which inserts silence and shifts every later onset). Scheduling is
            // sample-exact at any buffer depth, so depth costs the test nothing.
            let engine = HapticEngine(configuration: .init(device: "pulse", latency: .milliseconds(300)))
            try engine.start()
            // Kept: a settling time for the new stream before the reference time is taken, on
            // the wall clock as the schedule below is; there is no state to wait on.
            Thread.sleep(forTimeInterval: 0.2)
            let t0 = engine.currentTime + 0.5
            var players: [HapticPatternPlayer] = []
            func play(_ pattern: HapticPattern, at time: Double) throws -> HapticPatternPlayer {
                let player = try engine.makePlayer(with: pattern)
                try player.start(atTime: t0 + time)
                players.append(player)
                return player
            }
            _ = try play(tap, at: 0)
            _ = try play(tap, at: firstTap)
            _ = try play(tap, at: secondTap)
            let stopped = try play(HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 0.8, sharpness: 0.5)]), at: stopStart)
            try stopped.stop(atTime: t0 + stopAt)
            let halved = try play(hum, at: humStart)
            try halved.sendParameters([HapticDynamicParameter(.hapticIntensityControl, 0.5)], atTime: t0 + halveAt)
            try Wait.require("the engine's clock passed the end of the schedule", timeout: .seconds(60), interval: .milliseconds(20)) {
                engine.currentTime >= t0 + humStart + 0.8
            }
            let clipped = engine.clippedSamples
            engine.stop()
            try recording.waitForMore(seconds: 0.15)
            return (try recording.stop(), clipped)
        }
        #expect(clipped == 0)
        let x = recorded
        let tolerance = Self.rate * 2 / 1000
        let onsets = Signal.onsets(x.map { abs($0) > 1e-4 ? $0 : 0 }, gap: 480)
        try #require(onsets.count >= 5, "expected 5 separate sounds, found onsets at \(onsets)")
        let reference = onsets[0]
        func frames(_ seconds: Double) -> Int { reference + Int((seconds * Double(Self.rate)).rounded()) }
        for (onset, time) in zip(onsets[1...4], [firstTap, secondTap, stopStart, humStart]) {
            #expect(abs(onset - frames(time)) <= tolerance, "sound at \(time) s arrived \(Double(onset - frames(time)) / 48) ms off")
        }

        // The stopped event falls silent at its stop time (2 ms fade).
        let stoppedSpan = frames(stopStart)..<frames(humStart - 0.05)
        let lastSound = try #require(stoppedSpan.last { abs(x[$0]) > 1e-4 })
        #expect(abs(lastSound - frames(stopAt)) <= tolerance + 96, "stopped \(Double(lastSound - frames(stopAt)) / 48) ms from its time")

        // Halving intensity control quarters the amplitude (amplitude = intensity²) from its time on.
        let before = Signal.rms(x, frames(halveAt - 0.15)..<frames(halveAt - 0.01))
        let after = Signal.rms(x, frames(halveAt + 0.01)..<frames(halveAt + 0.15))
        #expect(abs(after / before - 0.25) < 0.01, "amplitude ratio \(after / before)")
        // Where the level changes: the first one-period window (300 Hz: 160 frames) whose peak
        // is already below the midpoint starts within a quarter period of the change.
        let change = (frames(halveAt - 0.01)..<frames(halveAt + 0.01)).first { i in
            Signal.peak(x, i..<(i + 160)) < 0.6
        }
        let changeAt = try #require(change)
        #expect(abs(changeAt - frames(halveAt)) <= tolerance, "intensity changed \(Double(changeAt - frames(halveAt)) / 48) ms from its time")
    }
}
