import FoundationEssentials
import HapticsCore
import HapticsPresets

/// feedbackd themes (the Linux phone and desktop feedback daemon; source: its
/// `doc/feedback-themes.rst` and the Feedback Theme Specification): JSON with a `name`, an
/// optional `parent-name`, and `profiles` (`full`, `quiet`, `silent`), each a list of
/// `feedbacks` mapping an `event-name` to a feedback.
///
/// One model, ``Document``, is what ``read(contentsOf:)`` returns and what ``Document/json()``
/// writes: every feedback type of feedbackd (`VibraRumble`, `VibraPeriodic`, `VibraPattern`,
/// `Sound`, `Led`) and this toolkit's extension `Pattern` (a preset or an AHAP file).
/// Magnitudes are read on either of feedbackd's scales, 0…1 (0.8.x) or 0…32767 (the 0.0.x
/// themes: a theme with any magnitude above 1), and kept and written as 0…1.
///
/// `convert` writes `VibraPattern` entries in the `quiet` profile, which the daemon also uses at
/// `full`; `parent-name` `default` keeps the stock theme's sounds and LEDs.
public enum FeedbackdTheme {
    /// One `VibraPattern` theme entry, as `convert` writes it.
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

    /// The theme's JSON: the entries in the `quiet` profile of a theme named `name`.
    public static func json(name: String = "haptics", parent: String? = "default", entries: [Entry]) -> Data {
        let feedbacks = entries.map { Feedback(eventName: $0.eventName, kind: .vibraPattern(magnitudes: $0.magnitudes, durations: $0.durations)) }
        return Document(name: name, parentName: parent, profiles: [Profile(level: .quiet, feedbacks: feedbacks)]).json()
    }

    // MARK: The model

