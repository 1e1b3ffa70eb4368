import Foundation
import HapticsCore
import HapticsPresets

/// feedbackd themes (the Linux phone and desktop feedback daemon; source: its
/// `doc/feedback-themes.rst` and the Feedback Theme Specification): JSON with a `name`, an
/// optional `parent-name`, and `profiles` (`full`, `quiet`, `silent`), each a list of
/// `feedbacks` mapping an `event-name` to a feedback. The haptic one used here is
/// `VibraPattern`: `magnitudes` (0…1) and `durations` (ms), arrays of equal length.
///
/// Entries go in the `quiet` profile, which the daemon also uses at `full`; `parent-name`
/// `default` keeps the stock theme's sounds and LEDs.
public enum FeedbackdTheme {
    /// One theme entry.
    public struct Entry: Sendable, Hashable {
        public var eventName: String
        public var magnitudes: [Double]
        public var durations: [Int]
    }

    /// A pattern as a `VibraPattern` entry (5 ms steps of amplitude = intensity²; taps as
    /// 20 ms pulses; sharpness dropped).
    public static func entry(eventName: String, pattern: HapticPattern, notes: inout ConversionNotes) -> Entry {
        let layers = HapticLayers(pattern: pattern, notes: &notes)
        let steps = AmplitudeSteps(layers, levels: 1000).steps
        notes.add("vibra", "feedbackd VibraPattern: 5 ms steps of magnitude, no sharpness, taps as 20 ms pulses")
        return Entry(eventName: eventName, magnitudes: steps.map(\.amplitude), durations: steps.map(\.milliseconds))
    }

    /// Every preset of the library as one theme, each under its name.
    public static func presetLibrary(notes: inout ConversionNotes) -> [Entry] {
        PresetLibrary.all.compactMap { info in
            guard let pattern = PresetLibrary.authoredPattern(named: info.name) else { return nil }
            return entry(eventName: info.name, pattern: pattern, notes: &notes)
        }
    }

    /// The theme's JSON.
    public static func json(name: String = "haptics", parent: String? = "default", entries: [Entry]) -> Data {
        var text = "{\n  \"name\": \(JSONText.quoted(name)),\n"
        if let parent { text += "  \"parent-name\": \(JSONText.quoted(parent)),\n" }
        text += "  \"profiles\": [\n    {\n      \"name\": \"quiet\",\n      \"feedbacks\": [\n"
        text += entries.map { entry in
            "        { \"event-name\": \(JSONText.quoted(entry.eventName)), \"type\": \"VibraPattern\",\n"
                + "          \"magnitudes\": [\(entry.magnitudes.map { JSONOutput.number($0, digits: 3) }.joined(separator: ", "))],\n"
                + "          \"durations\": [\(entry.durations.map(String.init).joined(separator: ", "))] }"
        }.joined(separator: ",\n")
        text += "\n      ]\n    }\n  ]\n}\n"
        return Data(text.utf8)
    }
}
