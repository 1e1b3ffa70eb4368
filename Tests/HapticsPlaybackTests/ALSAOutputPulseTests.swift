import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// Real-time playback through ALSA's `pulse` device into a private PulseAudio null sink,
/// checked against a recording of the sink's monitor.
@Suite("ALSA output paced by a PulseAudio null sink", .tags(.realtime), .enabled(if: RealTime.isSelected, RealTime.skipReason))
struct ALSAOutputPulseTests {
    static let rate = 48_000

    /// Writes `samples` in period-sized pieces, as an engine's audio thread would.
    private static func writeInPeriods(_ samples: [Float], to output: ALSAOutput) throws {
        let step = output.periodFrames * output.channelCount
        var offset = 0
        while offset < samples.count {
            let end = min(samples.count, offset + step)
            try samples[offset..<end].withUnsafeBufferPointer { (chunk) throws(AudioOutputError) in try output.write(chunk) }
            offset = end
        }
    }

    @Test("Two bursts written 250 ms apart arrive 250 ms ± 2 ms apart, unaltered")
    func burstTiming() async throws {
        // Pulse's own latency is unknown, so the test measures between two bursts of one stream.
        let burst = TestSignals.sine(frequency: 200, amplitude: 0.5, frames: 960, sampleRate: Self.rate)
        var mono = [Float](repeating: 0, count: Self.rate * 3 / 4)
        let firstAt = Self.rate / 10
        let secondAt = Self.rate * 35 / 100
        mono.replaceSubrange(firstAt..<firstAt + burst.count, with: burst)
        mono.replaceSubrange(secondAt..<secondAt + burst.count, with: burst)
        let samples = TestSignals.interleave([mono, mono])

        let (recorded, underruns) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 2) { server in
            let recording = try server.startRecording()
            // A roomy buffer: an underrun between the bursts would stretch the gap.
            let output = try ALSAOutput(device: "pulse", sampleRate: Self.rate, channelCount: 2, latency: .milliseconds(150))
            try Self.writeInPeriods(samples, to: output)
            output.drain()
            let underruns = output.recoveryCount
            output.close()
            try recording.waitForMore(seconds: 0.2)
            return (try recording.stop(), underruns)
        }
        #expect(underruns == 0, "the stream underran (machine too busy?), so the gap between bursts is not what was written")