    /// A feedback level and the profile section of that name. A daemon at a level plays the
    /// sections of that level and every lower one.
    public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable {
        /// Only the `silent` section (LEDs; no motor, no sound).
        case silent
        /// `quiet` and `silent`: haptics, no sound.
        case quiet
        /// Every section.
        case full

        /// `full`, `quiet` or `silent`.
        public var name: String {
            switch self {
            case .silent: "silent"
            case .quiet: "quiet"
            case .full: "full"
            }
        }

        /// The level named `full`, `quiet` or `silent`; nil for anything else.
        public init?(name: String) {
            guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = level
        }

        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// A whole theme file.
    public struct Document: Sendable, Hashable {
        /// The theme's name (`default`, `custom`, a device's compatible string…).
        public var name: String
        /// The theme it extends: its feedbacks apply where this one has none.
        public var parentName: String?
        /// The profile sections, in file order, at most one per level.
        public var profiles: [Profile]

        /// Creates a theme.
        public init(name: String, parentName: String? = nil, profiles: [Profile] = []) {
            self.name = name
            self.parentName = parentName
            self.profiles = profiles
        }

        /// The section of a level, if the theme has one.
        public func profile(_ level: Level) -> Profile? { profiles.first { $0.level == level } }

        /// The feedback for an event in a level's own section (not the lower ones).
        public func feedback(for event: String, in level: Level) -> Feedback? {
            profile(level)?.feedbacks.last { $0.eventName == event }
        }

        /// The theme as feedbackd's JSON, magnitudes on the 0…1 scale; ``FeedbackdTheme/read(bytes:name:)``
        /// reads it back as the same document.
        public func json() -> Data {
            var text = "{\n  \"name\": \(JSONText.quoted(name)),\n"
            if let parentName { text += "  \"parent-name\": \(JSONText.quoted(parentName)),\n" }
            text += "  \"profiles\": ["
            text += profiles.map { profile in
                "\n    {\n      \"name\": \(JSONText.quoted(profile.level.name)),\n      \"feedbacks\": ["
                    + profile.feedbacks.map { "\n        " + $0.json() }.joined(separator: ",")
                    + (profile.feedbacks.isEmpty ? "]\n    }" : "\n      ]\n    }")
            }.joined(separator: ",")
            text += profiles.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
            return Data(text.utf8)
        }
    }

    /// One profile section: a level and its feedbacks.
    public struct Profile: Sendable, Hashable {
        /// Which section.
        public var level: Level
        /// Its feedbacks, in file order; a later one for the same event wins, as in feedbackd.
        public var feedbacks: [Feedback]

        /// Creates a section.
        public init(level: Level, feedbacks: [Feedback]) {
            self.level = level
            self.feedbacks = feedbacks
        }
    }

    /// An event's feedback in one section.
    public struct Feedback: Sendable, Hashable {
        /// The event it answers (`button-pressed`, …).
        public var eventName: String
        /// What it does.
        public var kind: Kind

        /// Creates a feedback.
        public init(eventName: String, kind: Kind) {
            self.eventName = eventName
            self.kind = kind
        }

        /// The feedback's JSON object on one line.
        func json() -> String {
            var members = ["\"event-name\": \(JSONText.quoted(eventName))", "\"type\": \(JSONText.quoted(kind.typeName))"]
            func number(_ value: Double) -> String { JSONOutput.number(value, digits: 4) }
            switch kind {
            case .vibraRumble(let duration, let count, let pause, let magnitude):
                members += ["\"duration\": \(duration)", "\"count\": \(count)", "\"pause\": \(pause)", "\"magnitude\": \(number(magnitude))"]
            case .vibraPeriodic(let duration, let magnitude, let fadeInTime, let fadeInLevel):
                members += [
                    "\"duration\": \(duration)", "\"magnitude\": \(number(magnitude))", "\"fade-in-time\": \(fadeInTime)",
                    "\"fade-in-level\": \(number(fadeInLevel))",
                ]
            case .vibraPattern(let magnitudes, let durations):
                members += [
                    "\"magnitudes\": [\(magnitudes.map(number).joined(separator: ", "))]",
                    "\"durations\": [\(durations.map(String.init).joined(separator: ", "))]",
                ]
            case .sound(let effect, let mediaRole):
                members.append("\"effect\": \(JSONText.quoted(effect))")
                if let mediaRole { members.append("\"media-role\": \(JSONText.quoted(mediaRole))") }
            case .led(let color, let frequency):
                members += ["\"color\": \(JSONText.quoted(color))", "\"frequency\": \(frequency)"]
            case .pattern(.preset(let name)):
                members.append("\"preset\": \(JSONText.quoted(name))")
            case .pattern(.file(let path)):
                members.append("\"file\": \(JSONText.quoted(path))")
            }
            return "{ " + members.joined(separator: ", ") + " }"
        }
    }

    /// What a feedback does. Durations are milliseconds; magnitudes 0…1.
    public enum Kind: Sendable, Hashable {
        /// `VibraRumble`: `count` rumbles sharing `duration` ms, each followed by `pause` ms
        /// (each rumble lasts `duration / count − pause`).
        case vibraRumble(duration: Int, count: Int, pause: Int, magnitude: Double)
        /// `VibraPeriodic`: a vibration of `duration` ms at `magnitude`, rising from
        /// `fadeInLevel` over its first `fadeInTime` ms.
        case vibraPeriodic(duration: Int, magnitude: Double, fadeInTime: Int, fadeInLevel: Double)
        /// `VibraPattern`: step `i` holds `magnitudes[i]` for `durations[i]` ms.
        case vibraPattern(magnitudes: [Double], durations: [Int])
        /// `Sound`: the XDG sound theme's `effect`, on a stream of `mediaRole` (`event` when nil).
        case sound(effect: String, mediaRole: String?)
        /// `Led`: blink a `color` (`red`, `green`, `blue`, `white` or `#RRGGBB`) at `frequency` mHz.
        case led(color: String, frequency: Int)
        /// `Pattern` (this toolkit's extension): an authored pattern.
        case pattern(PatternSource)

        /// The `type` member: `VibraRumble`, `Sound`, `Pattern`, ….
        public var typeName: String {
            switch self {
            case .vibraRumble: "VibraRumble"
            case .vibraPeriodic: "VibraPeriodic"
            case .vibraPattern: "VibraPattern"
            case .sound: "Sound"
            case .led: "Led"
            case .pattern: "Pattern"
            }
        }

        /// Whether it moves an actuator (the `Vibra` types and `Pattern`).
        public var isHaptic: Bool {
            switch self {
            case .vibraRumble, .vibraPeriodic, .vibraPattern, .pattern: true
            case .sound, .led: false
            }
        }
    }

    /// Where a `Pattern` feedback's pattern comes from.
    public enum PatternSource: Sendable, Hashable {
        /// A preset of the library by name (`"preset": "success"`).
        case preset(String)
        /// An AHAP file (`"file": "tick.ahap"`); a relative path is relative to the theme
        /// file's folder.
        case file(String)
    }

    // MARK: Reading

    /// The largest theme file read (feedbackd's own default theme is 6 KB).
    public static let byteLimit = 1 << 20
    /// The longest pattern step list, `durations` or `magnitudes` of one `VibraPattern`.
    public static let maxSteps = 10_000
    /// The most rumbles one `VibraRumble` may have.
    public static let maxRumbles = 1000
    /// The longest time any feedback value may name: one hour, in ms.
    public static let maxMilliseconds = 3_600_000
    /// The largest magnitude on the integer scale of the 0.0.x themes (`0x7FFF`).
    public static let integerMagnitudeScale = 32767.0

    static let maxName = 256
    static let maxPath = 4096
    static let rootKeys = ["name", "parent-name", "profiles"]
    static let profileKeys = ["name", "feedbacks"]
    static let typeKeys: [String: [String]] = [
        "VibraRumble": ["duration", "count", "pause", "magnitude"],
        "VibraPeriodic": ["duration", "magnitude", "fade-in-time", "fade-in-level"],
        "VibraPattern": ["magnitudes", "durations"],
        "Sound": ["effect", "media-role"],
        "Led": ["color", "frequency", "max-brightness", "priority"],
        "Pattern": ["preset", "file"],
    ]
    static let typeNames = ["VibraRumble", "VibraPeriodic", "VibraPattern", "Sound", "Led", "Pattern"]

    /// Reads a theme file; errors (`JSONFileError`) name the file, the line and column, the
    /// JSON path and the problem, in one line.
    public static func read(contentsOf path: String) throws(JSONFileError) -> Document {
        try read(JSONFile(contentsOf: path, name: path, byteLimit: byteLimit))
    }

    /// Reads theme JSON, naming it `name` in errors.
    public static func read(bytes: [UInt8], name: String) throws(JSONFileError) -> Document {
        try read(JSONFile(bytes: bytes, name: name))
    }

    static func read(_ file: JSONFile) throws(JSONFileError) -> Document {
        let root = try file.rootObject(expected: #"a feedbackd theme, like {"name": "custom", "profiles": […]}"#)
        try root.checkKeys(rootKeys)
        let name = try root.required("name", meaning: "the theme's name").string(maxLength: maxName)
        let parentName = try root["parent-name"].map { field throws(JSONFileError) in try field.string(maxLength: maxName) }
        var profiles: [Profile] = []
        let integerScale = usesIntegerMagnitudes(root.value)
        if let field = root["profiles"] {
            for item in try field.array(count: 0...Level.allCases.count, of: "profile sections (full, quiet, silent)") {
                let object = try item.object(expected: #"a profile section, like {"name": "quiet", "feedbacks": […]}"#)
                try object.checkKeys(profileKeys)
                let nameField = try object.required("name", meaning: "full, quiet or silent")
                let levelName = try nameField.string(maxLength: maxName)
                guard let level = Level(name: levelName) else {
                    throw nameField.error(
                        .unknownKey(
                            key: levelName, suggestion: NameSuggestion.best(for: levelName, among: Level.allCases.map(\.name)),
                            known: Level.allCases.map(\.name), noun: "profile"))
                }
                guard !profiles.contains(where: { $0.level == level }) else {
                    throw nameField.error(.inconsistent(key: "name", message: "a second '\(levelName)' section; a theme has one of each"))
                }
                var feedbacks: [Feedback] = []
                if let list = object["feedbacks"] {
                    for entry in try list.array(count: 0...maxSteps, of: "feedbacks") {
                        feedbacks.append(try feedback(entry, integerScale: integerScale))
                    }
                }
                profiles.append(Profile(level: level, feedbacks: feedbacks))
            }
        }
        return Document(name: name, parentName: parentName, profiles: profiles)
    }

    /// Whether a theme is on the 0.0.x themes' integer scale: some feedback's `magnitude`,
    /// `fade-in-level` or `magnitudes` item is above 1 (0.8's are all 0…1).
    static func usesIntegerMagnitudes(_ root: JSONValue) -> Bool {
        func member(_ value: JSONValue, _ key: String) -> JSONValue? {
            guard case .object(let members) = value.content else { return nil }
            return members.first { $0.key == key }?.value
        }
        func items(_ value: JSONValue?) -> [JSONValue] {
            guard let value, case .array(let items) = value.content else { return [] }
            return items
        }
        func aboveOne(_ value: JSONValue?) -> Bool {
            guard let value, case .number(let number) = value.content else { return false }
            return number > 1
        }
        for profile in items(member(root, "profiles")) {
            for feedback in items(member(profile, "feedbacks")) {
                if aboveOne(member(feedback, "magnitude")) || aboveOne(member(feedback, "fade-in-level"))
                    || items(member(feedback, "magnitudes")).contains(where: aboveOne)
                {
                    return true
                }
            }
        }
        return false
    }

    /// One feedback. `integerScale`: the theme is a 0.0.x theme, whose magnitudes are
    /// 0…32767 and whose `VibraPeriodic` defaults to full strength without a fade-in.
    static func feedback(_ field: JSONField, integerScale: Bool) throws(JSONFileError) -> Feedback {
        let object = try field.object(expected: #"a feedback, like {"event-name": "button-pressed", "type": "VibraRumble", "duration": 15}"#)
        let eventName = try object.required("event-name", meaning: "the event it answers, such as button-pressed").string(maxLength: maxName)
        let typeField = try object.required("type", meaning: "one of \(typeNames.joined(separator: ", "))")
        let type = try typeField.string(maxLength: maxName)
        guard let keys = typeKeys[type] else {
            throw typeField.error(.unknownKey(key: type, suggestion: NameSuggestion.best(for: type, among: typeNames), known: typeNames, noun: "feedback type"))
        }
        try object.checkKeys(["event-name", "type"] + keys, noun: "\(type) key")
        func magnitude(_ field: JSONField) throws(JSONFileError) -> Double {
            let value = try field.number(in: 0...integerMagnitudeScale)
            return integerScale ? value / integerMagnitudeScale : value
        }
        func milliseconds(_ key: String, default value: Int) throws(JSONFileError) -> Int {
            try object[key]?.integer(in: 0...maxMilliseconds, unit: "ms") ?? value
        }
        let kind: Kind
        switch type {
        case "VibraRumble":
            let count = try object["count"]?.integer(in: 0...maxRumbles) ?? 1
            kind = .vibraRumble(
                duration: try milliseconds("duration", default: 1000), count: count, pause: try milliseconds("pause", default: 0),
                magnitude: try object["magnitude"].map(magnitude) ?? 0.5)
        case "VibraPeriodic":
            // 0.0.x: magnitude 0x7FFF and fade-in level = magnitude (no fade); 0.8: 0.5, from 0 over 500 ms.
            let strength = try object["magnitude"].map(magnitude) ?? (integerScale ? 1 : 0.5)
            kind = .vibraPeriodic(
                duration: try milliseconds("duration", default: 1000), magnitude: strength,
                fadeInTime: try milliseconds("fade-in-time", default: integerScale ? 0 : 500),
                fadeInLevel: try object["fade-in-level"].map(magnitude) ?? (integerScale ? strength : 0))
        case "VibraPattern":
            let magnitudesField = try object.required("magnitudes", meaning: "the step magnitudes, 0…1")
            let durationsField = try object.required("durations", meaning: "the step durations in ms")
            var magnitudes: [Double] = []
            for item in try magnitudesField.array(count: 0...maxSteps, of: "magnitudes from 0 to 1") { magnitudes.append(try magnitude(item)) }
            var durations: [Int] = []
            for item in try durationsField.array(count: 0...maxSteps, of: "durations in ms") {
                durations.append(try item.integer(in: 0...maxMilliseconds, unit: "ms"))
            }
            guard magnitudes.count == durations.count else {
                throw durationsField.error(
                    .inconsistent(key: "durations", message: "has \(durations.count) items but magnitudes has \(magnitudes.count); they pair up one to one"))
            }
            kind = .vibraPattern(magnitudes: magnitudes, durations: durations)
        case "Sound":
            let effect = try object.required("effect", meaning: "a sound theme's sound name, such as message-new-instant").string(maxLength: maxName)
            kind = .sound(effect: effect, mediaRole: try object["media-role"].map { field throws(JSONFileError) in try field.string(maxLength: maxName) })
        case "Led":
            let color = try object["color"]?.string(maxLength: maxName) ?? "white"
            kind = .led(color: color, frequency: try object["frequency"]?.integer(in: 0...1_000_000_000, unit: "mHz") ?? 1000)
        default:  // Pattern
            let preset = object["preset"]
            let file = object["file"]
            switch (preset, file) {
            case (let preset?, nil):
                let name = try preset.string(maxLength: maxName)
                guard PresetLibrary.info(named: name) != nil else {
                    throw preset.error(
                        .unknownKey(key: name, suggestion: PresetLibrary.suggestion(for: name), known: PresetLibrary.all.map(\.name), noun: "preset"))
                }
                kind = .pattern(.preset(name))
            case (nil, let file?):
                kind = .pattern(.file(try file.string(maxLength: maxPath)))
            case (_?, let file?):
                throw file.keyError(.inconsistent(key: "file", message: "a Pattern has either a preset or a file, not both"))
            case (nil, nil):
                throw object.file.error(
                    .missingKey(key: "preset", meaning: "a Pattern names a preset (\"preset\": \"success\") or an AHAP file (\"file\": \"tick.ahap\")"),
                    at: object.value.start, path: object.path.isEmpty ? "preset" : object.path + ".preset")
            }
        }
        return Feedback(eventName: eventName, kind: kind)
    }
}
