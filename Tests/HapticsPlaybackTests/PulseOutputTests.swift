import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// Real-time playback through libpulse (`--device pulse`) into a private PulseAudio null sink,
/// checked against a recording of the sink's monitor: the same behaviour as the ALSA output's
/// (see ALSAOutputPulseTests), by another route to the same server.
@Suite(
    "Pulse output on a PulseAudio null sink", .tags(.realtime), .enabled(if: RealTime.isSelected, RealTime.skipReason),
    .enabled(if: PulseOutput.isAvailable, "libpulse is not installed"))
struct PulseOutputTests {
    static let rate = 48_000

    /// Writes `samples` in period-sized pieces, as an engine's audio thread would.
    private static func writeInPeriods(_ samples: [Float], to output: PulseOutput) throws {
        let step = output.periodFrames * output.channelCount
        var offset = 0
        while offset < samples.count {
            let end = min(samples.count, offset + step)
            try samples[offset..<end].withUnsafeBufferPointer { (chunk) throws(AudioOutputError) in try output.write(chunk) }
            offset = end
        }
    }

    @Test("`pulse` opens this output, with the period and buffer the server granted for the latency asked")
    func deviceNameAndSizes() async throws {
        let (isPulse, period, buffer) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 2) { _ in
            let output = try AudioDevice.open("pulse", sampleRate: Self.rate, channelCount: 2, latency: .milliseconds(30))
            defer { output.close() }
            return (output is PulseOutput, output.periodFrames, output.bufferFrames)
        }
        #expect(isPulse)
        // 30 ms is 1,440 frames; the server may round, not ignore it.
        #expect((720...2_880).contains(buffer), "buffer \(buffer) frames")
        #expect(period > 0 && period <= buffer / 2, "period \(period) of a \(buffer)-frame buffer")
    }

    @Test("Two bursts written 250 ms apart arrive 250 ms ± 2 ms apart, sample for sample")
    func burstTiming() async throws {
        let burst = TestSignals.sine(frequency: 200, amplitude: 0.5, frames: 960, sampleRate: Self.rate)
        var mono = [Float](repeating: 0, count: Self.rate * 3 / 4)
        let firstAt = Self.rate / 10
        let secondAt = Self.rate * 35 / 100
        mono.replaceSubrange(firstAt..<firstAt + burst.count, with: burst)
        mono.replaceSubrange(secondAt..<secondAt + burst.count, with: burst)
        let samples = TestSignals.interleave([mono, mono])

        let (recorded, underflows) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 2) { server in
            let recording = try server.startRecording()
            // A roomy buffer: an underflow between the bursts would stretch the gap.
            let output = try PulseOutput(sampleRate: Self.rate, channelCount: 2, latency: .milliseconds(150))
            try Self.writeInPeriods(samples, to: output)
            // Before the drain, which lets the stream run dry at its end.
            let underflows = output.underflowCount
            output.drain()
            output.close()
            try recording.waitForMore(seconds: 0.2)
            return (try recording.stop(), underflows)
        }
        #expect(underflows == 0, "the stream ran dry (machine too busy?), so the gap between bursts is not what was written")

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

    @Test("A pause longer than the buffer runs it dry; playback resumes without a click")
    func underflowFadesIn() async throws {
        // The second segment starts at full amplitude (a cosine): resumed unfaded, a step of 0.5.
        let firstSegment = TestSignals.sine(frequency: 200, amplitude: 0.5, frames: Self.rate / 10, sampleRate: Self.rate)
        let secondSegment = TestSignals.sine(frequency: 200, amplitude: 0.5, frames: Self.rate / 10, sampleRate: Self.rate, phase: .pi / 2)

        let (recorded, underflows) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { server in
            let recording = try server.startRecording()
            let output = try PulseOutput(sampleRate: Self.rate, channelCount: 1, latency: .milliseconds(20))
            try Self.writeInPeriods(firstSegment + [Float](repeating: 0, count: output.bufferFrames), to: output)
            // The behaviour under test: a pause longer than the buffer, so the stream runs dry.
            Thread.sleep(forTimeInterval: 0.3)
            // The server reports the underflow on the stream's connection, which the writing
            // thread reads when it next runs libpulse's loop: a short write of silence does.
            try Self.writeInPeriods([Float](repeating: 0, count: 1), to: output)
            try Self.writeInPeriods(secondSegment, to: output)
            output.drain()
            let underflows = output.underflowCount
            output.close()
            try recording.waitForMore(seconds: 0.2)
            return (try recording.stop(), underflows)
        }

        #expect(underflows >= 1, "the server reported no underflow")
        let first = try #require(TestSignals.onset(in: recorded, threshold: 0.01), "first segment missing")
        let second = try #require(
            TestSignals.onset(in: recorded, after: first + firstSegment.count + Self.rate / 20, threshold: 0.01),
            "second segment missing after the pause")
        let resumed = recorded[max(0, second - 10)..<min(recorded.count, second + Self.rate / 100)]
        let toneSlope = Float(0.5 * 2 * Double.pi * 200 / Double(Self.rate))
        let rampSlope = Float(0.5) / 48
        #expect(
            TestSignals.largestStep(in: resumed) <= toneSlope + rampSlope + 1e-3,
            "resumed with a step of \(TestSignals.largestStep(in: resumed))")
        #expect((resumed.map { abs($0) }.max() ?? 0) > 0.45)
    }

    @Test("stop() from another thread cuts a blocked write short without an error")
    func stopFromAnotherThread() async throws {
        let long = TestSignals.sine(frequency: 200, amplitude: 0.5, frames: Self.rate * 3, sampleRate: Self.rate)

        let (recorded, writeError, seconds) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { server in
            let recording = try server.startRecording()
            let output = try PulseOutput(sampleRate: Self.rate, channelCount: 1, latency: .milliseconds(50))
            let stopper = Thread {
                // The behaviour under test: a stop 0.3 s into a write of 3 s.
                Thread.sleep(forTimeInterval: 0.3)
                output.stop()
            }
            let started = Date()
            stopper.start()
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
        #expect(audible < long.filter { abs($0) > 0.01 }.count / 2)
    }

    @Test("While playing, pendingFrames reports queued audio and queuedFrames what the buffer holds")
    func pendingAndQueuedFrames() async throws {
        let (pending, queued, buffer) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 2) { _ in
            let output = try PulseOutput(sampleRate: Self.rate, channelCount: 2, latency: .milliseconds(60))
            defer { output.close() }
            let tone = TestSignals.sine(frequency: 200, amplitude: 0.2, frames: Self.rate / 5, sampleRate: Self.rate)
            try Self.writeInPeriods(TestSignals.interleave([tone, tone]), to: output)
            let result = (output.pendingFrames(), output.queuedFrames(), output.bufferFrames)
            output.stop()
            return result
        }
        #expect(pending > 0)
        #expect(queued > 0 && queued <= buffer, "\(queued) frames queued in a \(buffer)-frame buffer")
    }

    @Test("A server killed mid-write: the write throws deviceLost naming the server, it does not hang")
    func killedServer() async throws {
        let (error, seconds) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { server in
            let output = try PulseOutput(sampleRate: Self.rate, channelCount: 1, latency: .milliseconds(20))
            defer { output.close() }
            let serverProcess = try #require(server.processIdentifier)
            let killer = Thread {
                Thread.sleep(forTimeInterval: 0.2)
                kill(serverProcess, SIGKILL)
            }
            killer.start()
            let started = Date()
            let long = [Float](repeating: 0.1, count: Self.rate * 5)
            var thrown: AudioOutputError?
            do throws(AudioOutputError) {
                try long.withUnsafeBufferPointer { (buffer) throws(AudioOutputError) in try output.write(buffer) }
            } catch {
                thrown = error
            }
            return (thrown, Date().timeIntervalSince(started))
        }
        guard case .deviceLost(let device, let reason) = try #require(error, "the write ended without an error") else {
            Issue.record("expected deviceLost, got \(String(describing: error))")
            return
        }
        #expect(device == "pulse")
        #expect(reason.contains("sound server"), "\(reason)")
        #expect(!reason.contains("\n"))
        #expect(seconds < 3, "the write took \(seconds) s to notice")
    }
}

@Suite("Pulse output without a server", .enabled(if: PulseOutput.isAvailable, "libpulse is not installed"))
struct PulseOutputUnavailableTests {
    @Test("No server at the address: play exits 69 with one line naming the device and libpulse's reason")
    func noServer() async throws {
        // A child process: PULSE_SERVER is process-wide, and the real-time suites set it.
        let folder = try TemporaryFolder()
        let result = try await HapticsProcess.run(
            ["play", "success", "--device", "pulse"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path, "PULSE_SERVER": "unix:" + folder.path("nothing-listens-here")],
            timeout: .seconds(30))
        #expect(result.status == 69, "\(result.errorLines)")
        #expect(result.errorLines.count == 1, "\(result.errorLines)")
        #expect(result.errorLines.first?.contains("'pulse'") == true, "\(result.errorLines)")
        #expect(result.errorLines.first?.contains("cannot connect to the sound server") == true, "\(result.errorLines)")
    }
}
