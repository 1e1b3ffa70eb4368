import Foundation
import HapticsTestSupport
import Testing

@Suite("Usage errors")
struct UsageErrorTests {
    @Test(
        "a value the parser rejects is one line naming the option and the command's help, exit 2",
        arguments: [
            (["play", "success", "--rate", "abc"], "haptics: the value 'abc' is invalid for '--rate <r>' (see 'haptics play --help')"),
            (
                ["render", "success", "-o", "x.wav", "--format", "wav"],
                "haptics: the value 'wav' is invalid for '--format <format>'. Please provide one of 's16' and 'f32' (see 'haptics render --help')"
            ),
            (["validate"], "haptics: missing expected argument '<file> ...' (see 'haptics validate --help')"),
            (["show", "success", "extra"], "haptics: unexpected argument 'extra' (see 'haptics show --help')"),
            (["nonsense"], "haptics: unexpected argument 'nonsense' (see 'haptics --help')"),
        ])
    func parserErrorsAreOneLine(arguments: [String], line: String) async throws {
        let folder = try TemporaryFolder()
        let result = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(30))
        #expect(result.status == 2)
        #expect(result.errorLines == [line])
        #expect(result.output.isEmpty)
    }

    @Test(
        "a misspelt command, option value, profile or device gets the nearest name",
        arguments: [
            (["plya", "success"], 2, "haptics: 2 unexpected arguments: 'plya', 'success' (did you mean 'play'?) (see 'haptics --help')"),
            (
                ["play", "impact", "--weight", "hevy", "--device", "null"], 2,
                "haptics: the value 'hevy' is invalid for '--weight <weight>'. Please provide one of 'light', 'medium' or 'heavy' (did you mean 'heavy'?) (see 'haptics play --help')"
            ),
            (
                ["render", "success", "-o", "x.wav", "--profile", "lraa"], 1,
                "haptics: lraa: no such profile (did you mean 'lra'? built-in: wideband, lra, dualsense, shaker; or give a path to a JSON file)"
            ),
            (
                ["render", "success", "-o", "x.wav", "--formt", "f32"], 2,
                "haptics: unknown option '--formt'. Did you mean '--format'? (see 'haptics render --help')"
            ),
        ])
    func didYouMean(arguments: [String], status: Int32, line: String) async throws {
        let folder = try TemporaryFolder()
        let result = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(30))
        #expect(result.status == status)
        #expect(result.errorLines == [line])
    }

    @Test("a misspelt device name gets the nearest device ALSA knows, first")
    func deviceSuggestion() async throws {
        let result = try await HapticsProcess.run(["play", "success", "--device", "nul"], timeout: .seconds(30))
        #expect(result.status == 69)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("haptics: audio device 'nul': did you mean 'null'? ") == true, "\(result.errorLines)")
        #expect(result.errorLines.first?.contains("sound server") == false, "a typo is not blamed on the sound server: \(result.errorLines)")
    }

    @Test(
        "a negative number is read as the option's value, so the range is what is reported",
        arguments: [
            (["render", "success", "-o", "x.wav", "--gain", "-1"], "haptics: --gain must be between 0 and 4"),
            (["render", "success", "-o", "x.wav", "--sample-rate", "-5"], "haptics: --sample-rate: sample rate must be between 8000 and 192000 Hz"),
            (["render", "success", "-o", "x.wav", "--intensity", "-0.5"], "haptics: --intensity must be from 0 to 1, got -0.5 (see 'haptics render --help')"),
            (["play", "success", "--device", "null", "--rate", "-2"], "haptics: --rate must be from 0.001 to 100 (see 'haptics play --help')"),
            (["play", "success", "--device", "null", "--latency-ms", "-20"], "haptics: --latency-ms must be between 2 and 2000 (see 'haptics play --help')"),
            (["render", "success", "--rumble", "-o", "x.csv", "--interval-ms", "-10"], "haptics: --interval-ms must be 1…1000 (see 'haptics render --help')"),
        ])
    func negativeNumbers(arguments: [String], line: String) async throws {
        let folder = try TemporaryFolder()
        let result = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(30))
        #expect(result.status == 2)
        #expect(result.errorLines == [line])
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(arguments[3]).path))
    }

    @Test("a preset given without a command says how to play it")
    func patternWithoutCommand() async throws {
        let result = try await HapticsProcess.run(["success"], timeout: .seconds(30))
        #expect(result.status == 2)
        #expect(result.errorLines == ["haptics: unexpected argument 'success' (to play it: haptics play success)"])
    }

    @Test("every command's help states its exit status and shows examples, without wrapping an example")
    func helpTeaches() async throws {
        for command in ["play", "render", "validate", "export", "show"] {
            let result = try await HapticsProcess.run([command, "--help"], timeout: .seconds(30))
            #expect(result.status == 0)
            #expect(result.output.contains("Exit status:"), "\(command)")
            let lines = result.outputLines
            let examples = try #require(lines.firstIndex(of: "Examples:"), "\(command)")
            // An example longer than the help's 80 columns continues on a line of its own at
            // column 0, which cannot be copied and run.
            let block = lines[(examples + 1)...].prefix { !$0.isEmpty }
            #expect(block.allSatisfy { $0.hasPrefix("  haptics ") }, "\(command): \(Array(block))")
        }
    }

    @Test("an option's help does not repeat the value list the parser already prints")
    func noRepeatedValueLists() async throws {
        let result = try await HapticsProcess.run(["play", "--help"], timeout: .seconds(30))
        #expect(!result.output.contains("light, medium or heavy. (values"))
        #expect(!result.output.contains("wideband (default)"))
        #expect(result.output.contains("(values: light, medium, heavy)"))
    }
}