        let left = TestSignals.channel(0, of: recorded, channelCount: 2)
        let threshold: Float = 0.05
        let firstOnsetInBurst = try #require(TestSignals.onset(in: burst, threshold: threshold))
        let first = try #require(TestSignals.onset(in: left, threshold: threshold), "no burst in the recording")
        let second = try #require(TestSignals.onset(in: left, after: first + burst.count, threshold: threshold), "no second burst")
        let tolerance = Self.rate * 2 / 1000
        #expect(
            abs((second - first) - (secondAt - firstAt)) <= tolerance,
            "bursts arrived \(second - first) frames apart, written \(secondAt - firstAt) apart")

        // A float sink at unity volume passes samples through: the burst comes back intact.
        let start = first - firstOnsetInBurst
        try #require(start >= 0 && start + burst.count <= left.count)
        let error = zip(left[start..<start + burst.count], burst).map { abs($0 - $1) }.max() ?? 1
        #expect(error < 1e-4, "burst differs by up to \(error)")
        #expect(TestSignals.channel(1, of: recorded, channelCount: 2)[start..<start + burst.count].elementsEqual(left[start..<start + burst.count]))
    }

    @Test("A pause longer than the buffer underruns; playback continues without throwing and resumes without a click")
    func underrunRecovery() async throws {
        // The second segment starts at full amplitude (a cosine), so resuming it unfaded would
        // be a step of 0.5; faded in over 1 ms, no step exceeds the tone's own slope plus the ramp's.
        let firstSegment = TestSignals.sine(frequency: 200, amplitude: 0.5, frames: Self.rate / 10, sampleRate: Self.rate)
        let secondSegment = TestSignals.sine(frequency: 200, amplitude: 0.5, frames: Self.rate / 10, sampleRate: Self.rate, phase: .pi / 2)

        let (recorded, recoveries) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { server in
            let recording = try server.startRecording()
            let output = try ALSAOutput(device: "pulse", sampleRate: Self.rate, channelCount: 1, latency: .milliseconds(20))
            try Self.writeInPeriods(firstSegment + [Float](repeating: 0, count: output.bufferFrames), to: output)
            // The behaviour under test: a pause longer than the buffer, so the device runs dry.
            Thread.sleep(forTimeInterval: 0.3)
            try Self.writeInPeriods(secondSegment, to: output)
            output.drain()
            let recoveries = output.recoveryCount
            output.close()
            try recording.waitForMore(seconds: 0.2)
            return (try recording.stop(), recoveries)
        }

        #expect(recoveries >= 1, "the pulse device reported no underrun")
        let first = try #require(TestSignals.onset(in: recorded, threshold: 0.01), "first segment missing")
        let second = try #require(
            TestSignals.onset(in: recorded, after: first + firstSegment.count + Self.rate / 20, threshold: 0.01),
            "second segment missing after the pause")
        // The pause shows as silence between the segments, at least as long as the sleep minus the buffer.
        #expect(second - first >= firstSegment.count + Self.rate / 5)
        let resumed = recorded[max(0, second - 10)..<min(recorded.count, second + Self.rate / 100)]
        let toneSlope = Float(0.5 * 2 * Double.pi * 200 / Double(Self.rate))
        let rampSlope = Float(0.5) / 48
        #expect(
            TestSignals.largestStep(in: resumed) <= toneSlope + rampSlope + 1e-3,
            "resumed with a step of \(TestSignals.largestStep(in: resumed))")
        // And the tone does come back at full level after the ramp.
        #expect((resumed.map { abs($0) }.max() ?? 0) > 0.45)
    }

    @Test("stop() from another thread cuts a blocked write short without an error")
    func stopFromAnotherThread() async throws {
        let long = TestSignals.sine(frequency: 200, amplitude: 0.5, frames: Self.rate * 3, sampleRate: Self.rate)

        let (recorded, writeError) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { server in
            let recording = try server.startRecording()
            let output = try ALSAOutput(device: "pulse", sampleRate: Self.rate, channelCount: 1, latency: .milliseconds(50))
            let stopper = Thread {
                // The behaviour under test: a stop 0.3 s into a write of 3 s.
                Thread.sleep(forTimeInterval: 0.3)
                output.stop()
            }
            stopper.start()
            // One call holding three seconds of audio: only stop() can end it early.
            var writeError: AudioOutputError?
            do throws(AudioOutputError) {
                try long.withUnsafeBufferPointer { (buffer) throws(AudioOutputError) in try output.write(buffer) }
            } catch {
                writeError = error
            }
            output.close()
            try recording.waitForMore(seconds: 0.2)
            return (try recording.stop(), writeError)
        }

        #expect(writeError == nil)
        let audible = recorded.filter { abs($0) > 0.01 }.count
        #expect(audible > 0, "nothing was played before the stop")
        // Far less than the three seconds written reached the sink.
        #expect(audible < long.filter { abs($0) > 0.01 }.count / 2)
    }

    @Test("While playing, pendingFrames reports queued audio for the engine clock")
    func pendingFramesWhilePlaying() async throws {
        let pending = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 2) { _ in
            let output = try ALSAOutput(device: "pulse", sampleRate: Self.rate, channelCount: 2, latency: .milliseconds(60))
            defer { output.close() }
            let tone = TestSignals.sine(frequency: 200, amplitude: 0.2, frames: Self.rate / 5, sampleRate: Self.rate)
            try Self.writeInPeriods(TestSignals.interleave([tone, tone]), to: output)
            let pending = output.pendingFrames()
            output.stop()
            return pending
        }
        #expect(pending > 0)
    }
}
