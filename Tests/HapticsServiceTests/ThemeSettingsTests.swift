import Foundation
import Haptics
import HapticsTestSupport
import Testing

@testable import HapticsService

/// Whether GLib's tools are installed (package libglib2.0-bin; scripts/install-dependencies.sh).
let hasGSettingsTools = ["/usr/bin/gsettings", "/usr/bin/glib-compile-schemas"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

/// feedbackd's GSettings schema as 0.8 ships it (keys and types; written here for the test) or,
/// without `allow-important` and `max-haptic-strength`, as Debian's 0.0.3 does.
func feedbackdSchema(modern: Bool) -> String {
    let newer = """
            <key name="allow-important" type="as"><default>['mobi.phosh.Stevia', 'sm.puri.OSK0']</default></key>
            <key name="max-haptic-strength" type="d"><range min="0.0" max="1.0"/><default>1.0</default></key>
        """
    return """
        <schemalist>
          <schema id="org.sigxcpu.feedbackd" path="/org/sigxcpu/feedbackd/">
            <key name="profile" type="s">
              <choices><choice value='full'/><choice value='quiet'/><choice value='silent'/></choices>
              <default>'full'</default>
            </key>
            <key name="theme" type="s"><default>'default'</default></key>
        \(modern ? newer : "")
          </schema>
          <schema id="org.sigxcpu.feedbackd.application">
            <key name="profile" type="s">
              <choices><choice value='full'/><choice value='quiet'/><choice value='silent'/></choices>
              <default>'full'</default>
            </key>
          </schema>
        </schemalist>
        """
}

@Suite("Feedback settings come from feedbackd's GSettings, else from our settings file")
struct ThemeSettingsTests {
    /// A scratch GSettings: the schema compiled into the scratch data folder, values in a key
    /// file under the scratch config folder.
    static func gsettings(modern: Bool) throws -> ThemeFolders {
        var folders = try ThemeFolders()
        try folders.folder.write("data/glib-2.0/schemas/org.sigxcpu.feedbackd.gschema.xml", feedbackdSchema(modern: modern))
        let compiled = try shell("glib-compile-schemas '\(folders.folder.path("data/glib-2.0/schemas"))'")
        #expect(compiled.status == 0, "\(compiled.output)")
        folders.environment["GSETTINGS_BACKEND"] = "keyfile"
        return folders
    }

    static func set(_ folders: ThemeFolders, _ arguments: String) throws {
        let result = try shell("gsettings set \(arguments)", environment: folders.environment.merging(["GSETTINGS_SCHEMA_DIR": ""]) { $1 })
        #expect(result.status == 0, "gsettings set \(arguments): \(result.output)")
    }

    @Test(
        "the global profile, theme, allow-important, max-haptic-strength and per-app profiles from GSettings",
        .enabled(if: hasGSettingsTools, "needs gsettings and glib-compile-schemas (libglib2.0-bin; scripts/install-dependencies.sh)"))
    func fromGSettings() throws {
        let folders = try Self.gsettings(modern: true)
        var settings = FeedbackSettings.load(environment: folders.environment)
        #expect(settings.source == .gsettings)
        #expect(settings.profile == .full && settings.themeName == "default" && settings.maxHapticStrength == 1)
        #expect(settings.allowImportant == FeedbackSettings.defaultAllowImportant)

        try Self.set(folders, "org.sigxcpu.feedbackd profile quiet")
        try Self.set(folders, "org.sigxcpu.feedbackd theme custom")
        try Self.set(folders, "org.sigxcpu.feedbackd allow-important \"['org.gnome.clocks', 'sm.puri.Phosh']\"")
        try Self.set(folders, "org.sigxcpu.feedbackd max-haptic-strength 0.4")
        try Self.set(folders, "org.sigxcpu.feedbackd.application:\(FeedbackSettings.applicationPath("sm.puri.Phosh")) profile silent")
        settings = FeedbackSettings.load(environment: folders.environment)
        #expect(settings.profile == .quiet)
        #expect(settings.themeName == "custom")
        #expect(settings.allowImportant == ["org.gnome.clocks", "sm.puri.Phosh"])
        #expect(settings.maxHapticStrength == 0.4)
        #expect(settings.level(forApp: "sm.puri.Phosh") == .silent)
        #expect(settings.level(forApp: "org.example.Other") == .full)
        #expect(settings.problems.isEmpty)
    }

    @Test(
        "Debian 0.0.3's schema lacks allow-important and max-haptic-strength: feedbackd's defaults apply",
        .enabled(if: hasGSettingsTools, "needs gsettings and glib-compile-schemas (libglib2.0-bin; scripts/install-dependencies.sh)"))
    func oldSchema() throws {
        let folders = try Self.gsettings(modern: false)
        try Self.set(folders, "org.sigxcpu.feedbackd profile silent")
        let settings = FeedbackSettings.load(environment: folders.environment)
        #expect(settings.source == .gsettings)
        #expect(settings.profile == .silent)
        #expect(settings.allowImportant == FeedbackSettings.defaultAllowImportant)
        #expect(settings.maxHapticStrength == 1)
    }

    @Test("the per-app path is feedbackd's: dots become dashes, lowercased")
    func applicationPath() {
        #expect(FeedbackSettings.applicationPath("sm.puri.Phosh") == "/org/sigxcpu/feedbackd/application/sm-puri-phosh/")
    }

    @Test("without the schema the settings file's feedback object applies")
    func fromSettingsFile() throws {
        var folders = try ThemeFolders()
        let file = try folders.folder.write(
            "settings.json",
            #"{ "feedback": { "profile": "quiet", "theme": "custom", "applications": { "sm.puri.Phosh": "silent" }, "allow-important": ["org.gnome.clocks"], "max-haptic-strength": 0.8 } }"#
        )
        folders.environment["HAPTICS_SETTINGS"] = file.path
        let settings = FeedbackSettings.load(environment: folders.environment)
        #expect(settings.source == .settingsFile)
        #expect(settings.profile == .quiet && settings.themeName == "custom" && settings.maxHapticStrength == 0.8)
        #expect(settings.allowImportant == ["org.gnome.clocks"])
        #expect(settings.level(forApp: "sm.puri.Phosh") == .silent && settings.level(forApp: "other") == .full)
        #expect(settings.problems.isEmpty)
    }

    @Test("without the schema or a settings file, feedbackd's defaults")
    func defaults() throws {
        let folders = try ThemeFolders()
        let settings = FeedbackSettings.load(environment: folders.environment)
        #expect(settings.source == .settingsFile)
        #expect(settings.profile == .full && settings.themeName == "default" && settings.maxHapticStrength == 1)
        #expect(settings.allowImportant == FeedbackSettings.defaultAllowImportant)
    }

    @Test("a malformed feedback setting is one located problem, and defaults apply")
    func malformedSettingsFile() throws {
        var folders = try ThemeFolders()
        let file = try folders.folder.write("settings.json", #"{ "feedback": { "profile": "loud" } }"#)
        folders.environment["HAPTICS_SETTINGS"] = file.path
        let settings = FeedbackSettings.load(environment: folders.environment)
        #expect(settings.profile == .full)
        #expect(settings.problems == ["\(file.path):1:28: feedback.profile: unknown profile (known: full, quiet, silent)"])
    }

    @Test("the theme's name from the settings chooses the theme")
    func themeNameFromSettings() throws {
        var folders = try ThemeFolders()
        let file = try folders.folder.write("settings.json", #"{ "feedback": { "theme": "custom" } }"#)
        folders.environment["HAPTICS_SETTINGS"] = file.path
        let custom = try folders.user("custom", ThemeFolders.theme("custom", rumbles: ["button-pressed": 77]))
        let theme = try FeedbackTheme.load(environment: folders.environment, deviceTreeRoot: folders.root)
        #expect(theme.files == [custom])
    }

    @Test("GVariant text as gsettings prints it")
    func gvariantText() {
        #expect(GVariantText.string("'full'") == "full")
        #expect(GVariantText.string(#""it's""#) == "it's")
        #expect(GVariantText.string("'a\\'b'") == "a'b")
        #expect(GVariantText.string("full") == nil)
        #expect(GVariantText.strings("['a', 'b']") == ["a", "b"])
        #expect(GVariantText.strings("@as []") == [])
        #expect(GVariantText.strings("['a',") == nil)
    }
}

@Suite("Feedback settings written back")
struct ThemeSettingsWriteTests {
    @Test(
        "a client's Profile is stored in GSettings as feedbackd stores it; per-app levels are read once",
        .enabled(if: hasGSettingsTools, "needs gsettings and glib-compile-schemas (libglib2.0-bin; scripts/install-dependencies.sh)"))
    func profileToGSettings() throws {
        let folders = try ThemeSettingsTests.gsettings(modern: true)
        var settings = FeedbackSettings.load(environment: folders.environment)
        #expect(settings.setProfile(.silent) == nil)
        #expect(settings.profile == .silent)
        #expect(FeedbackSettings.load(environment: folders.environment).profile == .silent)

        #expect(settings.level(forApp: "sm.puri.Phosh") == .full)
        try ThemeSettingsTests.set(folders, "org.sigxcpu.feedbackd.application:\(FeedbackSettings.applicationPath("sm.puri.Phosh")) profile quiet")
        #expect(settings.level(forApp: "sm.puri.Phosh") == .full, "read once, until the settings are loaded again")
        #expect(FeedbackSettings.load(environment: folders.environment).level(forApp: "sm.puri.Phosh") == .quiet)
    }

    @Test("with the settings file a client's Profile changes the running value only")
    func profileWithoutGSettings() throws {
        let folders = try ThemeFolders()
        var settings = FeedbackSettings.load(environment: folders.environment)
        #expect(settings.setProfile(.quiet) == nil)
        #expect(settings.profile == .quiet)
        #expect(FeedbackSettings.load(environment: folders.environment).profile == .full)
    }
}
