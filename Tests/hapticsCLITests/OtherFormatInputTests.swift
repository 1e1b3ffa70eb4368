import Foundation
import HapticsTestSupport
import Testing

/// A PATTERN may be any format `convert` reads (Sources/haptics/PatternInput.swift): play,
/// show, render and plot take Meta's `.haptic` and `.android.json` by their extension, and a
/// sound file is refused with the command that makes a pattern of it.
@Suite("Other formats as patterns")
struct OtherFormatInputTests {
    @Test("a .haptic or .android.json file is a pattern for show, render, plot and play", arguments: ["tap.haptic", "tap.android.json"])
    func readsOtherFormats(file: String) async throws {
        let folder = try TemporaryFolder()
        let converted = try await HapticsProcess.run(["convert", "success", "-o", file], in: folder.url, timeout: .seconds(30))
        try #require(converted.status == 0, "\(converted.errorLines)")
        let show = try await HapticsProcess.run(["show", file], in: folder.url, timeout: .seconds(30))
        #expect(show.status == 0, "\(show.errorLines)")
        #expect(show.output.contains("events      2 (2 transient)"), "\(show.output)")
        for arguments in [["render", file, "-o", "out.wav"], ["plot", file, "-o", "out.svg"], ["play", file, "-D", "null"]] {
            let run = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(60))
            #expect(run.status == 0, "\(arguments): \(run.errorLines)")
            #expect(!run.errorOutput.contains("AHAP"), "\(arguments): \(run.errorLines)")
        }
    }

    @Test("a sound file given as a pattern is one line naming analyze, exit 1", arguments: ["show", "play", "render"])
    func soundNamesAnalyze(command: String) async throws {
        let folder = try TemporaryFolder()
        _ = try await HapticsProcess.run(["render", "success", "-o", "hit.wav"], in: folder.url, timeout: .seconds(30))
        let arguments = [command, "hit.wav"] + (command == "render" ? ["-o", "x.wav"] : command == "play" ? ["-D", "null"] : [])
        let result = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(30))
        #expect(result.status == 1)
        #expect(result.errorLines == ["haptics: hit.wav: a sound, not a haptic pattern; make a pattern of it with: haptics analyze hit.wav -o PATTERN.ahap"])
    }
}
