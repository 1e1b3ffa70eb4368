import Foundation
import HapticsCore
import HapticsRender
import HapticsTestSupport
import Testing

/// `haptics render`: the WAV it writes, checked against what the library renders, the rumble
/// timeline, and its usage errors.
@Suite("haptics render")
struct RenderCommandTests {
    /// The library's render of `samplePattern`, the oracle the command must match.
    func libraryRender(profile: ActuatorProfile = .wideband, sampleRate: Int? = nil, gain: Double = 1) throws -> RenderedSignal {
        let pattern = try AHAPDecoder().decode(Data(samplePattern.utf8)).pattern
        return HapticRenderer.render(pattern, profile: profile, sampleRate: sampleRate, gain: gain)
    }

    /// Runs `haptics render sample.ahap ARGUMENTS` in a folder holding the sample pattern.
    func render(_ arguments: [String], in folder: TemporaryFolder) async throws -> ProcessResult {
        try folder.write("sample.ahap", samplePattern)
        return try await HapticsProcess.run(["render", "sample.ahap"] + arguments, in: folder.url, timeout: .seconds(30))
    }

    @Test("the default output is a 16-bit mono 48 kHz WAV whose samples are the library's, converted with int16Sample")
    func s16File() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["-o", "out.wav"], in: folder)
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
        #expect(result.errorOutput.isEmpty)
        let wav = try WAVFile(contentsOf: folder.url.appendingPathComponent("out.wav"))
        let expected = try libraryRender()
        #expect(wav.formatTag == 1)
        #expect(wav.channelCount == 1)
        #expect(wav.sampleRate == 48_000)
        #expect(wav.bitsPerSample == 16)
        #expect(wav.blockAlign == 2)
        #expect(wav.dataSize == expected.frameCount * 1 * 2)
        #expect(wav.data.count == wav.dataSize)
        #expect(wav.riffSize == wav.fileSize - 8)
        #expect(wav.int16Samples == expected.samples.map(int16Sample))
        #expect(expected.statistics.peak > 0.5, "the oracle is not silence")
    }

    @Test("--format f32 writes IEEE float samples equal, bit for bit, to HapticRenderer.render")
    func f32File() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["-o", "out.wav", "--format", "f32"], in: folder)
        #expect(result.status == 0)
        let wav = try WAVFile(contentsOf: folder.url.appendingPathComponent("out.wav"))
        let expected = try libraryRender()
        #expect(wav.formatTag == 3)
        #expect(wav.bitsPerSample == 32)
        #expect(wav.blockAlign == 4)
        #expect(wav.dataSize == expected.frameCount * 4)
        #expect(wav.float32Samples.map(\.bitPattern) == expected.samples.map(\.bitPattern))
    }

    @Test("-o - streams the same bytes to standard output as -o FILE writes, in both formats")
    func standardOutputMatchesFile() async throws {
        let folder = try TemporaryFolder()
        for format in ["s16", "f32"] {
            let toFile = try await render(["-o", "out-\(format).wav", "--format", format], in: folder)
            let toStdout = try await render(["-o", "-", "--format", format], in: folder)
            #expect(toFile.status == 0 && toStdout.status == 0)
            #expect(toStdout.errorOutput.isEmpty)
            let file = try Data(contentsOf: folder.url.appendingPathComponent("out-\(format).wav"))
            #expect(file.count > 1000)
            #expect(toStdout.stdout == file, "\(format)")
        }
    }

    @Test("--profile dualsense writes 4 channels (extensible WAV): 1–2 silent, 3–4 equal and carrying the signal")
    func dualsense() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["-o", "ds.wav", "--profile", "dualsense", "--format", "f32"], in: folder)
        #expect(result.status == 0)
        let wav = try WAVFile(contentsOf: folder.url.appendingPathComponent("ds.wav"))
        #expect(wav.formatTag == 0xFFFE)
        #expect(wav.subFormatTag == 3)
        #expect(wav.channelCount == 4)
        #expect(wav.sampleRate == 48_000)
        #expect(wav.blockAlign == 16)
        let samples = wav.float32Samples
        let channels = (0..<4).map { WAVFile.channel($0, of: samples, channels: 4) }
        #expect(channels[0].allSatisfy { $0 == 0 })
        #expect(channels[1].allSatisfy { $0 == 0 })
        #expect(channels[2] == channels[3])
        #expect(channels[2].contains { abs($0) > 0.5 })
        let expected = try libraryRender(profile: .dualsense)
        #expect(samples.map(\.bitPattern) == expected.samples.map(\.bitPattern))
    }

    @Test("--sample-rate 96000 writes a 96 kHz file with the library's 96 kHz render")
    func sampleRate96k() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["-o", "hi.wav", "--sample-rate", "96000", "--format", "f32"], in: folder)
        #expect(result.status == 0)
        let wav = try WAVFile(contentsOf: folder.url.appendingPathComponent("hi.wav"))
        let expected = try libraryRender(sampleRate: 96_000)
        #expect(wav.sampleRate == 96_000)
        #expect(wav.frameCount == expected.frameCount)
        let at48k = try libraryRender().frameCount
        #expect(expected.frameCount >= 2 * at48k - 100)
        #expect(wav.float32Samples.map(\.bitPattern) == expected.samples.map(\.bitPattern))
    }

    @Test("a sample rate outside 8–192 kHz is a usage error: exit 2, one line, no file")
    func sampleRateTooLow() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["-o", "lo.wav", "--sample-rate", "1000"], in: folder)
        #expect(result.status == 2)
        #expect(result.errorLines == ["haptics: --sample-rate: sample rate must be between 8000 and 192000 Hz"])
        #expect(result.output.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("lo.wav").path))
    }

    @Test("dualsense at 44100 Hz is a usage error naming the one rate it takes")
    func dualsenseRate() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["-o", "x.wav", "--profile", "dualsense", "--sample-rate", "44100"], in: folder)
        #expect(result.status == 2)
        #expect(result.errorLines == ["haptics: --sample-rate: profile 'dualsense' supports only 48000 Hz"])
    }

    @Test("an unknown profile name exits 1 with one line listing the built-in profiles")
    func unknownProfile() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["-o", "x.wav", "--profile", "nope"], in: folder)
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        let line = try #require(result.errorLines.first)
        #expect(line.hasPrefix("haptics: nope: no such profile"))
        for name in ["wideband", "lra", "dualsense", "shaker"] {
            #expect(line.contains(name), "\(name)")
        }
    }

    @Test("a custom profile file sets the band, channels and haptic channels of the output")
    func customProfile() async throws {
        let folder = try TemporaryFolder()
        let profileText = #"{"name": "stereo-right", "minFrequency": 100, "maxFrequency": 200, "channels": 2, "hapticChannels": [2], "gain": 0.5}"#
        let profileFile = try folder.write("right.json", profileText)
        let result = try await render(["-o", "custom.wav", "--profile", "right.json", "--format", "f32"], in: folder)
        #expect(result.status == 0)
        #expect(result.errorOutput.isEmpty)
        let wav = try WAVFile(contentsOf: folder.url.appendingPathComponent("custom.wav"))
        #expect(wav.channelCount == 2)
        #expect(wav.formatTag == 3)
        let samples = wav.float32Samples
        #expect(WAVFile.channel(0, of: samples, channels: 2).allSatisfy { $0 == 0 })
        let expected = try libraryRender(profile: ActuatorProfile(contentsOf: profileFile))
        #expect(samples.map(\.bitPattern) == expected.samples.map(\.bitPattern))
        let peak = WAVFile.channel(1, of: samples, channels: 2).map { abs($0) }.max() ?? 0
        #expect(peak > 0 && peak <= 0.5)
    }

    @Test(
        "a profile file with an unknown key or a missing minFrequency exits 1, naming the file, the place and the key",
        arguments: [
            (#"{"minFrequency": 100, "maxFrequency": 200, "colour": "red"}"#, "1:44: colour: unknown key (known: name, minFrequency,"),
            (#"{"maxFrequency": 200}"#, "1:1: minFrequency: missing"),
        ])
    func badProfileFile(text: String, problem: String) async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("bad.json", text)
        let result = try await render(["-o", "x.wav", "--profile", file.path], in: folder)
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("\(file.path):\(problem)") == true, "\(result.errorOutput)")
    }

    @Test(
        "a profile whose sample rate is out of range (-1 crashed the WAV writer) is one line at its place, exit 1, no file written",
        arguments: ["-1", "0", "1", "999999999"])
    func profileRateOutOfRange(rate: String) async throws {
        let folder = try TemporaryFolder()
        try folder.write("bad.json", "{\n  \"minFrequency\": 60,\n  \"allowedSampleRates\":[\(rate)],\n  \"maxFrequency\": 300\n}\n")
        let result = try await HapticsProcess.run(["render", "success", "-o", "x.wav", "--profile", "bad.json"], in: folder.url, timeout: .seconds(30))
        #expect(result.status == 1)
        #expect(result.errorLines == ["bad.json:3:25: allowedSampleRates[0]: expected a number from 8000 to 192000 Hz, got \(rate)"])
        #expect(result.output.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("x.wav").path))
    }

    @Test("malformed JSON in a profile is one line with the file, line and column, like an AHAP syntax error")
    func profileSyntaxError() async throws {
        let folder = try TemporaryFolder()
        try folder.write("bad.json", "{\n  \"minFrequency\": 60,\n  maxFrequency: 300\n}\n")
        let result = try await HapticsProcess.run(["render", "success", "-o", "x.wav", "--profile", "bad.json"], in: folder.url, timeout: .seconds(30))
        #expect(result.status == 1)
        #expect(result.errorLines == ["bad.json:3:3: expected a key in double quotes, found 'm'"])
    }

    /// How fast the refusal is, is measured by the library's tests; a subprocess's wall time on
    /// a loaded machine says little.
    @Test(
        "--profile /dev/zero, a folder or a huge file is refused without reading it, saying why",
        arguments: [
            ("/dev/zero", "not a regular file (a character device)"),
            (".", "not a regular file (a directory)"),
            ("huge.json", "larger than 1 MiB (104857600 bytes)"),
        ])
    func profileNotARegularFile(path: String, problem: String) async throws {
        let folder = try TemporaryFolder()
        let huge = try folder.write("huge.json", "")
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let result = try await HapticsProcess.run(["render", "success", "-o", "x.wav", "--profile", path], in: folder.url, timeout: .seconds(30))
        #expect(result.status == 1)
        #expect(result.errorLines == ["haptics: \(path): \(problem)"])
    }

    /// The figures `--stats` prints.
    struct Stats {
        var duration: Double
        var frames: Int
        var rate: Int
        var peak: Double
        var rms: Double
        var clipped: Int

        init(_ line: String) throws {
            let pattern =
                /duration ([0-9.]+) s, ([0-9]+) frames at ([0-9]+) Hz, peak ([0-9.]+) \((-?[0-9.]+|-inf) dBFS\), RMS ([0-9.]+), clipped samples ([0-9]+)/
            let match = try #require(line.wholeMatch(of: pattern), "\(line)")
            duration = try #require(Double(match.1))
            frames = try #require(Int(match.2))
            rate = try #require(Int(match.3))
            peak = try #require(Double(match.4))
            rms = try #require(Double(match.6))
            clipped = try #require(Int(match.7))
        }
    }

    @Test("--stats prints duration, frames, peak, RMS and clipped count matching the library's statistics")
    func stats() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["-o", "out.wav", "--stats"], in: folder)
        #expect(result.status == 0)
        #expect(result.outputLines.count == 1)
        let stats = try Stats(try #require(result.outputLines.first))
        let expected = try libraryRender().statistics
        #expect(stats.frames == expected.frames)
        #expect(stats.rate == 48_000)
        #expect(abs(stats.duration - expected.duration) <= 0.0005)
        #expect(abs(stats.peak - expected.peak) <= 0.00005)
        #expect(abs(stats.rms - expected.rms) <= 0.00005)
        #expect(stats.clipped == 0)
        #expect(expected.clippedSamples == 0)
    }

    @Test("--gain 4 overdrives the signal and --stats counts the clipped samples, as the library does")
    func statsCountClipping() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["-o", "loud.wav", "--gain", "4", "--stats"], in: folder)
        #expect(result.status == 0)
        let stats = try Stats(try #require(result.outputLines.first))
        let expected = try libraryRender(gain: 4).statistics
        #expect(stats.clipped > 0)
        #expect(stats.clipped == expected.clippedSamples)
        #expect(stats.peak == 1)
        let samples = try WAVFile(contentsOf: folder.url.appendingPathComponent("loud.wav")).int16Samples
        #expect(samples.filter { abs(Int($0)) == 32767 }.count >= stats.clipped)
    }

    @Test("with -o - the statistics go to standard error, leaving standard output a clean WAV")
    func statsWithStandardOutput() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["-o", "-", "--stats"], in: folder)
        #expect(result.status == 0)
        #expect(result.errorLines.count == 1)
        _ = try Stats(try #require(result.errorLines.first))
        let wav = try WAVFile(result.stdout)
        #expect(wav.data.count == wav.dataSize)
    }

    @Test("a gain above 4 is a usage error, exit 2")
    func gainOutOfRange() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["-o", "x.wav", "--gain", "5"], in: folder)
        #expect(result.status == 2)
        #expect(result.errorLines == ["haptics: --gain must be between 0 and 4"])
    }

    /// Rows of `time_ms,strong,weak`.
    func csvRows(_ text: String) throws -> (header: String, rows: [RumbleFrame]) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "", "ends with a newline")
        lines.removeLast()
        let header = try #require(lines.first)
        let rows = try lines.dropFirst().map { line -> RumbleFrame in
            let fields = line.split(separator: ",").map(String.init)
            try #require(fields.count == 3, "\(line)")
            return RumbleFrame(
                timeMilliseconds: try #require(Int(fields[0])),
                strong: try #require(UInt16(fields[1])), weak: try #require(UInt16(fields[2])))
        }
        return (header, rows)
    }

    @Test("render --rumble writes time_ms,strong,weak every 10 ms, the library's timeline, ending at 0,0")
    func rumbleCSV() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["--rumble", "-o", "motors.csv"], in: folder)
        #expect(result.status == 0)
        let text = try String(contentsOf: folder.url.appendingPathComponent("motors.csv"), encoding: .utf8)
        let (header, rows) = try csvRows(text)
        #expect(header == "time_ms,strong,weak")
        #expect(rows.enumerated().allSatisfy { $0.element.timeMilliseconds == 10 * $0.offset })
        let last = try #require(rows.last)
        #expect(last.strong == 0 && last.weak == 0)
        #expect(rows.contains { $0.strong > 0 } && rows.contains { $0.weak > 0 })
        let pattern = try AHAPDecoder().decode(Data(samplePattern.utf8)).pattern
        #expect(rows == RumbleRenderer.timeline(pattern))
    }

    @Test("--interval-ms 5 gives a row every 5 ms")
    func rumbleInterval() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["--rumble", "--interval-ms", "5", "-o", "-"], in: folder)
        #expect(result.status == 0)
        let (header, rows) = try csvRows(result.output)
        #expect(header == "time_ms,strong,weak")
        #expect(rows.count > 100)
        #expect(rows.enumerated().allSatisfy { $0.element.timeMilliseconds == 5 * $0.offset })
        #expect(rows.last.map { $0.strong == 0 && $0.weak == 0 } == true)
    }

    @Test("--rumble --json writes {hapticsVersion, intervalMs, frames: [{timeMs, strong, weak}]} with the CSV's values")
    func rumbleJSON() async throws {
        let folder = try TemporaryFolder()
        let json = try await render(["--rumble", "--json", "-o", "-"], in: folder)
        let csv = try await render(["--rumble", "-o", "-"], in: folder)
        #expect(json.status == 0 && csv.status == 0)
        let document = try #require(try jsonObject(json.stdout) as? [String: Any])
        #expect(Set(document.keys) == ["hapticsVersion", "intervalMs", "frames"])
        let objects = try #require(document["frames"] as? [[String: Any]])
        #expect(objects.allSatisfy { Set($0.keys) == ["timeMs", "strong", "weak"] })
        let frames = objects.map {
            RumbleFrame(timeMilliseconds: $0["timeMs"] as? Int ?? -1, strong: UInt16($0["strong"] as? Int ?? 0), weak: UInt16($0["weak"] as? Int ?? 0))
        }
        #expect(frames == (try csvRows(csv.output)).rows)
    }

    @Test("--json without --rumble or --stats is a usage error")
    func jsonNeedsRumble() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["--json", "-o", "x.wav"], in: folder)
        #expect(result.status == 2)
        #expect(result.errorLines == ["haptics: --json goes with --rumble or --stats (a WAV has no JSON form) (see 'haptics render --help')"])
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("x.wav").path))
    }

    @Test("a rumble timeline that cannot be written is one line naming the path and the reason, exit 1")
    func unwritableTimeline() async throws {
        let folder = try TemporaryFolder()
        let result = try await render(["--rumble", "-o", "."], in: folder)
        #expect(result.status == 1)
        #expect(result.errorLines == ["haptics: .: cannot create the file (Is a directory)"])
    }

    @Test("a missing -o is a usage error")
    func missingOutput() async throws {
        let folder = try TemporaryFolder()
        let result = try await render([], in: folder)
        #expect(result.status == 2)
        #expect(result.errorLines == ["haptics: missing expected argument '--output <file>' (see 'haptics render --help')"])
        #expect(result.output.isEmpty)
    }

    @Test("a preset name renders: `render success` equals rendering the preset's exported AHAP")
    func presetName() async throws {
        let folder = try TemporaryFolder()
        let byName = try await HapticsProcess.run(["render", "success", "-o", "success.wav", "--format", "f32"], in: folder.url)
        #expect(byName.status == 0)
        let export = try await HapticsProcess.run(["export", "success", "-o", "success.ahap"], in: folder.url)
        #expect(export.status == 0)
        let byFile = try await HapticsProcess.run(["render", "success.ahap", "-o", "file.wav", "--format", "f32"], in: folder.url)
        #expect(byFile.status == 0)
        let preset = try WAVFile(contentsOf: folder.url.appendingPathComponent("success.wav"))
        let file = try WAVFile(contentsOf: folder.url.appendingPathComponent("file.wav"))
        #expect(preset.frameCount > 4800)
        #expect(preset.float32Samples.contains { abs($0) > 0.1 })
        #expect(preset.data == file.data)
    }
}
