import Foundation
import HapticsCore
import HapticsRender
import HapticsTestSupport
import Testing

/// `haptics render`'s authoring options: the format from the extension, loops and rate as the
/// advanced player plays them, channels, and the figures as JSON.
@Suite("haptics render options")
struct RenderOptionsTests {
    func run(_ arguments: [String], in folder: TemporaryFolder) async throws -> ProcessResult {
        try folder.write("sample.ahap", samplePattern)
        return try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(60))
    }

    var pattern: HapticPattern { get throws { try AHAPDecoder().decode(Data(samplePattern.utf8)).pattern } }

    @Test("an unknown extension is a usage error naming the formats, and writes nothing")
    func unknownExtension() async throws {
        let folder = try TemporaryFolder()
        let result = try await run(["render", "sample.ahap", "-o", "n.mp3"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.errorLines == [
                "haptics: -o n.mp3: unknown output format; use .wav (drive signal), .csv or .json (rumble motor timeline), .ahap (canonical AHAP) or - (WAV on standard output) (see 'haptics render --help')"
            ])
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("n.mp3").path))
    }

    @Test(".csv and .json write the rumble timeline as --rumble does; .ahap writes what export writes")
    func formatFromExtension() async throws {
        let folder = try TemporaryFolder()
        for (plain, explicit) in [(["-o", "a.csv"], ["--rumble", "-o", "b.csv"]), (["-o", "a.json"], ["--rumble", "--json", "-o", "b.json"])] {
            #expect(try await run(["render", "sample.ahap"] + plain, in: folder).status == 0)
            #expect(try await run(["render", "sample.ahap"] + explicit, in: folder).status == 0)
            let a = try Data(contentsOf: folder.url.appendingPathComponent(plain[1]))
            let b = try Data(contentsOf: folder.url.appendingPathComponent(explicit.last!))
            #expect(a == b && a.count > 100, "\(plain[1])")
        }
        #expect(try await run(["render", "sample.ahap", "-o", "a.ahap"], in: folder).status == 0)
        #expect(try await run(["export", "sample.ahap", "-o", "b.ahap"], in: folder).status == 0)
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("a.ahap")) == Data(contentsOf: folder.url.appendingPathComponent("b.ahap")))
    }

    @Test("--loop, --loop-end and --rate write the library's render of the same playback, bit for bit")
    func loopAndRate() async throws {
        let folder = try TemporaryFolder()
        let result = try await run(
            ["render", "sample.ahap", "-o", "out.wav", "--format", "f32", "--loop", "3", "--loop-end", "0.4", "--rate", "1.5"], in: folder)
        #expect(result.status == 0, "\(result.errorOutput)")
        let wav = try WAVFile(contentsOf: folder.url.appendingPathComponent("out.wav"))
        let expected = HapticRenderer.render(try pattern, playback: .init(count: 3, loopEnd: 0.4, rate: 1.5)).samples
        let once = HapticRenderer.render(try pattern).samples
        #expect(expected.count > 2 * once.count * 2 / 3, "three repetitions at 1.5×")
        #expect(wav.float32Samples.map(\.bitPattern) == expected.map(\.bitPattern))
    }

    @Test("--channels copies the drive signal to every channel")
    func channels() async throws {
        let folder = try TemporaryFolder()
        let result = try await run(["render", "sample.ahap", "-o", "out.wav", "--format", "f32", "--channels", "3"], in: folder)
        #expect(result.status == 0, "\(result.errorOutput)")
        let wav = try WAVFile(contentsOf: folder.url.appendingPathComponent("out.wav"))
        #expect(wav.channelCount == 3)
        let mono = HapticRenderer.render(try pattern).samples
        for channel in 0..<3 {
            #expect(WAVFile.channel(channel, of: wav.float32Samples, channels: 3) == mono, "channel \(channel + 1)")
        }
    }

    @Test("--stats --json prints the figures as one JSON object matching the file")
    func statsJSON() async throws {
        let folder = try TemporaryFolder()
        let result = try await run(["render", "sample.ahap", "-o", "out.wav", "--stats", "--json"], in: folder)
        #expect(result.status == 0, "\(result.errorOutput)")
        let object = try #require(try jsonObject(result.stdout) as? [String: Any])
        let wav = try WAVFile(contentsOf: folder.url.appendingPathComponent("out.wav"))
        #expect(object["frames"] as? Int == wav.dataSize / 2)
        #expect(object["sampleRate"] as? Int == 48_000)
        #expect(object["clippedSamples"] as? Int == 0)
        #expect((object["peak"] as? Double ?? 0) > 0.5)
        #expect(
            Set(object.keys).isSuperset(of: [
                "hapticsVersion", "duration", "frames", "sampleRate", "peak", "peakDBFS", "rms", "clippedSamples", "droppedEvents",
            ]))
    }

    @Test(
        "options that do not fit the output are usage errors",
        arguments: [
            (
                ["-o", "x.ahap", "--loop", "2"],
                "-o .ahap writes the pattern itself; --loop, --loop-end, --rate, --channels, --audio and --stats go with a .wav"
            ),
            (["-o", "x.csv", "--rate", "2"], "--loop, --loop-end, --rate and --channels go with a .wav, not the rumble timeline"),
            (["--rumble", "-o", "x.wav"], "--rumble writes the motor timeline: use -o FILE.csv or FILE.json"),
            (["-o", "x.wav", "--loop", "0"], "--loop must be 1…10000"),
        ])
    func misfits(arguments: [String], message: String) async throws {
        let folder = try TemporaryFolder()
        let result = try await run(["render", "sample.ahap"] + arguments, in: folder)
        #expect(result.status == 2)
        #expect(result.errorLines == ["haptics: \(message) (see 'haptics render --help')"])
    }
}
