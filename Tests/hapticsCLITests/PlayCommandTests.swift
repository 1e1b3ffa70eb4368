import Foundation
import HapticsCore
import HapticsRender
import HapticsTestSupport
import Testing

/// `haptics play`: ALSA's `file:` plugin captures what the command sends a device, which must
/// be what `haptics render` writes; signals fade out; devices that are missing are reported.
@Suite("haptics play")
struct PlayCommandTests {
    /// The ALSA device that writes what it is sent to `file` as a WAV.
    func fileDevice(_ file: URL) -> String {
        "file:'\(file.path)',wav"
    }

    /// What `haptics devices --json` reports, to skip tests whose premise the machine breaks.
    func devices() async throws -> [String: Any] {
        let result = try await HapticsProcess.run(["devices", "--json"], timeout: .seconds(30))
        try #require(result.status == 0)
        return try #require(try jsonObject(result.stdout) as? [String: Any])
    }

    @Test("--device null plays a preset and exits 0 without output")
    func nullDevice() async throws {
        let result = try await HapticsProcess.run(["play", "success", "--device", "null"], timeout: .seconds(30))
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
        #expect(result.errorOutput.isEmpty)
    }

    @Test("--loop 2 on an unpaced device ends by itself")
    func finiteLoop() async throws {
        let result = try await HapticsProcess.run(["play", "success", "--device", "null", "--loop", "2"], timeout: .seconds(30))
        #expect(result.status == 0)
        #expect(result.errorOutput.isEmpty)
    }

    @Test("--latency low plays; with --latency-ms as well it is a usage error, as is an unknown preset")
    func latencyPresets() async throws {
        let low = try await HapticsProcess.run(["play", "success", "--device", "null", "--latency", "low"], timeout: .seconds(30))
        #expect(low.status == 0)
        #expect(low.errorOutput.isEmpty)
        let both = try await HapticsProcess.run(["play", "success", "--device", "null", "--latency", "low", "--latency-ms", "10"], timeout: .seconds(30))
        #expect(both.status == 2)
        #expect(both.errorLines == ["haptics: --latency and --latency-ms both set the buffer; give one (see 'haptics play --help')"])
        let unknown = try await HapticsProcess.run(["play", "success", "--device", "null", "--latency", "fast"], timeout: .seconds(30))
        #expect(unknown.status == 2)
        #expect(unknown.errorLines.first?.contains("fast") == true, "\(unknown.errorOutput)")
    }

    @Test("a missing device exits 69 with one line on stderr naming the device")
    func missingDevice() async throws {
        let result = try await HapticsProcess.run(["play", "success", "--device", "hw:99"], timeout: .seconds(30))
        #expect(result.status == 69)
        #expect(result.output.isEmpty)
        #expect(result.errorLines.count == 1, "\(result.errorOutput)")
        #expect(result.errorLines.first?.hasPrefix("haptics: audio device 'hw:99': ") == true, "\(result.errorOutput)")
    }

    @Test(
        "what play sends a file: device is, sample for sample, what render writes (with --audio for audio events)",
        arguments: [("wideband", false), ("dualsense", false), ("wideband", true), ("dualsense", true)])
    func playMatchesRender(profile: String, audio: Bool) async throws {
        let folder = try TemporaryFolder()
        if audio {
            try folder.write("sample.ahap", audioPattern)
            try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("sounds"), withIntermediateDirectories: true)
            try folder.write(
                "sounds/sine.wav",
                Data(
                    TestWAV.bytes(
                        TestWAV.sine(frequency: 440, seconds: 0.1, sampleRate: 44_100),
                        channels: 1, sampleRate: 44_100)))
        } else {
            try folder.write("sample.ahap", samplePattern)
        }
        let capture = folder.url.appendingPathComponent("captured.wav")
        let played = try await HapticsProcess.run(
            ["play", "sample.ahap", "--profile", profile, "--device", fileDevice(capture)], in: folder.url, timeout: .seconds(30))
        #expect(played.status == 0, "\(played.errorOutput)")
        #expect(played.errorOutput.isEmpty)
        let rendered = try await HapticsProcess.run(
            ["render", "sample.ahap", "--profile", profile, "--format", "f32", "-o", "-"] + (audio ? ["--audio"] : []),
            in: folder.url, timeout: .seconds(30))
        #expect(rendered.status == 0)

