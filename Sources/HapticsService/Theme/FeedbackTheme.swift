import FoundationEssentials
import Glibc
import Haptics
import HapticsFormats
import HapticsSystem

/// The feedback theme the service plays: feedbackd's theme found as feedbackd finds it, its
/// `parent-name` chain merged (a theme's feedbacks replace its parent's for the same event and
/// section), and every feedback made into the pattern the engine plays.
package struct FeedbackTheme: Sendable {
    /// The name it was asked for (`default`, `custom`, …), or the file's name for a file.
    package var name: String
    /// The files of the chain, the theme first and its farthest parent last; `built-in` for
    /// the built-in theme.
    package var files: [String]
    /// Problems that do not stop the theme (one line each): LED feedbacks, which cannot play
    /// here (reported once for the theme), sounds the sound theme lacks, a named theme not
    /// found (the default used instead).
    package var warnings: [String]
    /// Feedbacks by section and event.
    var sections: [FeedbackLevel: [String: ThemeFeedback]]

    init(name: String, files: [String], warnings: [String], sections: [FeedbackLevel: [String: ThemeFeedback]]) {
        self.name = name
        self.files = files
        self.warnings = warnings
        self.sections = sections
    }

    /// The longest `parent-name` chain (feedbackd's `MAX_THEME_DEPTH`).
    package static let maxDepth = 10
    /// The most pattern events a theme's feedbacks may make together: a bound on the memory a
    /// theme takes (feedbackd's own theme makes about 20).
    package static let maxEvents = 100_000
    /// The name standing for the built-in theme in ``files``.
    package static let builtInFile = "built-in"

    /// What to play for an event at a level: the event's feedback in each section at or below
    /// the level (`full` plays full, quiet and silent), lowest first; empty when the theme has
    /// nothing for it there.
    package func feedbacks(for event: String, level: FeedbackLevel) -> [ThemeFeedback] {
        FeedbackLevel.allCases.filter { $0 <= level }.compactMap { sections[$0]?[event] }
    }

    /// Every event the theme answers at some level.
    package var events: Set<String> { Set(sections.values.flatMap(\.keys)) }

    // MARK: Loading

    /// The theme feedbackd would load: the file `FEEDBACK_THEME` names; else the theme called
    /// `themeName` (GSettings' `theme`, or the settings file's, when nil), looked for as
    /// `$XDG_CONFIG_HOME/feedbackd/themes/<name>.json`, then, for `default`, the device's theme
    /// (`<compatible>.json` in `$XDG_DATA_DIRS/feedbackd/themes/`, for each string of the device
    /// tree's `compatible` under `deviceTreeRoot`), then `default.json` in
    /// `$XDG_DATA_DIRS/feedbackd/themes/`, and last the built-in theme. Each theme's
    /// `parent-name` is looked for the same way.
    ///
    /// - Throws: ``FeedbackThemeError`` naming the file and the problem.
    package static func load(environment: [String: String], themeName: String? = nil, deviceTreeRoot: String = "/") throws -> FeedbackTheme {
        var finder = ThemeFinder(environment: environment, compatibles: DeviceTree.compatibles(root: deviceTreeRoot))
        if let file = environment["FEEDBACK_THEME"], !file.isEmpty {
            return try load(first: .file(file), name: file, finder: &finder, environment: environment)
        }
        let name = themeName ?? FeedbackSettings.load(environment: environment).themeName
        var warnings: [String] = []
        let first = finder.find(name, warnings: &warnings)
        var theme = try load(first: first, name: name, finder: &finder, environment: environment)
        theme.warnings = warnings + theme.warnings
        return theme
    }

    /// The theme in a file (`--theme FILE`), its parent chain resolved as ``load(environment:themeName:deviceTreeRoot:)`` does.
    package init(contentsOf url: URL, environment: [String: String], deviceTreeRoot: String = "/") throws {
        var finder = ThemeFinder(environment: environment, compatibles: DeviceTree.compatibles(root: deviceTreeRoot))
        self = try Self.load(first: .file(url.path), name: url.path, finder: &finder, environment: environment)
    }

    /// The built-in theme: every event of feedbackd's event naming spec as one of the presets.
    package static var builtIn: FeedbackTheme {
        // The built-in theme is checked by the tests; a failure here is a build defect.
        (try? merge([(BuiltInTheme.document, nil)], name: "default", files: [builtInFile], environment: [:]))
            ?? FeedbackTheme(name: "default", files: [], warnings: [], sections: [:])
    }

    static func load(first: ThemeFinder.Location, name: String, finder: inout ThemeFinder, environment: [String: String]) throws -> FeedbackTheme {
        var chain: [(FeedbackdTheme.Document, String?)] = []
        var files: [String] = []
        var warnings: [String] = []
        var location = first
        while true {
            let document: FeedbackdTheme.Document
            let path: String?
            switch location {
            case .builtIn:
                (document, path) = (BuiltInTheme.document, nil)
                files.append(builtInFile)
            case .file(let file):
                let absolute = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
                if let seen = files.firstIndex(of: absolute) {
                    throw FeedbackThemeError(
                        "\(absolute): parent-name chain loops: " + (files[seen...] + [absolute]).joined(separator: " → "))
                }
                do {
                    document = try FeedbackdTheme.read(contentsOf: absolute)
                } catch {
                    throw FeedbackThemeError(error.description)
                }
                path = absolute
                files.append(absolute)
            }
            if document.name == "default", document.parentName != nil {
                throw FeedbackThemeError("\(files.last!): the default theme cannot have a parent-name")
            }
            chain.append((document, path))
            guard let parent = document.parentName else { break }
            guard chain.count <= maxDepth else {
                throw FeedbackThemeError("\(files.last!): parent-name chain deeper than \(maxDepth) themes: " + files.joined(separator: " → "))
            }
            location = finder.find(parent, warnings: &warnings)
        }
        var theme = try merge(chain, name: name, files: files, environment: environment)
        theme.warnings = warnings + theme.warnings
        return theme
    }

    /// Merges a chain (the theme first, its farthest parent last) and makes every feedback's pattern.
    static func merge(_ chain: [(FeedbackdTheme.Document, String?)], name: String, files: [String], environment: [String: String]) throws -> FeedbackTheme {
        var sections: [FeedbackLevel: [String: ThemeFeedback]] = [:]
        var warnings: [String] = []
        var leds: [String] = []
        var missingSounds: [String] = []
        let hasSounds = chain.contains { document, _ in
            document.profiles.contains { $0.feedbacks.contains { if case .sound = $0.kind { true } else { false } } }
        }
        let sounds = SoundTheme(environment: environment, askingDesktop: hasSounds)
        var events = 0
        for (document, path) in chain.reversed() {
            let folder = path.map { String($0[..<($0.lastIndex(of: "/") ?? $0.startIndex)]) } ?? ""
            for profile in document.profiles {
                for feedback in profile.feedbacks {
                    let made = try make(feedback, level: profile.level, themeFolder: folder, themeFile: path ?? builtInFile, sounds: sounds)
                    if let warning = made.warning { warnings.append(warning) }
                    if case .sound(let effect, _) = feedback.kind, made.feedback.pattern == nil, made.warning == nil {
                        missingSounds.append(effect)
                    }
                    if made.feedback.kind == .led { leds.append(feedback.eventName) }
                    events += made.feedback.pattern?.events.count ?? 0
                    guard events <= maxEvents else {
                        throw FeedbackThemeError(
                            "\(path ?? builtInFile): the theme's feedbacks make more than \(maxEvents) pattern events (\(feedback.eventName) in \(profile.level.name) reaches it)"
                        )
                    }
                    sections[profile.level, default: [:]][feedback.eventName] = made.feedback
                }
            }
        }
        if !missingSounds.isEmpty {
            let names = Set(missingSounds).sorted()
            let searched = sounds.dataDirectories.map { $0 + "/sounds" }.joined(separator: ", ")
            warnings.append(
                "\(files.first ?? builtInFile): \(names.count) sound\(names.count == 1 ? "" : "s") not in the sound theme '\(sounds.name)' (searched \(searched)), silent: \(names.joined(separator: ", "))"
            )
        }
        if !leds.isEmpty {
            let events = Set(leds).sorted()
            warnings.append(
                "\(files.first ?? builtInFile): Led feedback is not supported here; ignored for \(events.count) event\(events.count == 1 ? "" : "s") (\(events.joined(separator: ", ")))"
            )
        }
        return FeedbackTheme(name: name, files: files, warnings: warnings, sections: sections)
    }

    static func make(
        _ feedback: FeedbackdTheme.Feedback, level: FeedbackLevel, themeFolder: String, themeFile: String, sounds: SoundTheme
    ) throws -> (feedback: ThemeFeedback, warning: String?) {
        var pattern: HapticPattern?
        var warning: String?
        let kind: ThemeFeedback.Kind
        switch feedback.kind {
        case .vibraRumble(let duration, let count, let pause, let magnitude):
            kind = .vibraRumble
            pattern = ThemePatterns.rumble(duration: duration, count: count, pause: pause, magnitude: magnitude)
        case .vibraPeriodic(let duration, let magnitude, let fadeInTime, let fadeInLevel):
            kind = .vibraPeriodic
            pattern = ThemePatterns.periodic(duration: duration, magnitude: magnitude, fadeInTime: fadeInTime, fadeInLevel: fadeInLevel)
        case .vibraPattern(let magnitudes, let durations):
            kind = .vibraPattern
            pattern = ThemePatterns.steps(magnitudes: magnitudes, durations: durations)
        case .sound(let effect, _):
            kind = .sound
            if let file = sounds.file(for: effect) {
                do {
                    pattern = try sounds.pattern(forFile: file)
                } catch {
                    warning = "\(themeFile): \(feedback.eventName): \(error)"
                }
            }
        case .led:
            kind = .led
        case .pattern(.preset(let name)):
            kind = .pattern
            pattern = PresetLibrary.authoredPattern(named: name)
        case .pattern(.file(let file)):
            kind = .pattern
            let path = file.hasPrefix("/") ? file : themeFolder + "/" + file
            do {
                pattern = try AHAPDecoder().decode(contentsOfFile: path).pattern
            } catch {
                throw FeedbackThemeError("\(themeFile): \(feedback.eventName): \(error.description)")
            }
        }
        return (
            ThemeFeedback(eventName: feedback.eventName, level: level, kind: kind, source: feedback.kind, pattern: pattern, isHaptic: feedback.kind.isHaptic),
            warning
        )
    }
}

