import BenchmarkSupport
import Foundation
import HapticsCore
import HapticsRender
import HapticsTestSupport
import Synchronization
import Testing
@testable import HapticsPlayback

/// The low-latency configuration in real time through PulseAudio, with both cores kept busy by
/// this process, by both routes to the server (libpulse, and ALSA's `pulse` plugin): the output
/// gets periods of 2.5 ms at most in a buffer of 10 ms at most, and a three-second tone reaches
/// the sink whole — no underrun, no gap in what the sink played.
@Suite("Low-latency engine through PulseAudio, both cores busy", .tags(.realtime), .enabled(if: RealTime.isSelected, RealTime.skipReason))
struct PulseLowLatencyTests {
    static let rate = 48_000

    @Test("a 3 s tone plays without underruns or gaps in 2.5 ms periods while two threads spin", arguments: PulseRoute.allCases)
    func holdsUnderLoad(route: PulseRoute) async throws {
        let seconds = 3.0
        let tone = HapticPattern(events: [.continuous(at: 0, duration: seconds, intensity: 1, sharpness: 0.5)])
        let (recorded, period, buffer, underruns): ([Float], Int, Int, Int) = try await PulseAudioServer.withServer(
            sampleRate: Self.rate, channelCount: 1
        ) { server in
            let recording = try server.startRecording()
            let opened = Mutex<(any AudioOutput)?>(nil)
            let configuration = HapticEngine.Configuration(device: "pulse", latency: HapticEngine.Configuration.lowLatency)
            let engine = HapticEngine(configuration: configuration) { rate, channels, latency throws(AudioOutputError) in
                let output = try route.open(sampleRate: rate, channelCount: channels, latency: latency)
                opened.withLock { $0 = output }
                return output
            }
            try engine.start()
            let output = try #require(opened.withLock { $0 })
            // 0.2 s of the stream heard before the load (its start-up is not what is measured),
            // and 0.2 s under load before the tone: on the engine's clock, not the wall's.
            try Wait.require("the stream played 0.2 s", timeout: .seconds(10), interval: .milliseconds(10)) { engine.currentTime >= 0.2 }
            let load = BusyThreads(count: 2)
            try Wait.require("the stream played 0.2 s under load", timeout: .seconds(10), interval: .milliseconds(10)) { engine.currentTime >= 0.4 }
            let player = try engine.makePlayer(with: tone)
            // The tone starts at the next frame the stream can still change, which the clock
            // (the frame heard now) reaches within a buffer: it is heard to its end, release
            // included, a quarter of a second after its length on from now, and only then
            // stopped (stopping drops what the server still holds).
            let startedBy = engine.currentTime
            try player.start(atTime: 0)
            try Wait.require("the tone was heard to its end", timeout: .seconds(30), interval: .milliseconds(50)) {
                engine.currentTime >= startedBy + seconds + 0.25
            }
            load.stop()
            let underruns = PulseRoute.underruns(of: output)
            engine.stop()
            // What the sink played last reaches the monitor: 0.15 s more on the sink's clock.
            try recording.waitForMore(seconds: 0.15)
            return (try recording.stop(), output.periodFrames, output.bufferFrames, underruns)
        }
        #expect(period <= Self.rate / 400, "period of \(period) frames, more than 2.5 ms")
        #expect(buffer <= Self.rate / 100, "buffer of \(buffer) frames, more than 10 ms")
        #expect(underruns == 0, "the output recovered from \(underruns) underruns")

        // The tone is 150 Hz or so: it is never within 1e-4 of zero for more than a sample or
        // two, so a run of 0.5 ms that quiet is silence the sink inserted for want of samples.
        let threshold: Float = 1e-4
        let first = try #require(Signal.firstNonZero(recorded, threshold: threshold), "nothing was played")
        let last = try #require(Signal.lastNonZero(recorded, threshold: threshold))
        var longestQuiet = 0
        var quiet = 0
        for sample in recorded[first...last] {
            quiet = abs(sample) < threshold ? quiet + 1 : 0
            longestQuiet = max(longestQuiet, quiet)
        }
        #expect(longestQuiet < Self.rate / 2000, "a gap of \(longestQuiet) frames in the tone")
        // As long as the same tone rendered offline (its release included): no silence inserted.
        let rendered = HapticRenderer.render(tone, sampleRate: Self.rate).samples
        let renderedLength = try #require(Signal.lastNonZero(rendered, threshold: threshold)) - (Signal.firstNonZero(rendered, threshold: threshold) ?? 0)
        #expect(abs((last - first) - renderedLength) <= Self.rate / 1000, "the tone lasted \(last - first) frames, rendered \(renderedLength)")
    }
}
