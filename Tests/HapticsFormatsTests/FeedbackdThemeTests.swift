import Foundation
import HapticsCore
import HapticsFormats
import HapticsTestSupport
import Testing

@Suite("feedbackd theme files: one model read and written")
struct FeedbackdThemeTests {
    /// A theme in the style of Debian's feedbackd 0.0.3: integer magnitudes, the three types
    /// that release knew, an LED section.
    static let integerTheme = """
        {
          "name" : "default",
          "profiles" : [
            { "name" : "full", "feedbacks" : [
                { "event-name" : "message-new-instant", "type" : "Sound", "effect" : "message-new-instant" } ] },
            { "name" : "quiet", "feedbacks" : [
                { "event-name" : "alarm-clock-elapsed", "type" : "VibraPeriodic", "magnitude" : 32767,
                  "duration" : 10000, "fade-in-time" : 10000, "fade-in-level": 4096 },
                { "event-name" : "message-new-email", "type" : "VibraRumble", "duration" : 750, "count" : 3, "pause" : 100 },
                { "event-name" : "phone-incoming-call", "type" : "VibraPeriodic", "duration" : 10000 } ] },
            { "name" : "silent", "feedbacks" : [
                { "event-name" : "battery-caution", "type" : "Led", "color" : "red", "frequency" : 5000 } ] }
          ]
        }
        """

