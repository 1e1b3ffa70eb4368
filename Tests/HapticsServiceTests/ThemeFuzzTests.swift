import Foundation
import Haptics
import HapticsTestSupport
import Testing

@testable import HapticsService

@Suite("Damaged themes never crash the service's theme loading")
struct ThemeFuzzTests {
    /// The reader's seeds with their Pattern files and sounds present, so that mutations reach
    /// the making of patterns and the sound lookup, not only the reader.
    static var seeds: [String] {
        [
            """
            { "name": "custom", "profiles": [
              { "name": "full", "feedbacks": [ { "event-name": "phone-incoming-call", "type": "Sound", "effect": "bell" } ] },
              { "name": "quiet", "feedbacks": [
                { "event-name": "a", "type": "VibraRumble", "duration": 750, "count": 3, "pause": 100, "magnitude": 0.5 },
                { "event-name": "b", "type": "VibraPeriodic", "magnitude": 32767, "duration": 1000, "fade-in-time": 300, "fade-in-level": 4096 },
                { "event-name": "c", "type": "VibraPattern", "magnitudes": [0.25, 0, 0.25], "durations": [50, 250, 50] },
                { "event-name": "d", "type": "Pattern", "preset": "success" },
                { "event-name": "e", "type": "Pattern", "file": "tick.ahap" } ] },
              { "name": "silent", "feedbacks": [ { "event-name": "f", "type": "Led", "color": "red", "frequency": 5000 } ] } ] }
            """
        ]
    }

    static let words = [
        "\"parent-name\": \"default\", ", "\"parent-name\": \"custom\", ", "\"count\": 1000, ", "\"duration\": 3600000, ", "\"pause\": ",
        "\"file\": \"../tick.ahap\"", "\"effect\": \"bell-x-y\"", "\"effect\": \"..\"", "\"magnitudes\": [1, 1, 0.5]", ", ", "{", "}",
    ]

    @Test("every damaged theme loads or fails with one line naming a file", .timeLimit(.minutes(1)))
    func damagedThemes() throws {
        let folders = try ThemeFolders()
        try folders.folder.write("themes/tick.ahap", #"{ "Pattern": [ { "Event": { "EventType": "HapticTransient", "Time": 0 } } ] }"#)
        try TestWAV.write(
            TestWAV.sine(frequency: 300, seconds: 0.05, sampleRate: 8000), sampleRate: 8000, to: folders.folder.file("data/sounds/freedesktop/stereo/bell.wav"))
        try folders.system("default", ThemeFolders.theme("default", rumbles: ["a": 10]))
        let file = folders.folder.file("themes/custom.json")
        let run = FuzzRun(reader: "feedbackd-theme", defaultSeconds: 2, defaultSeed: 0x7E_E3E5)
        let (loaded, refused) = run.mutate(seeds: Self.seeds, words: Self.words) { bytes, label in
            do {
                try Data(bytes).write(to: file)
                let theme = try FeedbackTheme(contentsOf: file, environment: folders.environment, deviceTreeRoot: folders.root)
                let events = theme.events.reduce(0) { count, event in
                    count + theme.feedbacks(for: event, level: .full).reduce(0) { $0 + ($1.pattern?.events.count ?? 0) }
                }
                #expect(events <= FeedbackTheme.maxEvents, "\(label)")
                return .loaded
            } catch let error as FeedbackThemeError {
                return FuzzRun.refusal(error.description, .source(file.path), label: label)
            } catch {
                Issue.record("\(label): \(error)")
                return .failed
            }
        }
        #expect(loaded > 0 && refused > 20, "the mutations both keep and break themes (\(loaded) loaded, \(refused) refused)")
    }
}
