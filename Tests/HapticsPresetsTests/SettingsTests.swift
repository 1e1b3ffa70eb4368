import Foundation
import HapticsCore
import HapticsPresets
import HapticsTestSupport
import Testing

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

    @Test(
        "malformed files give one line naming the file, the line and column, the key and the problem",
        arguments: [
            ("{\n  \"intensity\": 0.5,\n  ^oops\n}", "expected a key in double quotes, found 'o'"),
            ("{ \"intensity\": 0.5^", "unexpected end of input; expected ',' or '}' (the object opened at line 1, column 1 is not closed)"),
            ("^", "the input is empty; expected a JSON object"),
            ("^[0.5]", #"expected a JSON object, like {"intensity": 0.8}, got an array"#),
            (#"{ "enabled": ^"yes" }"#, #"enabled: expected true or false, got "yes""#),
            (#"{ "enabled": ^1 }"#, "enabled: expected true or false, got 1"),
            (#"{ "intensity": ^1.5 }"#, "intensity: expected a number from 0 to 1, got 1.5"),
            (#"{ "intensity": ^true }"#, "intensity: expected a number from 0 to 1, got true"),
            (#"{ "intensity": ^null }"#, "intensity: expected a number from 0 to 1, got null"),
            (#"{ ^"intesity": 0.5 }"#, "intesity: unknown setting (did you mean 'intensity'?)"),
            (#"{ ^"volume": 0.5 }"#, "volume: unknown setting (known: enabled, intensity, categories, device, profile, feedback)"),
            (#"{ "feedback": { ^"profil": "quiet" } }"#, "feedback.profil: unknown feedback setting (did you mean 'profile'?)"),
            (#"{ "feedback": { "max-haptic-strength": ^2 } }"#, "feedback.max-haptic-strength: expected a number from 0 to 1, got 2"),
            (#"{ "categories": ^[1] }"#, #"categories: expected an object of category strengths, like {"impact": 0.5}, got an array"#),
            (#"{ "categories": { ^"impacts": 0.5 } }"#, "categories.impacts: unknown category (did you mean 'impact'?)"),
            (#"{ "categories": { "impact": ^-1 } }"#, "categories.impact: expected a number from 0 to 1, got -1"),
            (#"{ "intensity": 0.5, ^"intensity": 0.6 }"#, "intensity: duplicate key 'intensity'; the last value is used"),
            (#"{ "intensity": 0.5^, }"#, "trailing comma before '}' (strict JSON does not allow it)"),
        ])
    func malformedFile(marked: String, expected: String) throws {
        let (text, line, column) = markedLocation(marked)
        let (loaded, file) = try load(text)
        defer { file.remove() }
        let problem = try #require(loaded.problems.first)
        #expect(loaded.problems.count == 1)
        #expect(problem.description == "\(file.file.path):\(line):\(column): \(expected)")
        #expect(!problem.description.contains("\n"))
        guard case .file(let error) = problem else {
            Issue.record("not a file problem: \(problem)")
            return
        }
        #expect(error.file == file.file.path && error.line == line && error.column == column)
        #expect(loaded.settings == .standard, "a malformed file is ignored as a whole")
    }

    @Test(
        "every number and string of a settings file is checked, with the file, line, column and key",
        arguments: [
            (#""intensity": ^-0.01"#, "intensity: expected a number from 0 to 1, got -0.01"),
            (#""intensity": ^1.0001"#, "intensity: expected a number from 0 to 1, got 1.0001"),
            (#""intensity": ^1e308"#, "intensity: expected a number from 0 to 1, got 1e+308"),
            (#""intensity": ^"0.5""#, #"intensity: expected a number from 0 to 1, got "0.5""#),
            (#""categories": { "selection": 0.5, "impact": ^2 }"#, "categories.impact: expected a number from 0 to 1, got 2"),
            (#""categories": { "notification": ^-0.5 }"#, "categories.notification: expected a number from 0 to 1, got -0.5"),
            (#""categories": { "impact": ^{} }"#, "categories.impact: expected a number from 0 to 1, got an empty object"),
            (#""enabled": ^null"#, "enabled: expected true or false, got null"),
            (#""device": ^"""#, #"device: expected a non-empty string of at most 256 characters, got """#),
            (#""device": ^3"#, "device: expected a non-empty string of at most 256 characters, got 3"),
            (
                #""device": ^"\#(String(repeating: "d", count: 257))""#,
                #"device: expected a non-empty string of at most 256 characters, got "\#(String(repeating: "d", count: 40))…""#
            ),
            (#""device": ^"hw:0\n""#, #"device: expected a non-empty string of at most 256 characters without control characters, got "hw:0\n""#),
            (#""profile": ^[]"#, "profile: expected a non-empty string of at most 4096 characters, got an empty array"),
            (#""profile": ^false"#, "profile: expected a non-empty string of at most 4096 characters, got false"),
        ])
    func everyFieldChecked(field: String, expected: String) throws {
        let (text, line, column) = markedLocation("{\n  " + field + "\n}")
        let (loaded, file) = try load(text)
        defer { file.remove() }
        #expect(loaded.problems.map(\.description) == ["\(file.file.path):\(line):\(column): \(expected)"])
        #expect(loaded.settings == .standard)
    }

    @Test("device and profile are kept, and the bounds of every range are accepted")
    func deviceAndProfile() throws {
        let text =
            #"{ "intensity": 0, "categories": { "impact": 1, "selection": 0 }, "device": "plughw:CARD=Device,DEV=0", "profile": "/etc/haptics/my lra.json" }"#
        let settings = try HapticSettings.decode(Data(text.utf8), source: "s.json")
        #expect(
            settings
                == HapticSettings(
                    intensity: 0, categoryIntensities: [.impact: 1, .selection: 0],
                    device: "plughw:CARD=Device,DEV=0", profile: "/etc/haptics/my lra.json"))
    }

    @Test(
        "malformed JSON gets the same located syntax errors as an AHAP file",
        arguments: [
            "{ oops }", "{\"intensity\": 0.5,}", "{\"intensity\": 0.5, \"intensity\": 0.6}", "{\"intensity\": 1e999}",
            "{\"intensity\": -Infinity}", "{\"device\": \"\\ud800\"}", "{\"intensity\": .5}", "{\"intensity\": 0.5", "",
        ])
    func syntaxMatchesAHAP(text: String) throws {
        let ahap = try #require(throws: AHAPError.self) { try AHAPDecoder(mode: .strict).decode(Data(text.utf8), source: "x") }
        let diagnostic = try #require(ahap.errors.first)
        let line = try #require(diagnostic.line)
        let column = try #require(diagnostic.column)
        let message = diagnostic.message.replacingOccurrences(of: "line \(line), column \(column): ", with: "")
        let error = try #require(throws: HapticSettingsError.self) { try HapticSettings.decode(Data(text.utf8), source: "s.json") }
        #expect(error == .file(JSONFileError(file: "s.json", line: line, column: column, path: diagnostic.location, .syntax(message: message))))
    }

    @Test("a device, a pipe or a folder is not read, and a file over 1 MiB is refused by its size, at once")
    func notARegularOrOversizedFile() throws {
        let file = try TemporarySettings("{}")
        defer { file.remove() }
        let fifo = file.folder.appendingPathComponent("pipe.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let huge = file.folder.appendingPathComponent("huge.json")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        for (path, expected) in [
            ("/dev/zero", "/dev/zero: not a regular file (a character device)"),
            (fifo, "\(fifo): not a regular file (a pipe)"),
            (file.folder.path, "\(file.folder.path): not a regular file (a directory)"),
            (huge.path, "\(huge.path): larger than 1 MiB (104857600 bytes)"),
        ] {
            let start = ContinuousClock.now
            let loaded = HapticSettings.load(environment: ["HAPTICS_SETTINGS": path])
            #expect(ContinuousClock.now - start < .seconds(1))
            #expect(loaded.problems.map(\.description) == [expected])
            #expect(loaded.settings == .standard)
        }
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
        #expect(
            loaded.problems == [
                .variable(name: "HAPTICS_DISABLED", value: "maybe", expected: "1 or 0"),
                .variable(name: "HAPTICS_INTENSITY", value: "2", expected: "a number from 0 to 1"),
            ])
        #expect(
            loaded.problems.map(\.description) == [
                "HAPTICS_DISABLED: expected 1 or 0, got 'maybe'; ignored",
                "HAPTICS_INTENSITY: expected a number from 0 to 1, got '2'; ignored",
            ])
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
