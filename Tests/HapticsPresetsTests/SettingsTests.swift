import Foundation
import Testing
import HapticsPresets

@Suite("User settings")
struct SettingsTests {
    /// Loads with only the given variables, so the real user's files and environment never leak in.
    func load(_ text: String, _ extra: [String: String] = [:]) throws -> (HapticSettings.Loaded, TemporarySettings) {
        let file = try TemporarySettings(text)
        return (HapticSettings.load(environment: file.environment(extra)), file)
    }

    @Test("a complete settings file is read")
    func completeFile() throws {
        let (loaded, file) = try load(#"{ "enabled": true, "intensity": 0.8, "categories": { "impact": 0.5, "selection": 0.25 } }"#)
        defer { file.remove() }
        #expect(loaded.problems.isEmpty)
        #expect(loaded.file == file.file.path)
        #expect(loaded.settings == HapticSettings(isEnabled: true, intensity: 0.8, categoryIntensities: [.impact: 0.5, .selection: 0.25]))
        #expect(loaded.settings.scale(for: .impact) == 0.8 * 0.5)
        #expect(loaded.settings.scale(for: .notification) == 0.8)
    }

    @Test("every key is optional")
    func emptyObject() throws {
        let (loaded, file) = try load("{}")
        defer { file.remove() }
        #expect(loaded.problems.isEmpty)
        #expect(loaded.settings == .standard)
    }

    @Test("turning haptics off scales every category to zero")
    func disabledScalesToZero() throws {
        let (loaded, file) = try load(#"{ "enabled": false, "categories": { "impact": 1 } }"#)
        defer { file.remove() }
        for category in PresetCategory.allCases {
            #expect(loaded.settings.scale(for: category) == 0)
        }
    }

    @Test("the usual file is $XDG_CONFIG_HOME/haptics/settings.json, else ~/.config/haptics/settings.json")
    func usualLocations() throws {
        let file = try TemporarySettings(#"{ "intensity": 0.3 }"#)
        defer { file.remove() }
        let config = file.folder.deletingLastPathComponent().appendingPathComponent("xdg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("haptics"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        try FileManager.default.copyItem(at: file.file, to: config.appendingPathComponent("haptics/settings.json"))

        let viaXDG = HapticSettings.load(environment: ["XDG_CONFIG_HOME": config.path, "HOME": "/nonexistent"])
        #expect(viaXDG.settings.intensity == 0.3)
        #expect(viaXDG.file == config.path + "/haptics/settings.json")

        let home = config.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config/haptics"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file.file, to: home.appendingPathComponent(".config/haptics/settings.json"))
        let viaHome = HapticSettings.load(environment: ["HOME": home.path])
        #expect(viaHome.settings.intensity == 0.3)
        let relativeXDG = HapticSettings.load(environment: ["XDG_CONFIG_HOME": "relative/path", "HOME": home.path])
        #expect(relativeXDG.settings.intensity == 0.3, "a relative XDG_CONFIG_HOME is ignored, as the XDG spec says")
    }

    @Test("no settings file at the usual place means defaults, silently")
    func missingUsualFile() {
        let loaded = HapticSettings.load(environment: ["XDG_CONFIG_HOME": "/nonexistent-\(UUID().uuidString)"])
        #expect(loaded.problems.isEmpty)
        #expect(loaded.settings == .standard)
    }

    @Test("a missing file named by HAPTICS_SETTINGS is a problem; an empty one means no file")
    func explicitFile() {
        let path = "/nonexistent-\(UUID().uuidString)/settings.json"
        let missing = HapticSettings.load(environment: ["HAPTICS_SETTINGS": path])
        #expect(missing.problems.map(\.description) == ["\(path): no such file"])
        #expect(missing.settings == .standard)
        let none = HapticSettings.load(environment: ["HAPTICS_SETTINGS": "", "HOME": "/nonexistent"])
        #expect(none.problems.isEmpty)
        #expect(none.file == nil)
    }

    @Test("malformed files give one line naming the file, the place and the problem", arguments: [
        ("{\n  \"intensity\": 0.5,\n  oops\n}", "line 3, column 3: not valid JSON"),
        ("{ \"intensity\": 0.5", "not valid JSON"),
        ("", "empty file"),
        ("[0.5]", "expected a JSON object"),
        (#"{ "enabled": "yes" }"#, #"enabled: expected true or false, got "yes""#),
        (#"{ "enabled": 1 }"#, "enabled: expected true or false, got 1"),
        (#"{ "intensity": 1.5 }"#, "intensity: expected a number from 0 to 1, got 1.5"),
        (#"{ "intensity": true }"#, "intensity: expected a number from 0 to 1, got true"),
        (#"{ "intensity": null }"#, "intensity: expected a number from 0 to 1, got null"),
        (#"{ "intesity": 0.5 }"#, "intesity: unknown setting (did you mean 'intensity'?)"),
        (#"{ "volume": 0.5 }"#, "volume: unknown setting (known: enabled, intensity, categories, device, profile)"),
        (#"{ "categories": [1] }"#, "categories: expected an object of category strengths"),
        (#"{ "categories": { "impacts": 0.5 } }"#, "categories.impacts: unknown category (did you mean 'impact'?)"),
        (#"{ "categories": { "impact": -1 } }"#, "categories.impact: expected a number from 0 to 1, got -1"),
    ])
    func malformedFile(text: String, expected: String) throws {
        let (loaded, file) = try load(text)
        defer { file.remove() }
        let problem = try #require(loaded.problems.first)
        #expect(loaded.problems.count == 1)
        #expect(problem.description.hasPrefix(file.file.path + ": "))
        #expect(problem.description.contains(expected), "\(problem)")
        #expect(!problem.description.contains("\n"))
        #expect(loaded.settings == .standard, "a malformed file is ignored as a whole")
    }

    @Test("HAPTICS_DISABLED and HAPTICS_INTENSITY override the file")
    func environmentOverrides() throws {
        let (off, a) = try load(#"{ "enabled": true, "intensity": 0.9 }"#, ["HAPTICS_DISABLED": "1", "HAPTICS_INTENSITY": "0.25"])
        defer { a.remove() }
        #expect(off.problems.isEmpty)
        #expect(!off.settings.isEnabled)
        #expect(off.settings.intensity == 0.25)

        let (on, b) = try load(#"{ "enabled": false }"#, ["HAPTICS_DISABLED": "false"])
        defer { b.remove() }
        #expect(on.settings.isEnabled)
    }

    @Test("a malformed file still honours HAPTICS_DISABLED")
    func disabledDespiteMalformedFile() throws {
        let (loaded, file) = try load("{ not json", ["HAPTICS_DISABLED": "yes"])
        defer { file.remove() }
        #expect(loaded.problems.count == 1)
        #expect(!loaded.settings.isEnabled)
    }

    @Test("malformed variables are reported and ignored")
    func malformedVariables() throws {
        let (loaded, file) = try load(#"{ "intensity": 0.6 }"#, ["HAPTICS_DISABLED": "maybe", "HAPTICS_INTENSITY": "2"])
        defer { file.remove() }
        #expect(loaded.problems.map(\.source).sorted() == ["HAPTICS_DISABLED", "HAPTICS_INTENSITY"])
        #expect(loaded.settings.isEnabled)
        #expect(loaded.settings.intensity == 0.6)
    }

    @Test("strengths out of range are clamped when used")
    func clamping() {
        let settings = HapticSettings(intensity: 2, categoryIntensities: [.impact: -1, .selection: .nan])
        #expect(settings.scale(for: .notification) == 1)
        #expect(settings.scale(for: .impact) == 0)
        #expect(settings.scale(for: .selection) == 0)
    }
}
