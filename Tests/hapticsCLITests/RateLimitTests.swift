import Foundation
import HapticsTestSupport
import Testing

/// Issue #24, item 13: `--rate` takes what the engine plays, 0.001 to 100, and says so; a
/// smaller rate is refused rather than silently played at 0.001.
@Suite("--rate limits")
struct RateLimitTests {
    @Test("a rate below 0.001 is a usage error naming the range, for play and render", arguments: ["0.0009", "1e-9", "0.0005"])
    func tooSlow(rate: String) async throws {
        let folder = try TemporaryFolder()
        for arguments in [["play", "success", "--device", "null"], ["render", "success", "-o", folder.path("x.wav")]] {
            let result = try await HapticsProcess.run(arguments + ["--rate", rate], timeout: .seconds(30))
            #expect(result.status == 2, "\(arguments) \(rate): \(result.errorOutput)")
            #expect(result.errorLines == ["haptics: --rate must be from 0.001 to 100 (see 'haptics \(arguments[0]) --help')"])
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.wav")))
    }

    @Test("0.001 itself renders the pattern 1,000 times as long")
    func slowest() async throws {
        let folder = try TemporaryFolder()
        let pattern = try folder.write("tap.ahap", #"{"Pattern": [{"Event": {"Time": 0.01, "EventType": "HapticTransient"}}]}"#)
        let result = try await HapticsProcess.run(
            ["render", pattern.path, "-o", folder.path("x.wav"), "--rate", "0.001", "--stats", "--json"], timeout: .seconds(60))
        #expect(result.status == 0, "\(result.errorOutput)")
        let wav = try WAVFile(contentsOf: folder.file("x.wav"))
        // The tap at 10 ms of pattern time lands at 10 s.
        let samples = wav.int16Samples
        let onset = try #require(samples.firstIndex { $0 != 0 })
        #expect(abs(onset - 480_000) < 480, "onset at sample \(onset)")
    }

    @Test("the help states the range")
    func help() async throws {
        for command in ["play", "render"] {
            let result = try await HapticsProcess.run([command, "--help"], timeout: .seconds(30))
            #expect(String(decoding: result.stdout, as: UTF8.self).contains("Playback speed, 0.001 to 100"), "\(command)")
        }
    }
}
