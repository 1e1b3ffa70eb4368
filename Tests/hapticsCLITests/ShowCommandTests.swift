import Foundation
import HapticsTestSupport
import Testing

@Suite("haptics show")
struct ShowCommandTests {
    @Test("the text form has duration, counts and one timeline line per element sorted by time")
    func textTimeline() async throws {
        let folder = try TemporaryFolder()
        try folder.write("sample.ahap", samplePattern)
        let result = try await HapticsProcess.run(["show", "sample.ahap"], in: folder.url)
        #expect(result.status == 0)
        let lines = result.outputLines
        #expect(lines.first == "sample.ahap")
        // The continuous event ends at 0.3 + 0.2 plus a 5 ms release; the curve at 0.6.
        #expect(lines.contains("  duration    0.600 s"))
        #expect(lines.contains("  events      2 (1 transient, 1 continuous)"))
        #expect(lines.contains("  parameters  1"))
        #expect(lines.contains("  curves      1"))
        let timeline = lines.filter { $0.hasPrefix("       0.") }
        #expect(timeline.count == 4)
        #expect(
            timeline.map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) }
                == ["transient", "parameter", "curve", "continuous"])
        #expect(timeline[0].contains("intensity 1.00, sharpness 0.50"))
        #expect(timeline[1].contains("HapticIntensityControl = 0.80"))
        #expect(timeline[2].contains("HapticSharpnessControl, 2 points until 0.600 s"))
        #expect(timeline[3].contains("duration 0.200 s"))
        #expect(!result.output.contains("audio event"))
    }

    @Test("numbers are rounded as printf rounds them, and times align right in their column")
    func numberFormatting() async throws {
        let folder = try TemporaryFolder()
        // 0.125 is exactly halfway between 0.12 and 0.13: printf's `%.2f` keeps the even digit.
        try folder.write(
            "late.ahap",
            #"{"Pattern": [{"Event": {"Time": 123.4567, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.125}]}}]}"#
        )
        let result = try await HapticsProcess.run(["show", "late.ahap"], in: folder.url)
        #expect(result.status == 0, "\(result.errorLines)")
        let line = try #require(result.outputLines.first { $0.contains("transient ") && $0.contains("intensity") })
        #expect(line.hasPrefix("     123.457  transient"), "\(line)")
        #expect(line.contains("intensity 0.12,"), "\(line)")
    }

    @Test("on a terminal, show draws intensity, sharpness and the events under the table; piped, it does not")
    func terminalTimeline() async throws {
        let piped = try await HapticsProcess.run(["show", "success"])
        #expect(!piped.output.contains("intensity │"))
        let script = try #require(
            ["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "script(1) gives the command a terminal (Debian: bsdutils)")
        let haptics = try #require(HapticsProcess.executable)
        let run = try await HapticsProcess.runProgram(URL(fileURLWithPath: script), ["-qec", "'\(haptics.path)' show success", "/dev/null"])
        let text = run.output
        #expect(run.status == 0, "\(text)")
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let intensity = try #require(lines.first { $0.hasPrefix("  intensity │") }, "\(text)")
        let events = try #require(lines.first { $0.hasPrefix("  events    │") })
        // success: a soft tap at 0 and a strong one at 0.13 s, the last column.
        let bars = Array(intensity.dropFirst("  intensity │".count).prefix(60))
        #expect(bars.first != " " && bars.last == "█", "\(intensity)")
        #expect(bars.dropFirst(3).dropLast(3).allSatisfy { $0 == " " }, "silent between the taps: \(intensity)")
        #expect(events.filter { $0 == "╿" }.count == 2, "\(events)")
        #expect(events.hasSuffix("│ 0–0.13 s"))
    }

    @Test("a pattern with audio events says play plays them and render mixes them in with --audio")
    func audioNote() async throws {
        let json = """
            { "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticTransient" } },
                           { "Event": { "Time": 0, "EventType": "AudioCustom", "EventWaveformPath": "pop.wav" } },
                           { "Event": { "Time": 0.1, "EventType": "AudioContinuous", "EventDuration": 0.5 } } ] }
            """
        let result = try await HapticsProcess.run(["show", "-"], stdin: Data(json.utf8))
        #expect(result.status == 0)
        #expect(
            result.errorLines == ["-: note: 2 audio events play with `play` (on the audio channels, beside the haptics); `render` mixes them in with --audio"],
            "a note is a diagnostic: on standard error"
        )
        #expect(result.output.contains("pop.wav"))
    }

    @Test("--json reports duration, counts and time-ordered events, parameters and curves")
    func json() async throws {
        let result = try await HapticsProcess.run(["show", "--json", "-"], stdin: Data(samplePattern.utf8))
        #expect(result.status == 0)
        let object = try #require(try jsonObject(result.stdout) as? [String: Any])
        #expect(Set(object.keys) == ["hapticsVersion", "source", "ahapVersion", "duration", "metadata", "counts", "events", "parameters", "curves"])
        #expect(object["source"] as? String == "-")
        let numbers = try ShowOutput(result.stdout)
        // The curve ends last: its start plus its last point's time (0.6000000000000001 in
        // binary, written 0.6: JSON numbers are rounded to 6 decimals).
        #expect(numbers.duration == 0.6)
        #expect(object["metadata"] as? [String: String] == ["Project": "Tests"])
        let counts = try #require(object["counts"] as? [String: Int])
        #expect(counts == ["events": 2, "transients": 1, "continuous": 1, "audioContinuous": 0, "audioCustom": 0, "parameters": 1, "curves": 1])
        let events = try #require(object["events"] as? [[String: Any]])
        #expect(events.map { $0["type"] as? String } == ["HapticTransient", "HapticContinuous"])
        #expect(numbers.events.map(\.time) == [0, 0.3])
        #expect(numbers.events.map(\.end) == [0, 0.3 + 0.2 + 0.005])
        #expect(Set(events[0].keys) == ["time", "type", "duration", "end", "haptic", "intensity", "sharpness", "parameters", "waveformPath"])
        #expect(numbers.events[0].intensity == 1)
        #expect(numbers.events[0].sharpness == 0.5)
        #expect(events[0]["waveformPath"] is NSNull)
        #expect((events[1]["parameters"] as? [[String: Any]])?.map { $0["id"] as? String } == ["HapticIntensity", "HapticSharpness"])
        let parameters = try #require(object["parameters"] as? [[String: Any]])
        #expect(parameters.first?["id"] as? String == "HapticIntensityControl")
        #expect(numbers.parameters.map(\.value) == [0.8])
        let curves = try #require(object["curves"] as? [[String: Any]])
        #expect(curves.count == 1)
        #expect(numbers.curves.map(\.end) == [0.6])
        #expect(numbers.curves.first?.controlPoints.map(\.value) == [0, -0.5])
    }

    @Test("--help explains the timeline and the JSON form with examples")
    func help() async throws {
        let result = try await HapticsProcess.run(["show", "--help"])
        #expect(result.status == 0)
        for text in ["timeline", "mixes them in with --audio", "\"counts\"", "Examples:"] {
            #expect(result.output.contains(text), "\(text)")
        }
    }
}
