import Foundation
import HapticsTestSupport
import Testing

/// How the command line is read (Sources/haptics/Arguments): the forms of options, the
/// terminator, repeated options, and the help and version requests, anywhere on the line.
@Suite("The command line")
struct CommandLineTests {
    /// `render success --stats -o /dev/null ARGUMENTS…`: its statistics say the rate rendered.
    private func renderStatistics(_ arguments: [String]) async throws -> ProcessResult {
        try await HapticsProcess.run(["render", "success", "--stats", "-o", "/dev/null"] + arguments, timeout: .seconds(30))
    }

    @Test("--option value, --option=value and the short -o name are the same option")
    func optionForms() async throws {
        let folder = try TemporaryFolder()
        for (index, words) in [["-o", "a.wav"], ["--output", "b.wav"], ["--output=c.wav"]].enumerated() {
            let result = try await HapticsProcess.run(["render", "success"] + words, in: folder.url, timeout: .seconds(30))
            #expect(result.status == 0, "\(words): \(result.errorLines)")
            #expect(FileManager.default.fileExists(atPath: folder.path(["a.wav", "b.wav", "c.wav"][index])), "\(words)")
        }
    }

    @Test("an option given twice takes the last value; --sample-rate=44100 after 96000 renders at 44.1 kHz")
    func lastValueWins() async throws {
        let result = try await renderStatistics(["--sample-rate", "96000", "--sample-rate=44100"])
        #expect(result.status == 0, "\(result.errorLines)")
        #expect(result.output.contains("at 44100 Hz"), "\(result.output)")
    }

    @Test("after --, a word that starts with a dash is the pattern, not an option")
    func terminator() async throws {
        let folder = try TemporaryFolder()
        try folder.write("-odd.ahap", #"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}}]}"#)
        let result = try await HapticsProcess.run(["validate", "--", "-odd.ahap"], in: folder.url, timeout: .seconds(30))
        #expect(result.status == 0, "\(result.errorLines)")
        #expect(result.outputLines.last == "-odd.ahap: valid")
        let without = try await HapticsProcess.run(["validate", "-odd.ahap"], in: folder.url, timeout: .seconds(30))
        #expect(without.status == 2)
        #expect(without.errorLines == ["haptics: unknown option '-odd.ahap' (see 'haptics validate --help')"])
    }

    @Test("an option whose value may be left out leaves a word that is not one to the pattern: --rumble success")
    func optionalValue() async throws {
        // No rumble device here (or in CI): the run gets as far as looking for one.
        let result = try await HapticsProcess.run(["play", "--rumble", "success"], timeout: .seconds(30))
        #expect(result.status == 69, "\(result.errorLines)")
        #expect(result.errorLines.first?.hasPrefix("haptics: rumble device /dev/input/event*:") == true, "\(result.errorLines)")
        let help = try await HapticsProcess.run(["play", "--help"], timeout: .seconds(30))
        #expect(help.output.contains("  --loop [<n>]") && help.output.contains("  --rumble [<device>]"))
    }

    @Test(
        "malformed options are one line each, exit 2",
        arguments: [
            (["render", "success", "-o"], "haptics: missing value for '--output <file>' (see 'haptics render --help')"),
            (["render", "success", "-o", "x.wav", "--stats=yes"], "haptics: '--stats' takes no value, but was given 'yes' (see 'haptics render --help')"),
            (["list", "--jsn"], "haptics: unknown option '--jsn'. Did you mean '--json'? (see 'haptics list --help')"),
            (["--verison"], "haptics: unknown option '--verison'. Did you mean '--version'? (see 'haptics --help')"),
        ])
    func malformed(arguments: [String], line: String) async throws {
        let folder = try TemporaryFolder()
        let result = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(30))
        #expect(result.status == 2)
        #expect(result.errorLines == [line])
    }

    @Test("--help and -h anywhere in a command's words print its help and exit 0, even beside a bad value")
    func helpAnywhere() async throws {
        for words in [["play", "--help"], ["play", "success", "-h"], ["play", "--rate", "abc", "--help"], ["help", "play"]] {
            let result = try await HapticsProcess.run(words, timeout: .seconds(30))
            #expect(result.status == 0, "\(words)")
            #expect(result.output.hasPrefix("OVERVIEW: Play a pattern in real time."), "\(words)")
            #expect(result.output.contains("USAGE: haptics play [<options>] <pattern>"), "\(words)")
        }
        let bare = try await HapticsProcess.run([], timeout: .seconds(30))
        #expect(bare.status == 0)
        #expect(bare.output.contains("SUBCOMMANDS:") && bare.output.contains("  play                    Play a pattern in real time."))
    }

    @Test("--version prints the name and the version on one line, from the tool or from a command")
    func version() async throws {
        let tool = try await HapticsProcess.run(["--version"], timeout: .seconds(30))
        let command = try await HapticsProcess.run(["render", "--version"], timeout: .seconds(30))
        #expect(tool.status == 0 && command.status == 0)
        #expect(tool.outputLines.count == 1 && tool.output == command.output)
        #expect(tool.output.range(of: #"^haptics \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(tool.output)")
    }

    @Test("the changelog's newest version is the one --version prints")
    func changelogAgreesWithVersion() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let heading = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        let version = try await HapticsProcess.run(["--version"], timeout: .seconds(30)).output
        // "## 0.4.0 (unreleased)" or "## 0.4.0 (2026-11-26)"
        let newest = String(heading.dropFirst(3).split(separator: " ").first ?? "")
        #expect(version == "haptics \(newest)\n", "\(heading) against \(version)")
    }
}
