import Foundation
import Haptics
import HapticsFormats
import HapticsTestSupport
import Testing

@testable import HapticsService

/// A user's and a system's folders in a scratch folder: `config` (`XDG_CONFIG_HOME`), `data`
/// (`XDG_DATA_DIRS`), `root` (a device tree), nothing from the machine's own.
struct ThemeFolders {
    let folder: TemporaryFolder
    var environment: [String: String]

    init() throws {
        folder = try TemporaryFolder(prefix: "haptics-theme")
        environment = [
            "HOME": folder.path("home"), "XDG_CONFIG_HOME": folder.path("config"), "XDG_DATA_DIRS": folder.path("data"),
            "XDG_DATA_HOME": folder.path("home/.local/share"), "XDG_RUNTIME_DIR": folder.path("run"), "HAPTICS_SETTINGS": "",
        ]
    }

    var root: String { folder.path("root") }

    /// A theme in the user's folder.
    @discardableResult
    func user(_ name: String, _ text: String) throws -> String { try folder.write("config/feedbackd/themes/\(name).json", text).path }

    /// A theme in the system's data folder.
    @discardableResult
    func system(_ name: String, _ text: String) throws -> String { try folder.write("data/feedbackd/themes/\(name).json", text).path }

    /// A theme JSON with one VibraRumble of `duration` ms for each event in `quiet`.
    static func theme(_ name: String, parent: String? = nil, rumbles: [String: Int] = [:], extra: String = "") -> String {
        let feedbacks = rumbles.sorted { $0.key < $1.key }.map { #"{ "event-name": "\#($0.key)", "type": "VibraRumble", "duration": \#($0.value) }"# }
        let parentText = parent.map { #""parent-name": "\#($0)", "# } ?? ""
        return #"{ "name": "\#(name)", \#(parentText)"profiles": [ { "name": "quiet", "feedbacks": [ \#(feedbacks.joined(separator: ", ")) ] }\#(extra) ] }"#
    }

    func load(themeName: String? = nil) throws -> FeedbackTheme {
        try FeedbackTheme.load(environment: environment, themeName: themeName, deviceTreeRoot: root)
    }
}

/// The rumble's length in ms a theme plays for an event at `quiet`, if it has one.
func rumbleLength(_ theme: FeedbackTheme, _ event: String) -> Int? {
    guard case .vibraRumble(let duration, _, _, _) = theme.feedbacks(for: event, level: .quiet).last?.source else { return nil }
    return duration
}

@Suite("Themes are found as feedbackd finds them")
struct ThemeLoadingTests {
    @Test("with no feedbackd theme installed the built-in theme answers every event of the naming spec")
    func builtInWhenNothingInstalled() throws {
        let folders = try ThemeFolders()
        let theme = try folders.load()
        #expect(theme.files == [FeedbackTheme.builtInFile])
        let tap = try #require(theme.feedbacks(for: "button-pressed", level: .full).first)
        #expect(tap.kind == .pattern && tap.isHaptic)
        #expect(tap.pattern == PresetLibrary.authoredPattern(named: "light"))
        #expect(theme.warnings.isEmpty)
    }

    @Test("the installed default theme is used, and the user's default.json replaces it")
    func installedThenUser() throws {
        let folders = try ThemeFolders()
        let installed = try folders.system("default", ThemeFolders.theme("default", rumbles: ["button-pressed": 15]))
        var theme = try folders.load()
        #expect(theme.files == [installed])
        #expect(rumbleLength(theme, "button-pressed") == 15)
        #expect(theme.feedbacks(for: "phone-incoming-call", level: .full).isEmpty, "the built-in theme is not mixed in")

        let user = try folders.user("default", ThemeFolders.theme("default", rumbles: ["button-pressed": 30]))
        theme = try folders.load()
        #expect(theme.files == [user])
        #expect(rumbleLength(theme, "button-pressed") == 30)
    }

    @Test("a custom theme's parent-name chain merges: the child's feedbacks win, the parent's fill in")
    func parentChain() throws {
        let folders = try ThemeFolders()
        let installed = try folders.system("default", ThemeFolders.theme("default", rumbles: ["button-pressed": 15, "window-close": 25]))
        let custom = try folders.user("custom", ThemeFolders.theme("custom", parent: "default", rumbles: ["button-pressed": 40]))
        let theme = try folders.load(themeName: "custom")
        #expect(theme.files == [custom, installed])
        #expect(rumbleLength(theme, "button-pressed") == 40)
        #expect(rumbleLength(theme, "window-close") == 25)
        #expect(theme.name == "custom")
    }

    @Test(
        "the device tree's compatible strings choose a device theme, which chains to the installed default",
        arguments: [
            "proc/device-tree/compatible", "sys/firmware/devicetree/base/compatible",
        ])
    func deviceTheme(compatiblePath: String) throws {
        let folders = try ThemeFolders()
        try folders.folder.write("root/\(compatiblePath)", Data("pine64,pinephone-1.2\0pine64,pinephone\0allwinner,sun50i-a64\0".utf8))
        #expect(DeviceTree.compatibles(root: folders.root) == ["pine64,pinephone-1.2", "pine64,pinephone", "allwinner,sun50i-a64"])
        let installed = try folders.system("default", ThemeFolders.theme("default", rumbles: ["button-pressed": 15, "window-close": 25]))
        let device = try folders.system("pine64,pinephone", ThemeFolders.theme("pine64,pinephone", parent: "default", rumbles: ["button-pressed": 50]))
        let theme = try folders.load()
        #expect(theme.files == [device, installed])
        #expect(rumbleLength(theme, "button-pressed") == 50)
        #expect(rumbleLength(theme, "window-close") == 25)
    }

    @Test("FEEDBACK_THEME names the theme file, whatever else is installed")
    func environmentTheme() throws {
        var folders = try ThemeFolders()
        try folders.system("default", ThemeFolders.theme("default", rumbles: ["button-pressed": 15]))
        let file = try folders.folder.write("elsewhere/mine.json", ThemeFolders.theme("mine", rumbles: ["button-pressed": 99])).path
        folders.environment["FEEDBACK_THEME"] = file
        let theme = try folders.load()
        #expect(theme.files == [file])
        #expect(rumbleLength(theme, "button-pressed") == 99)
    }

    @Test("--theme FILE resolves its parent chain")
    func themeFileWithParent() throws {
        let folders = try ThemeFolders()
        let installed = try folders.system("default", ThemeFolders.theme("default", rumbles: ["window-close": 25]))
        let file = try folders.folder.write("elsewhere/mine.json", ThemeFolders.theme("mine", parent: "default", rumbles: ["button-pressed": 99]))
        let theme = try FeedbackTheme(contentsOf: file, environment: folders.environment, deviceTreeRoot: folders.root)
        #expect(theme.files == [file.path, installed])
        #expect(rumbleLength(theme, "window-close") == 25)
    }

    @Test("a parent-name cycle is refused naming the chain")
    func cycle() throws {
        let folders = try ThemeFolders()
        let a = try folders.user("a", ThemeFolders.theme("a", parent: "b"))
        let b = try folders.user("b", ThemeFolders.theme("b", parent: "a"))
        #expect {
            try folders.load(themeName: "a")
        } throws: { error in
            "\(error)" == "\(a): parent-name chain loops: \(a) → \(b) → \(a)"
        }
    }

    @Test("a chain deeper than feedbackd's bound is refused")
    func depth() throws {
        let folders = try ThemeFolders()
        for level in 0..<12 {
            try folders.user("t\(level)", ThemeFolders.theme("t\(level)", parent: "t\(level + 1)"))
        }
        #expect {
            try folders.load(themeName: "t0")
        } throws: { error in
            "\(error)".contains("parent-name chain deeper than \(FeedbackTheme.maxDepth) themes")
        }
    }

