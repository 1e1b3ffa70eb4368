import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// Real-time playback into a private PulseAudio null sink by both routes to the server
/// (libpulse, and ALSA's `pulse` plugin), checked against a recording of the sink's monitor:
/// the two outputs behave alike.
@Suite("Playback on a PulseAudio null sink, by both routes", .tags(.realtime), .enabled(if: RealTime.isSelected, RealTime.skipReason))
struct PulseRoutesTests {
    static let rate = 48_000

    @Test("Two bursts written 250 ms apart arrive 250 ms ± 2 ms apart, sample for sample", arguments: PulseRoute.allCases)
    func burstTiming(route: PulseRoute) async throws {
        // The server's own latency is unknown, so the test measures between two bursts of one stream.
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
            let output = try route.open(sampleRate: Self.rate, channelCount: 2, latency: .milliseconds(150))
            try output.writeInPeriods(samples)
            // Before the drain, which lets the stream run dry at its end.
            let underruns = PulseRoute.underruns(of: output)
            output.drain()
            output.close()
            try recording.waitForMore(seconds: 0.2)
            return (try recording.stop(), underruns)
        }
        #expect(underruns == 0, "the stream ran dry (machine too busy?), so the gap between bursts is not what was written")

        let left = TestSignals.channel(0, of: recorded, channelCount: 2)
        let threshold: Float = 0.05
        let firstOnsetInBurst = try #require(TestSignals.onset(in: burst, threshold: threshold))
        let first = try #require(TestSignals.onset(in: left, threshold: threshold), "no burst in the recording")
        let second = try #require(TestSignals.onset(in: left, after: first + burst.count, threshold: threshold), "no second burst")
        #expect(
            abs((second - first) - (secondAt - firstAt)) <= Self.rate * 2 / 1000,
            "bursts arrived \(second - first) frames apart, written \(secondAt - firstAt) apart")
        // Float32 all the way to a float sink at unity volume: the burst comes back intact.
        let start = first - firstOnsetInBurst
        try #require(start >= 0 && start + burst.count <= left.count)
        let error = zip(left[start..<start + burst.count], burst).map { abs($0 - $1) }.max() ?? 1
        #expect(error < 1e-4, "burst differs by up to \(error)")
        #expect(TestSignals.channel(1, of: recorded, channelCount: 2)[start..<start + burst.count].elementsEqual(left[start..<start + burst.count]))
    }

    @Test("A pause longer than the buffer runs it dry; playback resumes without a click", arguments: PulseRoute.allCases)
    func underrunFadesIn(route: PulseRoute) async throws {
        // The second segment starts at full amplitude (a cosine): resumed unfaded, a step of 0.5.
        let firstSegment = TestSignals.sine(frequency: 200, amplitude: 0.5, frames: Self.rate / 10, sampleRate: Self.rate)
        let secondSegment = TestSignals.sine(frequency: 200, amplitude: 0.5, frames: Self.rate / 10, sampleRate: Self.rate, phase: .pi / 2)

        let (recorded, underruns) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { server in
            let recording = try server.startRecording()
            let output = try route.open(sampleRate: Self.rate, channelCount: 1, latency: .milliseconds(20))
            try output.writeInPeriods(firstSegment + [Float](repeating: 0, count: output.bufferFrames))
            // The behaviour under test: a pause longer than the buffer, so the stream runs dry.
            Thread.sleep(forTimeInterval: 0.3)
            // libpulse hears of the underflow on the stream's connection, which the writing
            // thread reads when it next runs the main loop: a one-frame write of silence does.
            try output.writeInPeriods([0])
            try output.writeInPeriods(secondSegment)
            output.drain()
            let underruns = PulseRoute.underruns(of: output)
            output.close()
            try recording.waitForMore(seconds: 0.2)
            return (try recording.stop(), underruns)
        }

        #expect(underruns >= 1, "the output saw no underrun")
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

    @Test("stop() from another thread cuts a blocked write short without an error", arguments: PulseRoute.allCases)
    func stopFromAnotherThread(route: PulseRoute) async throws {
        let long = TestSignals.sine(frequency: 200, amplitude: 0.5, frames: Self.rate * 3, sampleRate: Self.rate)

        let (recorded, writeError, seconds) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { server in
            let recording = try server.startRecording()
            let output = try route.open(sampleRate: Self.rate, channelCount: 1, latency: .milliseconds(50))
            let stopper = Thread {
                // The behaviour under test: a stop 0.3 s into a write of 3 s.
                Thread.sleep(forTimeInterval: 0.3)
                output.stop()
            }
            let started = Date()
            stopper.start()
            // One call holding three seconds of audio: only stop() can end it early.
            var writeError: AudioOutputError?
            do throws(AudioOutputError) {
                try long.withUnsafeBufferPointer { (buffer) throws(AudioOutputError) in try output.write(buffer) }
            } catch {
                writeError = error
            }
            let seconds = Date().timeIntervalSince(started)
            output.close()
            try recording.waitForMore(seconds: 0.2)
            return (try recording.stop(), writeError, seconds)
        }

        #expect(writeError == nil)
        #expect(seconds < 2, "the write went on for \(seconds) s after the stop")
        let audible = recorded.filter { abs($0) > 0.01 }.count
        #expect(audible > 0, "nothing was played before the stop")
        // Far less than the three seconds written reached the sink.
        #expect(audible < long.filter { abs($0) > 0.01 }.count / 2)
    }

    @Test("While playing, pendingFrames reports queued audio and queuedFrames what the buffer holds", arguments: PulseRoute.allCases)
    func pendingAndQueuedFrames(route: PulseRoute) async throws {
        let (pending, queued, buffer) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 2) { _ in
            let output = try route.open(sampleRate: Self.rate, channelCount: 2, latency: .milliseconds(60))
            defer { output.close() }
            let tone = TestSignals.sine(frequency: 200, amplitude: 0.2, frames: Self.rate / 5, sampleRate: Self.rate)
            try output.writeInPeriods(TestSignals.interleave([tone, tone]))
            let result = (output.pendingFrames(), output.queuedFrames(), output.bufferFrames)
            output.stop()
            return result
        }
        #expect(pending > 0)
        #expect(queued > 0 && queued <= buffer, "\(queued) frames queued in a \(buffer)-frame buffer")
    }
}