/// A theme that cannot be used, in one line naming the file and the problem.
package struct FeedbackThemeError: Error, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Where feedbackd looks for a theme by name (`fbd-theme-expander.c`).
struct ThemeFinder {
    enum Location: Equatable {
        case file(String)
        case builtIn
    }

    var configFolder: String?
    var dataFolders: [String]
    var compatibles: [String]
    /// feedbackd looks for the device's theme once per load: the device theme's own
    /// `parent-name` `default` then finds the installed default.
    var deviceThemeLooked = false

    init(environment: [String: String], compatibles: [String]) {
        configFolder = XDGDirectories.configDirectory(environment: environment).map { $0 + "/feedbackd/themes" }
        dataFolders = XDGDirectories.systemDataDirectories(environment: environment).map { $0 + "/feedbackd/themes" }
        self.compatibles = compatibles
    }

    mutating func find(_ name: String, warnings: inout [String]) -> Location {
        let fileName = name + ".json"
        guard !name.isEmpty, !name.contains("/") else { return .builtIn }
        if let configFolder, XDGDirectories.isRegularFile(configFolder + "/" + fileName) {
            return .file(configFolder + "/" + fileName)
        }
        if name == "default" || name == "$device", !deviceThemeLooked {
            deviceThemeLooked = true
            for compatible in compatibles where !compatible.contains("/") {
                if let path = inData(compatible + ".json") { return .file(path) }
            }
        }
        if name != "default" {
            warnings.append("theme '\(name)' not found in \(searchedFolders(for: name)); using the default theme")
        }
        if let path = inData("default.json") { return .file(path) }
        return .builtIn
    }

    func inData(_ fileName: String) -> String? {
        dataFolders.lazy.map { $0 + "/" + fileName }.first(where: XDGDirectories.isRegularFile)
    }

    func searchedFolders(for name: String) -> String {
        ((configFolder.map { [$0] } ?? []) + dataFolders).joined(separator: ", ")
    }
}

/// The device tree's `compatible` strings, most specific first (`pine64,pinephone-1.2`,
/// `pine64,pinephone`, `allwinner,sun50i-a64`): `/proc/device-tree/compatible`, else
/// `/sys/firmware/devicetree/base/compatible`, under `root`. Empty on machines without one.
package enum DeviceTree {
    package static func compatibles(root: String) -> [String] {
        let base = root.hasSuffix("/") ? String(root.dropLast()) : root
        for path in ["/proc/device-tree/compatible", "/sys/firmware/devicetree/base/compatible"] {
            guard let file = read(base + path) else { continue }
            return file.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.filter { !$0.isEmpty }
        }
        return []
    }

    /// A small file's bytes (sysfs and procfs files report no size), at most 64 KiB.
    static func read(_ path: String) -> [UInt8]? {
        try? BoundedFile.read(path: path, limit: 64 << 10, streams: true)
    }
}