    @Test("the default theme may not name a parent, as in feedbackd")
    func defaultWithParent() throws {
        let folders = try ThemeFolders()
        let file = try folders.system("default", ThemeFolders.theme("default", parent: "other"))
        #expect {
            try folders.load()
        } throws: { error in
            "\(error)" == "\(file): the default theme cannot have a parent-name"
        }
    }

    @Test("a theme name that is not installed falls back to the default theme with one warning")
    func missingNamedTheme() throws {
        let folders = try ThemeFolders()
        let theme = try folders.load(themeName: "nowhere")
        #expect(theme.files == [FeedbackTheme.builtInFile])
        #expect(theme.warnings.count == 1)
        #expect(theme.warnings.first?.hasPrefix("theme 'nowhere' not found in ") == true)
    }

    @Test("a malformed theme file is refused in one located line")
    func malformedFile() throws {
        let folders = try ThemeFolders()
        let file = try folders.system(
            "default", #"{ "name": "default", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "a", "type": "Vibra" } ] } ] }"#)
        #expect {
            try folders.load()
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("\(file):1:") && text.contains(": profiles[0].feedbacks[0].type: unknown feedback type") && !text.contains("\n")
        }
    }

    @Test("levels: full plays the full, quiet and silent sections, quiet the quiet and silent ones, silent only silent")
    func levels() throws {
        let folders = try ThemeFolders()
        let text = """
            { "name": "default", "profiles": [
              { "name": "full", "feedbacks": [ { "event-name": "e", "type": "VibraRumble", "duration": 300 } ] },
              { "name": "quiet", "feedbacks": [ { "event-name": "e", "type": "VibraRumble", "duration": 200 } ] },
              { "name": "silent", "feedbacks": [ { "event-name": "e", "type": "VibraRumble", "duration": 100 } ] } ] }
            """
        try folders.system("default", text)
        let theme = try folders.load()
        func durations(_ level: FeedbackLevel) -> [Int] {
            theme.feedbacks(for: "e", level: level).compactMap {
                if case .vibraRumble(let duration, _, _, _) = $0.source { duration } else { nil }
            }
        }
        #expect(durations(.full) == [100, 200, 300])
        #expect(durations(.quiet) == [100, 200])
        #expect(durations(.silent) == [100])
        #expect(theme.feedbacks(for: "unknown", level: .full).isEmpty)
        #expect(FeedbackLevel(name: "quiet") == .quiet && FeedbackLevel(name: "loud") == nil && FeedbackLevel.full.name == "full")
        #expect(FeedbackLevel.silent < .quiet && FeedbackLevel.quiet < .full)
    }

    @Test("a Pattern file is read relative to the theme file's folder; a bad one is refused naming it")
    func patternFiles() throws {
        let folders = try ThemeFolders()
        let ahap =
            #"{ "Pattern": [ { "Event": { "EventType": "HapticTransient", "Time": 0.01, "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.7 } ] } } ] }"#
        try folders.folder.write("data/feedbackd/themes/patterns/tick.ahap", ahap)
        try folders.system(
            "default",
            #"{ "name": "default", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "key-pressed", "type": "Pattern", "file": "patterns/tick.ahap" } ] } ] }"#
        )
        let theme = try folders.load()
        let pattern = try #require(theme.feedbacks(for: "key-pressed", level: .quiet).first?.pattern)
        #expect(pattern.events.count == 1)
        #expect(pattern.events.first?.relativeTime == 0.01)
        #expect(pattern.events.first?.value(of: .hapticIntensity) == 0.7)

        try folders.folder.write("data/feedbackd/themes/patterns/tick.ahap", "{ \"Pattern\": 3 }")
        #expect {
            try folders.load()
        } throws: { error in
            "\(error)".contains("patterns/tick.ahap") && !"\(error)".contains("\n")
        }
    }

    @Test("Led feedbacks cannot play here: no pattern, and one warning for the whole theme")
    func ledsWarnedOnce() throws {
        let folders = try ThemeFolders()
        try folders.system(
            "default",
            #"{ "name": "default", "profiles": [ { "name": "silent", "feedbacks": [ { "event-name": "a", "type": "Led", "color": "red", "frequency": 5000 }, { "event-name": "b", "type": "Led", "color": "blue", "frequency": 500 } ] } ] }"#
        )
        let theme = try folders.load()
        let led = try #require(theme.feedbacks(for: "a", level: .full).first)
        #expect(led.kind == .led && led.pattern == nil && !led.isHaptic)
        #expect(theme.warnings.count == 1)
        #expect(theme.warnings.first?.contains("Led feedback is not supported here; ignored for 2 events (a, b)") == true)
    }

    @Test("a theme whose feedbacks would make too many pattern events is refused, bounding its memory")
    func eventBudget() throws {
        let folders = try ThemeFolders()
        let many = (0..<120).map { #"{ "event-name": "e\#($0)", "type": "VibraRumble", "duration": 3600000, "count": 1000 }"# }
        try folders.system("default", #"{ "name": "default", "profiles": [ { "name": "quiet", "feedbacks": [ \#(many.joined(separator: ", ")) ] } ] }"#)
        #expect {
            try folders.load()
        } throws: { error in
            "\(error)".contains("more than \(FeedbackTheme.maxEvents) pattern events")
        }
    }

    @Test(
        "Debian's installed feedbackd theme loads with its sounds and vibrations",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/feedbackd/themes/default.json"), "needs Debian's feedbackd package (its theme)"))
    func debianTheme() throws {
        var folders = try ThemeFolders()
        folders.environment["XDG_DATA_DIRS"] = "/usr/share"
        let theme = try folders.load()
        #expect(theme.files == ["/usr/share/feedbackd/themes/default.json"])
        let call = theme.feedbacks(for: "phone-incoming-call", level: .quiet)
        #expect(call.count == 1 && call.first?.kind == .vibraPeriodic)
        #expect(theme.feedbacks(for: "button-pressed", level: .quiet).first?.pattern?.events.count == 1)
    }
}
