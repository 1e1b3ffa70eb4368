import Foundation
import HapticsCore
import HapticsFormats
import HapticsTestSupport
import Testing

@Suite("Damaged feedbackd themes never crash the reader")
struct FeedbackdThemeFuzzTests {
    /// Real themes' shapes: Debian 0.0.3's integer magnitudes, 0.8's 0…1 values and
    /// VibraPattern, every type, and this toolkit's Pattern extension.
    static let seeds = [
        """
        { "name" : "default", "profiles" : [
          { "name" : "full", "feedbacks" : [ { "event-name" : "button-pressed", "type" : "Sound", "effect" : "button-pressed" } ] },
          { "name" : "quiet", "feedbacks" : [
            { "event-name" : "alarm-clock-elapsed", "type" : "VibraPeriodic", "magnitude" : 32767, "duration" : 10000,
              "fade-in-time" : 10000, "fade-in-level": 4096 },
            { "event-name" : "message-new-email", "type" : "VibraRumble", "duration" : 750, "count" : 3, "pause" : 100 } ] },
          { "name" : "silent", "feedbacks" : [ { "event-name" : "battery-caution", "type" : "Led", "color" : "red", "frequency" : 5000 } ] } ] }
        """,
        """
        { "name": "custom", "parent-name": "default", "profiles": [
          { "name": "quiet", "feedbacks": [
            { "event-name": "button-pressed", "type": "VibraPattern", "magnitudes": [0.2], "durations": [7] },
            { "event-name": "notification-new-generic", "type": "VibraPattern", "magnitudes": [0.25, 0, 0.25], "durations": [50, 250, 50] },
            { "event-name": "phone-incoming-call", "type": "VibraPeriodic", "magnitude": 0.5, "duration": 1000 },
            { "event-name": "message-new-sms", "type": "Pattern", "preset": "success" },
            { "event-name": "key-pressed", "type": "Pattern", "file": "tick.ahap" } ] } ] }
        """,
        #"{ "name": "empty", "profiles": [] }"#,
    ]

    static let words = [
        "\"event-name\": ", "\"type\": ", "\"VibraRumble\"", "\"VibraPeriodic\"", "\"VibraPattern\"", "\"Sound\"", "\"Led\"", "\"Pattern\"",
        "\"magnitude\": ", "\"magnitudes\": ", "\"durations\": ", "\"duration\": ", "\"count\": ", "\"pause\": ", "\"fade-in-time\": ",
        "\"fade-in-level\": ", "\"preset\": ", "\"file\": ", "\"parent-name\": ", "\"profiles\": ", "\"feedbacks\": ", "\"full\"",
        "\"quiet\"", "\"silent\"", ", ", "{", "}", "[", "]", "[0.5, 1]", "[10]", "32767", "32768",
    ]

    @Test("every damaged theme either reads with in-range values or fails with one located line", .timeLimit(.minutes(1)))
    func damagedThemes() {
        let run = FuzzRun(reader: "feedbackd-theme", defaultSeconds: 3, defaultSeed: 0xFEED_BAC4)
        let (loaded, refused) = run.mutate(seeds: Self.seeds, words: Self.words, check: Self.check)
        #expect(loaded > 0 && refused > 100, "the mutations both keep and break themes (\(loaded) loaded, \(refused) refused)")
    }

    /// One input: it reads as a theme whose values are in range, or fails with one located line.
    static func check(_ bytes: [UInt8], label: String) -> FuzzOutcome {
        let lines = bytes.count { $0 == 0x0A } + 1
        do throws(JSONFileError) {
            let theme = try FeedbackdTheme.read(bytes: bytes, name: "fuzz.json")
            let unit = 0.0...1.0
            let valid = theme.profiles.flatMap(\.feedbacks).allSatisfy { feedback in
                switch feedback.kind {
                case .vibraRumble(let duration, let count, let pause, let magnitude):
                    return duration >= 0 && pause >= 0 && (0...FeedbackdTheme.maxRumbles).contains(count) && unit.contains(magnitude)
                case .vibraPeriodic(let duration, let magnitude, let fadeInTime, let fadeInLevel):
                    return duration >= 0 && fadeInTime >= 0 && unit.contains(magnitude) && unit.contains(fadeInLevel)
                case .vibraPattern(let magnitudes, let durations):
                    return magnitudes.count == durations.count && magnitudes.allSatisfy(unit.contains) && durations.allSatisfy { $0 >= 0 }
                case .sound(let effect, _): return !effect.isEmpty
                case .led, .pattern: return true
                }
            }
            #expect(valid, "\(label): \(String(decoding: bytes, as: UTF8.self)) read as \(theme)")
            return valid ? .loaded : .failed
        } catch {
            return FuzzRun.refusal(
                error.description, .located(source: "fuzz.json", isLocated: error.isLocated, line: error.line, column: error.column, inputLines: lines),
                label: label)
        }
    }

    @Test("inputs that once broke the reader (Tests/FuzzCorpus/feedbackd-theme) read or fail with one located line")
    func corpus() {
        let inputs = FuzzRun.corpus("feedbackd-theme")
        #expect(!inputs.isEmpty, "the corpus folder is read")
        for (name, bytes) in inputs {
            #expect(Self.check(bytes, label: name) != FuzzOutcome.failed, "\(name)")
        }
    }
}
