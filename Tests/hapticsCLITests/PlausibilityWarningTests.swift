import Foundation
import HapticsTestSupport
import Testing

/// Mistakes that used to pass silently: a continuous event without a length, times typed in
/// milliseconds, a signal that clips.
@Suite("Warnings for what would pass silently")
struct PlausibilityWarningTests {
    static let millisecondPattern = """
        { "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticTransient" } },
                       { "Event": { "Time": 120, "EventType": "HapticTransient" } } ] }
        """

    static let continuousWithoutDuration = """
        { "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticContinuous" } } ] }
        """

    @Test("validate: a continuous event without EventDuration is invalid, in lenient and strict mode", arguments: [[], ["--strict"]])
    func continuousWithoutDurationIsInvalid(flags: [String]) async throws {
        let folder = try TemporaryFolder()
        try folder.write("c.ahap", Self.continuousWithoutDuration)
        let result = try await HapticsProcess.run(["validate"] + flags + ["c.ahap"], in: folder.url, timeout: .seconds(30))
        #expect(result.status == 1)
        #expect(
            result.errorLines == [
                "c.ahap:1:27: error: missing 'EventDuration': a HapticContinuous event needs its length in seconds [Pattern[0].Event.EventDuration]"
            ])
        #expect(result.outputLines == ["c.ahap: invalid (1 error)"])
    }

    @Test("validate: times typed in milliseconds get a warning asking so; --strict makes it an error")
    func millisecondsWarning() async throws {
        let folder = try TemporaryFolder()
        try folder.write("ms.ahap", Self.millisecondPattern)
        let lenient = try await HapticsProcess.run(["validate", "ms.ahap"], in: folder.url, timeout: .seconds(30))
        #expect(lenient.status == 0)
        let line = try #require(lenient.errorLines.first)
        #expect(line.hasPrefix("ms.ahap:2:"))
        #expect(line.contains(": warning: time 120 s looks like milliseconds"))
        #expect(line.hasSuffix("did you mean milliseconds? [Pattern[1].Event.Time]"))
        let strict = try await HapticsProcess.run(["validate", "--strict", "ms.ahap"], in: folder.url, timeout: .seconds(30))
        #expect(strict.status == 1)
    }

    @Test("render: a millisecond pattern still renders, with the warning on standard error")
    func renderWarnsAboutMilliseconds() async throws {
        let folder = try TemporaryFolder()
        try folder.write("ms.ahap", Self.millisecondPattern)
        let result = try await HapticsProcess.run(["render", "ms.ahap", "-o", "/dev/null"], in: folder.url, timeout: .seconds(60))
        #expect(result.status == 0)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasSuffix("did you mean milliseconds? [Pattern[1].Event.Time]") == true)
    }

    /// `haptics: warning: the signal clipped: N of M samples (P%) exceeded ±1 and were cut; …`
    func clippedFigures(_ line: String) -> (clipped: Int, total: Int, percent: Double)? {
        let prefix = "haptics: warning: the signal clipped: "
        guard line.hasPrefix(prefix), line.hasSuffix("exceeded ±1 and were cut; lower --gain or the pattern's intensities") else { return nil }
        let words = line.dropFirst(prefix.count).split(separator: " ")
        guard words.count > 4, words[1] == "of", let clipped = Int(words[0]), let total = Int(words[2]),
            let percent = Double(words[4].dropFirst().dropLast(2))
        else { return nil }
        return (clipped, total, percent)
    }

    @Test("render: clipping is one warning line with the count and percentage, matching --stats")
    func renderClipping() async throws {
        let folder = try TemporaryFolder()
        try folder.write("sample.ahap", samplePattern)
        let result = try await HapticsProcess.run(["render", "sample.ahap", "-o", "out.wav", "--gain", "4", "--stats"], in: folder.url, timeout: .seconds(60))
        #expect(result.status == 0)
        #expect(result.errorLines.count == 1)
        let figures = try #require(clippedFigures(result.errorLines.first ?? ""), "\(result.errorLines)")
        #expect(figures.clipped > 0)
        #expect(result.output.contains("clipped samples \(figures.clipped)"))
        #expect(result.output.contains("\(figures.total) frames"))
        #expect(abs(figures.percent - 100 * Double(figures.clipped) / Double(figures.total)) < 0.01)
        let quiet = try await HapticsProcess.run(["render", "sample.ahap", "-o", "out.wav"], in: folder.url, timeout: .seconds(60))
        #expect(quiet.errorOutput.isEmpty)
    }

    @Test("play: clipping is one warning line too")
    func playClipping() async throws {
        let folder = try TemporaryFolder()
        try folder.write("sample.ahap", samplePattern)
        let result = try await HapticsProcess.run(["play", "sample.ahap", "--device", "null", "--gain", "4"], in: folder.url, timeout: .seconds(60))
        #expect(result.status == 0)
        #expect(result.errorLines.count == 1)
        let figures = try #require(clippedFigures(result.errorLines.first ?? ""), "\(result.errorLines)")
        #expect(figures.clipped > 0 && figures.total >= figures.clipped)
        let quiet = try await HapticsProcess.run(["play", "sample.ahap", "--device", "null"], in: folder.url, timeout: .seconds(60))
        #expect(quiet.status == 0)
        #expect(quiet.errorOutput.isEmpty)
    }
}
