import Foundation
import HapticsCore
import HapticsRender
import HapticsTestSupport
import Synchronization
import Testing
@testable import HapticsPlayback

/// A player started now on an idle engine on the `pulse` device is written over the silence
/// the stream still holds, at the next frame the server's sink reads (see
/// `QueuedSilenceSkipping`): what the sink plays must still be the pattern's render, sample
/// for sample, every time, with no underrun.
@Suite("Starts on an idle engine through libpulse", .tags(.realtime), .enabled(if: RealTime.isSelected, RealTime.skipReason))
struct PulseIdleStartTests {
    static let rate = 48_000

    @Test("each start on an idle standard engine plays its render whole, without an underrun", arguments: [20, 10])
    func idleStartsPlayTheRender(milliseconds: Int) async throws {
        // Two taps and a short buzz: an onset clipped, a gap or a shift shows as a difference.
        let pattern = HapticPattern(events: [
            .transient(at: 0, intensity: 1, sharpness: 1),
            .transient(at: 0.03, intensity: 0.6, sharpness: 0.3),
            .continuous(at: 0.05, duration: 0.04, intensity: 0.8, sharpness: 0.5),
        ])
        let rendered = HapticRenderer.render(pattern, sampleRate: Self.rate).samples
        let renderedStart = try #require(Signal.firstNonZero(rendered))
        let sound = Array(rendered[renderedStart...])
        // Enough starts that the silence skipped adds up to more than 100 ms, past which an
        // idle engine once held back its render and let the stream run dry.
        let starts = 16
        let (recorded, underruns, skipped, serverLog): ([Float], Int, Int, String) = try await PulseAudioServer.withServer(
            sampleRate: Self.rate, channelCount: 1
        ) { server in
            let recording = try server.startRecording()
            let opened = Mutex<PulseOutput?>(nil)
            let configuration = HapticEngine.Configuration(device: "pulse", latency: .milliseconds(milliseconds))
            let engine = HapticEngine(configuration: configuration) { rate, channels, latency throws(AudioOutputError) in
                let output = try PulseOutput(sampleRate: rate, channelCount: channels, latency: latency)
                opened.withLock { $0 = output }
                return output
            }
            try engine.start()
            let output = try #require(opened.withLock { $0 })
            for _ in 0..<starts {
                // Idle long enough for the stream to hold only silence again (the pattern lasts
                // 0.1 s), on the engine's own clock.
                let idleFrom = engine.currentTime
                try Wait.require("the engine's clock advanced", timeout: .seconds(30), interval: .milliseconds(10)) {
                    engine.currentTime > idleFrom + 0.3
                }
                try engine.makePlayer(with: pattern).start(atTime: 0)
            }
            let end = engine.currentTime
            try Wait.require("the engine's clock passed the last pattern", timeout: .seconds(30), interval: .milliseconds(10)) {
                engine.currentTime > end + 0.5
            }
            let underruns = output.underflowCount
            let skipped = output.skippedStarts
            engine.stop()
            try recording.waitForMore(seconds: 0.15)
            // The server's last words, for a stream that ran dry: one run under load counted 6
            // underruns, with nothing to say whether the server had fallen behind.
            return (try recording.stop(), underruns, skipped, underruns > 0 ? server.logTail() : "")
        }
        #expect(underruns == 0, "the stream ran dry \(underruns) times; the server's log: \(serverLog)")
        #expect(skipped == starts, "\(skipped) of \(starts) starts were written over the queued silence")
        let onsets = Signal.onsets(recorded, gap: Self.rate / 20)
        try #require(onsets.count == starts, "expected \(starts) sounds, found onsets at \(onsets)")
        for onset in onsets {
            try #require(onset + sound.count <= recorded.count, "the recording ends inside the sound at \(onset)")
            let played = recorded[onset..<(onset + sound.count)]
            let worst = zip(played, sound).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= 1e-6, "the sound at frame \(onset) differs from its render by up to \(worst)")
        }
    }
}