    @Test("a 0.0.3 theme: integer magnitudes become 0…1, missing values take 0.0.3's defaults (VibraPeriodic: full, no fade)")
    func integerMagnitudes() throws {
        let theme = try FeedbackdTheme.read(bytes: Array(Self.integerTheme.utf8), name: "old.json")
        #expect(theme.name == "default")
        #expect(theme.parentName == nil)
        #expect(theme.profiles.map(\.level) == [.full, .quiet, .silent])
        #expect(
            theme.feedback(for: "alarm-clock-elapsed", in: .quiet)?.kind
                == .vibraPeriodic(duration: 10000, magnitude: 1, fadeInTime: 10000, fadeInLevel: 4096 / 32767))
        #expect(theme.feedback(for: "message-new-email", in: .quiet)?.kind == .vibraRumble(duration: 750, count: 3, pause: 100, magnitude: 0.5))
        #expect(
            theme.feedback(for: "phone-incoming-call", in: .quiet)?.kind == .vibraPeriodic(duration: 10000, magnitude: 1, fadeInTime: 0, fadeInLevel: 1))
        #expect(theme.feedback(for: "message-new-instant", in: .full)?.kind == .sound(effect: "message-new-instant", mediaRole: nil))
        #expect(theme.feedback(for: "battery-caution", in: .silent)?.kind == .led(color: "red", frequency: 5000))
        #expect(theme.feedback(for: "message-new-instant", in: .quiet) == nil, "a section's feedbacks are its own")
    }

    @Test("the scale is the theme's: beside an integer magnitude, 1 is 1/32767; in a 0…1 theme, 1 is full")
    func scaleIsPerTheme() throws {
        func rumbleMagnitudes(_ values: [String]) throws -> [Double] {
            let feedbacks = values.enumerated().map { #"{ "event-name": "e\#($0)", "type": "VibraRumble", "magnitude": \#($1) }"# }
            let text = #"{ "name": "x", "profiles": [ { "name": "quiet", "feedbacks": [ \#(feedbacks.joined(separator: ", ")) ] } ] }"#
            return try FeedbackdTheme.read(bytes: Array(text.utf8), name: "x.json").profiles[0].feedbacks.map {
                if case .vibraRumble(_, _, _, let magnitude) = $0.kind { magnitude } else { -1 }
            }
        }
        #expect(try rumbleMagnitudes(["1", "32767"]) == [1 / 32767, 1])
        #expect(try rumbleMagnitudes(["1", "0.5"]) == [1, 0.5])
        #expect(throws: JSONFileError.self) { try rumbleMagnitudes(["32768"]) }
    }

    @Test("a 0.8 theme: 0…1 magnitudes, VibraPattern, media roles, and the Pattern extension")
    func unitMagnitudesAndPatterns() throws {
        let text = """
            { "name": "custom", "parent-name": "default", "profiles": [
              { "name": "full", "feedbacks": [
                { "event-name": "phone-incoming-call", "type": "Sound", "effect": "phone-incoming-call", "media-role": "alarm" } ] },
              { "name": "quiet", "feedbacks": [
                { "event-name": "button-pressed", "type": "VibraPattern", "magnitudes": [0.2], "durations": [7] },
                { "event-name": "notification-new-generic", "type": "VibraPattern", "magnitudes": [0.25, 0, 0.25], "durations": [50, 250, 50] },
                { "event-name": "button-released", "type": "VibraRumble", "duration": 12, "magnitude": 1 },
                { "event-name": "message-new-sms", "type": "Pattern", "preset": "success" },
                { "event-name": "key-pressed", "type": "Pattern", "file": "tick.ahap" } ] } ] }
            """
        let theme = try FeedbackdTheme.read(bytes: Array(text.utf8), name: "custom.json")
        #expect(theme.parentName == "default")
        #expect(theme.feedback(for: "button-pressed", in: .quiet)?.kind == .vibraPattern(magnitudes: [0.2], durations: [7]))
        #expect(
            theme.feedback(for: "notification-new-generic", in: .quiet)?.kind == .vibraPattern(magnitudes: [0.25, 0, 0.25], durations: [50, 250, 50]))
        #expect(theme.feedback(for: "button-released", in: .quiet)?.kind == .vibraRumble(duration: 12, count: 1, pause: 0, magnitude: 1))
        #expect(theme.feedback(for: "phone-incoming-call", in: .full)?.kind == .sound(effect: "phone-incoming-call", mediaRole: "alarm"))
        #expect(theme.feedback(for: "message-new-sms", in: .quiet)?.kind == .pattern(.preset("success")))
        #expect(theme.feedback(for: "key-pressed", in: .quiet)?.kind == .pattern(.file("tick.ahap")))
    }

    @Test("what the writer writes, the reader reads back as the same theme, every type included")
    func writtenThemesReadBack() throws {
        let document = FeedbackdTheme.Document(
            name: "round-trip", parentName: "default",
            profiles: [
                .init(
                    level: .full,
                    feedbacks: [
                        .init(eventName: "a", kind: .sound(effect: "bell", mediaRole: "event")),
                        .init(eventName: "b", kind: .sound(effect: "x", mediaRole: nil)),
                    ]),
                .init(
                    level: .quiet,
                    feedbacks: [
                        .init(eventName: "c", kind: .vibraRumble(duration: 750, count: 3, pause: 100, magnitude: 0.25)),
                        .init(eventName: "d", kind: .vibraPeriodic(duration: 1000, magnitude: 0.5, fadeInTime: 200, fadeInLevel: 0.125)),
                        .init(eventName: "e", kind: .vibraPattern(magnitudes: [0.2, 0, 1], durations: [7, 20, 30])),
                        .init(eventName: "f", kind: .pattern(.preset("success"))),
                        .init(eventName: "g", kind: .pattern(.file("sub/tick.ahap"))),
                    ]),
                .init(level: .silent, feedbacks: [.init(eventName: "h", kind: .led(color: "#00FFFF", frequency: 500))]),
            ])
        let read = try FeedbackdTheme.read(bytes: Array(document.json()), name: "written.json")
        #expect(read == document)
    }

    @Test("a converted pattern's entry reads back with its magnitudes and durations")
    func convertedEntriesReadBack() throws {
        var notes = ConversionNotes()
        let entry = FeedbackdTheme.entry(
            eventName: "double", pattern: HapticPattern(events: [.transient(at: 0, intensity: 1), .transient(at: 0.1, intensity: 0.6)]), notes: &notes)
        let read = try FeedbackdTheme.read(bytes: Array(FeedbackdTheme.json(entries: [entry])), name: "converted.json")
        #expect(read.name == "haptics")
        #expect(read.parentName == "default")
        let kind = try #require(read.feedback(for: "double", in: .quiet)?.kind)
        guard case .vibraPattern(let magnitudes, let durations) = kind else {
            Issue.record("expected a VibraPattern, got \(kind)")
            return
        }
        #expect(durations == entry.durations)
        #expect(zip(magnitudes, entry.magnitudes).allSatisfy { abs($0 - $1) < 0.0005 } && magnitudes.count == entry.magnitudes.count)
    }

    @Test("the whole preset library as a theme reads back, one entry per preset")
    func libraryReadsBack() throws {
        var notes = ConversionNotes()
        let entries = FeedbackdTheme.presetLibrary(notes: &notes)
        let read = try FeedbackdTheme.read(bytes: Array(FeedbackdTheme.json(entries: entries)), name: "library.json")
        #expect(read.profile(.quiet)?.feedbacks.map(\.eventName) == entries.map(\.eventName))
    }

    @Test(
        "a bad theme is refused in one line with the file, line, column, JSON path and problem",
        arguments: [
            (
                #"{ "name": "x", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "a", "type": "VibraPattern", "magnitudes": [0.5, 1], "durations": ^[10] } ] } ] }"#,
                "profiles[0].feedbacks[0].durations: has 1 items but magnitudes has 2"
            ),
            (
                #"{ "name": "x", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "a", "type": ^"VibraRumbel" } ] } ] }"#,
                "profiles[0].feedbacks[0].type: unknown feedback type (did you mean 'VibraRumble'?)"
            ),
            (
                #"{ "name": "x", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "a", "type": "VibraRumble", ^"mangitude": 1 } ] } ] }"#,
                "profiles[0].feedbacks[0].mangitude: unknown VibraRumble key (did you mean 'magnitude'?)"
            ),
            (
                #"{ "name": "x", "profiles": [ { "name": ^"loud", "feedbacks": [] } ] }"#,
                "profiles[0].name: unknown profile"
            ),
            (
                #"{ "name": "x", "profiles": [ { "name": "quiet" }, { "name": ^"quiet" } ] }"#,
                "profiles[1].name: a second 'quiet' section"
            ),
            (
                #"{ "name": "x", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "a", "type": "Pattern", "preset": ^"sucess" } ] } ] }"#,
                "profiles[0].feedbacks[0].preset: unknown preset (did you mean 'success'?)"
            ),
            (
                #"{ "name": "x", "profiles": [ { "name": "quiet", "feedbacks": [ ^{ "event-name": "a", "type": "Pattern" } ] } ] }"#,
                "profiles[0].feedbacks[0].preset: missing"
            ),
            (
                #"{ "name": "x", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "a", "type": "VibraRumble", "duration": ^-5 } ] } ] }"#,
                "profiles[0].feedbacks[0].duration: expected a number from 0 to 3600000 ms, got -5"
            ),
            (#"^{ "profiles": [] }"#, "name: missing"),
            (#"{ "name": "x", "profiles": [ ^42 ] }"#, "profiles[0]: expected a profile section"),
        ])
    func refused(text: String, expected: String) {
        let marked = markedLocation(text)
        #expect {
            _ = try FeedbackdTheme.read(bytes: Array(marked.text.utf8), name: "bad.json")
        } throws: { error in
            let description = "\(error)"
            let ok = description.hasPrefix("bad.json:\(marked.line):\(marked.column): \(expected)") && !description.contains("\n")
            if !ok { Issue.record("got: \(description)") }
            return ok
        }
    }

    @Test("a theme file that is not there, or is too large, is refused naming the file")
    func fileProblems() throws {
        let folder = try TemporaryFolder()
        #expect(throws: JSONFileError.self) { try FeedbackdTheme.read(contentsOf: folder.path("missing.json")) }
        do {
            _ = try FeedbackdTheme.read(contentsOf: folder.path("missing.json"))
        } catch {
            #expect(error.description == "\(folder.path("missing.json")): no such file")
        }
        try folder.write("huge.json", Data(count: FeedbackdTheme.byteLimit + 1))
        #expect(throws: JSONFileError.self) { try FeedbackdTheme.read(contentsOf: folder.path("huge.json")) }
    }

    @Test(
        "Debian's installed default theme reads, every feedback of it",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/feedbackd/themes/default.json"), "needs Debian's feedbackd package (its theme)"))
    func installedDefaultTheme() throws {
        let theme = try FeedbackdTheme.read(contentsOf: "/usr/share/feedbackd/themes/default.json")
        #expect(theme.name == "default")
        let all = theme.profiles.flatMap(\.feedbacks)
        #expect(all.count > 10)
        for feedback in all {
            switch feedback.kind {
            case .vibraRumble(_, _, _, let m): #expect((0...1).contains(m))
            case .vibraPeriodic(_, let m, _, let f): #expect((0...1).contains(m) && (0...1).contains(f))
            case .vibraPattern(let ms, _): #expect(ms.allSatisfy { (0...1).contains($0) })
            default: break
            }
        }
    }
}