        let reference = try WAVFile(rendered.stdout)
        let wav = try WAVFile(contentsOf: capture)
        #expect(wav.sampleRate == 48_000)
        #expect(wav.channelCount == reference.channelCount)
        #expect(wav.dataSize == wav.data.count, "the device was closed, so the plugin fixed the header")
        let channels = wav.channelCount
        let expectedFloats = reference.float32Samples
        // Compare in the capture's format: bit for bit as floats, or through int16Sample.
        let capturedBits: [UInt32]
        let expectedBits: [UInt32]
        if wav.bitsPerSample == 32 {
            capturedBits = wav.float32Samples.map(\.bitPattern)
            expectedBits = expectedFloats.map(\.bitPattern)
        } else {
            try #require(wav.bitsPerSample == 16, "unexpected capture format: \(wav.bitsPerSample) bits")
            capturedBits = wav.int16Samples.map { UInt32(UInt16(bitPattern: $0)) }
            expectedBits = expectedFloats.map { UInt32(UInt16(bitPattern: int16Sample($0))) }
        }
        // The device may add silence before and after: align frames on the first sound.
        func firstSoundingFrame(_ samples: [UInt32]) -> Int? {
            samples.indices.first { samples[$0] != 0 && samples[$0] != Float(-0.0).bitPattern }.map { $0 / channels }
        }
        let capturedStart = try #require(firstSoundingFrame(capturedBits), "the capture is silent")
        let expectedStart = try #require(firstSoundingFrame(expectedBits))
        let length = expectedBits.count / channels - expectedStart
        try #require(capturedBits.count / channels >= capturedStart + length, "the capture is shorter than the render")
        let captured = Array(capturedBits[(capturedStart * channels)..<((capturedStart + length) * channels)])
        let expected = Array(expectedBits[(expectedStart * channels)...])
        #expect(captured.count == expected.count)
        let mismatch = zip(captured, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(mismatch == nil, "first differing sample \(mismatch ?? -1) of \(expected.count)")
        let after = capturedBits[((capturedStart + length) * channels)...]
        #expect(after.allSatisfy { $0 == 0 || $0 == Float(-0.0).bitPattern }, "only silence follows the pattern")
    }

    /// Twenty seconds of full-scale 300 Hz sine (wideband at sharpness 1), played in a loop.
    static let longPattern = """
        { "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticContinuous", "EventDuration": 20,
          "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 1 },
                               { "ParameterID": "HapticSharpness", "ParameterValue": 1 } ] } } ] }
        """

    @Test(
        "SIGINT or SIGTERM during play exits 130 or 143 with one line, and the captured signal fades to zero without a click",
        .serialized, arguments: [SIGINT, SIGTERM])
    func interruptionFadesOut(signal: Int32) async throws {
        let folder = try TemporaryFolder()
        try folder.write("long.ahap", Self.longPattern)
        let capture = folder.url.appendingPathComponent("interrupted.wav")
        // `file:` is not paced, so a bare --loop keeps writing until the signal arrives.
        let running = try BackgroundHaptics(["play", "long.ahap", "--loop", "--device", fileDevice(capture)], in: folder.url)

        // Signal once sound reaches the file: the player has started, so the signal watcher is
        // installed (it is set up before the player starts). Polling looks at the size first,
        // because the player's render thread, unpaced here, keeps a core busy until then. On a
        // thread of its own, and the signal sent from there: the writer fills the file at CPU
        // speed, and a poll on the tests' shared threads, held up behind minute-long tests,
        // once signalled after 2.3 GB, past what a WAV header's size can say.
        let process = running.process
        let sounding = try await runOnDedicatedThread { () -> Bool in
            var sounding = false
            var checkedSize = 0
            _ = Wait.until(timeout: .seconds(10), interval: .milliseconds(2)) {
                guard process.isRunning else { return true }
                let size = (try? FileManager.default.attributesOfItem(atPath: capture.path)[.size] as? Int) ?? 0
                // A quarter megabyte is over a second of sound, more than the checks below read.
                guard size >= max(checkedSize + 64 * 1024, 256 * 1024), let handle = try? FileHandle(forReadingFrom: capture) else { return false }
                defer { try? handle.close() }
                checkedSize = size
                guard (try? handle.seek(toOffset: UInt64(size - 64 * 1024))) != nil else { return false }
                sounding = ((try? handle.read(upToCount: 64 * 1024)) ?? Data()).contains { $0 != 0 }
                return sounding
            }
            if sounding { process.send(signal) }
            return sounding
        }
        try #require(sounding, "no sound reached \(capture.lastPathComponent)")
        // Measured here: about 3 ms from the signal to the exit. The timeout only catches a
        // process that ignores the signal (it would fill the disk at CPU speed).
        let outcome = try await running.wait(timeout: .seconds(5))

        #expect(outcome.exited, "killed by the signal instead of handling it")
        #expect(outcome.status == 128 + signal)
        #expect(outcome.errorLines == [signal == SIGTERM ? "haptics: terminated" : "haptics: interrupted"])
        #expect(outcome.stdout.isEmpty)

        // The last second of the capture holds full-scale sine, then the fade and silence.
        let wav = try WAVFile(contentsOf: capture, lastFrames: 48_000)
        #expect(wav.dataSize == wav.dataBytesInFile, "the device was closed, so the plugin fixed the header")
        let x = WAVFile.channel(0, of: wav.samplesAsFloat, channels: wav.channelCount)
        try #require(x.count == 48_000, "at least a second was played before the signal")
        let peak = x.reduce(Float(0)) { max($0, abs($1)) }
        #expect(peak > 0.99, "full scale before the fade")
        let lastMillisecond = x.suffix(48).reduce(Float(0)) { max($0, abs($1)) }
        #expect(lastMillisecond < 0.01 * peak, "the last 1 ms peaks at \(lastMillisecond)")
        // A full-scale 300 Hz sine moves at most 2·sin(π·300/48000) ≈ 0.0393 between samples;
        // anything larger is a click (the output cut off instead of fading).
        var largestStep: Float = 0
        var stepAt = 0
        for i in 1..<x.count where abs(x[i] - x[i - 1]) > largestStep {
            largestStep = abs(x[i] - x[i - 1])
            stepAt = i
        }
        #expect(largestStep <= 0.04, "a step of \(largestStep) at sample \(stepAt) of the last \(x.count)")
        // The fade takes at most 10 ms: from the last sample near full scale to lasting silence.
        let lastLoud = try #require(x.lastIndex { abs($0) > 0.9 * peak })
        let quietFrom = (x.lastIndex { abs($0) >= 0.01 * peak } ?? 0) + 1
        #expect(quietFrom - lastLoud <= 480, "the fade took \(quietFrom - lastLoud) samples")
    }

    @Test("without --device on a machine without audio output, play renders to a WAV, says where and why, and exits 69: it did not play")
    func rendersWithoutAudioOutput() async throws {
        let cards = try await devices()["soundCards"] as? [Any] ?? []
        if !cards.isEmpty {
            try Test.cancel("this machine has sound cards, so play would use the default device: skipping the no-output fallback")
        }
        let folder = try TemporaryFolder()
        let name = "fallback-\(UUID().uuidString.prefix(8))"
        try folder.write("\(name).ahap", samplePattern)
        var environment = ProcessInfo.processInfo.environment
        // The rendered file goes to $XDG_CACHE_HOME/haptics; a PulseAudio server (one the
        // playback tests start, or a desktop's) would become ALSA's default device, so point at none.
        environment["XDG_CACHE_HOME"] = folder.url.path
        environment["PULSE_SERVER"] = "unix:" + folder.url.appendingPathComponent("no-server").path
        let running = try BackgroundHaptics(["play", "\(name).ahap"], in: folder.url, environment: environment)
        let outcome = try await running.wait()
        #expect(outcome.exited && outcome.status == 69, "\(outcome.stderr)")
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.errorLines.first?.hasPrefix("haptics: no audio output to play on (audio device 'default': ") == true, "\(outcome.stderr)")
        #expect(
            outcome.errorLines.first?.contains("no sound card, and no sound server (PulseAudio or PipeWire) is running for this user") == true,
            "\(outcome.stderr)")
        let expectedPath = folder.url.appendingPathComponent("haptics/\(name).wav").path
        #expect(outcome.outputLines.first == "Rendered \(name).ahap for the 'wideband' profile instead: \(expectedPath)")
        let wav = try WAVFile(contentsOf: URL(fileURLWithPath: expectedPath))
        #expect(wav.formatTag == 1 && wav.bitsPerSample == 16 && wav.channelCount == 1 && wav.sampleRate == 48_000)
        #expect(wav.dataSize == wav.data.count)
        let pattern = try AHAPDecoder().decode(Data(samplePattern.utf8)).pattern
        #expect(wav.int16Samples == HapticRenderer.render(pattern).samples.map(int16Sample))
    }

    @Test("the no-output fallback names standard input in words, and writes stdin.wav")
    func fallbackFromStandardInput() async throws {
        let cards = try await devices()["soundCards"] as? [Any] ?? []
        if !cards.isEmpty {
            try Test.cancel("this machine has sound cards, so play would use the default device: skipping the no-output fallback")
        }
        let folder = try TemporaryFolder()
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = folder.url.path
        environment["PULSE_SERVER"] = "unix:" + folder.url.appendingPathComponent("no-server").path
        let result = try await HapticsProcess.run(
            ["play", "-"], stdin: Data(samplePattern.utf8), in: folder.url, environment: environment, timeout: .seconds(30))
        #expect(result.status == 69, "\(result.errorOutput)")
        let chained = try shell(
            "cd '\(folder.path)' && '\(try #require(HapticsProcess.executable).path)' play success >/dev/null 2>&1 && echo next",
            environment: environment)
        #expect(!chained.output.contains("next"), "`play x && next` must not go on when x was not played")
        let report = try await HapticsProcess.run(["play", "success", "--json"], in: folder.url, environment: environment, timeout: .seconds(30))
        #expect(report.status == 69, "\(report.errorOutput)")
        let document = try #require(try jsonObject(report.stdout) as? [String: Any])
        #expect(document["played"] as? Bool == false && document["renderedTo"] as? String == folder.url.appendingPathComponent("haptics/success.wav").path)
        #expect((document["reason"] as? String)?.hasPrefix("no audio output to play on") == true)
        let expectedPath = folder.url.appendingPathComponent("haptics/stdin.wav").path
        #expect(result.outputLines.first == "Rendered standard input for the 'wideband' profile instead: \(expectedPath)")
        #expect(FileManager.default.fileExists(atPath: expectedPath))
    }

    @Test("--loop takes a count of 1 or more; a negative count is a usage error that names the forever forms")
    func negativeLoop() async throws {
        for arguments in [["--loop", "-3"], ["--loop=-1"]] {
            let result = try await HapticsProcess.run(["play", "success", "--device", "null"] + arguments, timeout: .seconds(30))
            #expect(result.status == 2, "\(arguments)")
            #expect(result.errorLines == ["haptics: --loop takes a count of 1 or more (0 or no count: forever) (see 'haptics play --help')"], "\(arguments)")
        }
    }

    @Test("--loop 0 plays forever, like a bare --loop: well past ten repetitions, until interrupted")
    func loopZeroIsForever() async throws {
        let folder = try TemporaryFolder()
        let capture = folder.url.appendingPathComponent("forever.wav")
        let once = try await HapticsProcess.run(["render", "success", "--format", "f32", "-o", "-"], timeout: .seconds(30))
        let running = try BackgroundHaptics(["play", "success", "--loop", "0", "--device", fileDevice(capture)], in: folder.url)
        var size = 0
        try await Wait.suspendingUntil(timeout: .seconds(10)) {
            size = (try? FileManager.default.attributesOfItem(atPath: capture.path)[.size] as? Int) ?? 0
            return size >= 10 * once.stdout.count || !running.process.isRunning
        }
        #expect(running.process.isRunning, "stopped after \(size) bytes; one play renders \(once.stdout.count)")
        running.send(SIGINT)
        let outcome = try await running.wait(timeout: .seconds(5))
        #expect(outcome.exited && outcome.status == 130)
        #expect(size >= 10 * once.stdout.count)
    }

    @Test("--rate 0 is a usage error")
    func rateZero() async throws {
        let result = try await HapticsProcess.run(["play", "success", "--device", "null", "--rate", "0"], timeout: .seconds(30))
        #expect(result.status == 2)
        #expect(result.errorLines == ["haptics: --rate must be from 0.001 to 100 (see 'haptics play --help')"])
    }

    @Test("--rumble on a machine without force-feedback devices exits 69 with one line")
    func rumbleWithoutDevice() async throws {
        let rumble = try await devices()["rumble"] as? [Any] ?? []
        if !rumble.isEmpty {
            try Test.cancel("this machine has a force-feedback device: skipping the no-rumble-device case")
        }
        let result = try await HapticsProcess.run(["play", "success", "--rumble"], timeout: .seconds(30))
        #expect(result.status == 69)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.contains("no force-feedback input device found") == true, "\(result.errorOutput)")
    }

    @Test("--device with --rumble is a usage error, one line")
    func deviceAndRumble() async throws {
        let result = try await HapticsProcess.run(["play", "success", "--device", "null", "--rumble"], timeout: .seconds(30))
        #expect(result.status == 2)
        #expect(result.errorLines == ["haptics: --device and --rumble choose different outputs; give one"])
    }
}
