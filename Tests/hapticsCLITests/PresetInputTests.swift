import Foundation
import HapticsTestSupport
import Testing

@Suite("Presets and settings on the command line")
struct PresetInputTests {
    @Test(
        "a misspelt preset is one line with the nearest name, exit 1",
        arguments: [("sucess", "success"), ("Sucess", "success"), ("impcat", "impact"), ("levle-change", "levelChange")])
    func presetSuggestion(typed: String, meant: String) async throws {
        let result = try await HapticsProcess.run(["play", typed, "--device", "null"], timeout: .seconds(30))
        #expect(result.status == 1)
        #expect(result.errorLines == ["haptics: \(typed): no such file or preset (did you mean '\(meant)'? see `haptics list`)"])
    }

    @Test("a file named like a preset does not shadow it: the preset is used, a note says how to pick the file")
    func fileNamedLikePreset() async throws {
        let folder = try TemporaryFolder()
        try folder.write("success", "{\"Pattern\": [{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\"}}]}")
        let bare = try await HapticsProcess.run(["show", "success", "--json"], in: folder.url, timeout: .seconds(30))
        #expect(bare.status == 0)
        #expect(bare.errorLines == ["haptics: note: 'success' is the preset; a file of that name is here too: give ./success to use the file"])
        #expect(try ShowOutput(bare.stdout).events.count == 2, "the preset: two taps")
        let file = try await HapticsProcess.run(["show", "./success", "--json"], in: folder.url, timeout: .seconds(30))
        #expect(file.status == 0 && file.errorOutput.isEmpty)
        #expect(try ShowOutput(file.stdout).events.count == 1, "the file: one tap")
        // A bare name that is no preset is the file of that name.
        try folder.write("mytap", "{\"Pattern\": [{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\"}}]}")
        let other = try await HapticsProcess.run(["show", "mytap", "--json"], in: folder.url, timeout: .seconds(30))
        #expect(other.status == 0 && other.errorOutput.isEmpty)
        #expect(try ShowOutput(other.stdout).events.count == 1)
    }

    @Test("a name like no preset gets no suggestion")
    func noSuggestion() async throws {
        let result = try await HapticsProcess.run(["show", "zzzzzz"], timeout: .seconds(30))
        #expect(result.status == 1)
        #expect(result.errorLines == ["haptics: zzzzzz: no such file or preset (see `haptics list`)"])
    }

    @Test("a malformed settings file named by a relative HAPTICS_SETTINGS warns once that defaults apply, and the preset plays at full strength")
    func malformedRelativeSettings() async throws {
        let folder = try TemporaryFolder()
        try folder.write("settings.json", "{\n  \"intensity\": 0.5,\n  \"categories\": { \"notifications\": 0.5 }\n}\n")
        var environment = ProcessInfo.processInfo.environment
        environment["HAPTICS_SETTINGS"] = "settings.json"
        environment.removeValue(forKey: "HAPTICS_DISABLED")
        environment.removeValue(forKey: "HAPTICS_INTENSITY")
        let result = try await HapticsProcess.run(["export", "success"], in: folder.url, environment: environment, timeout: .seconds(30))
        #expect(result.status == 0)
        let path = folder.url.appendingPathComponent("settings.json").standardizedFileURL.path
        #expect(
            result.errorLines == ["\(path):3:19: warning: categories.notifications: unknown category (did you mean 'notification'?); using default settings"])
        #expect(result.output.contains("\"ParameterValue\": 1.0"))
    }

    @Test("an out-of-range strength in the settings warns at its place that defaults apply")
    func outOfRangeSettings() async throws {
        let folder = try TemporaryFolder()
        try folder.write("settings.json", "{\n  \"categories\": { \"impact\": 1.5 }\n}\n")
        var environment = ProcessInfo.processInfo.environment
        environment["HAPTICS_SETTINGS"] = folder.url.appendingPathComponent("settings.json").path
        environment.removeValue(forKey: "HAPTICS_DISABLED")
        environment.removeValue(forKey: "HAPTICS_INTENSITY")
        let result = try await HapticsProcess.run(["export", "success"], in: folder.url, environment: environment, timeout: .seconds(30))
        #expect(result.status == 0)
        let path = folder.url.appendingPathComponent("settings.json").path
        #expect(result.errorLines == ["\(path):2:29: warning: categories.impact: expected a number from 0 to 1, got 1.5; using default settings"])
    }

    @Test("HAPTICS_SETTINGS=/dev/zero warns at once that it is not a regular file")
    func deviceSettings() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["HAPTICS_SETTINGS"] = "/dev/zero"
        let result = try await HapticsProcess.run(["export", "success"], environment: environment, timeout: .seconds(30))
        #expect(result.status == 0)
        #expect(result.errorLines == ["haptics: warning: /dev/zero: not a regular file (a character device); using default settings"])
    }

    @Test("a missing settings file named by HAPTICS_SETTINGS warns that defaults apply")
    func missingSettings() async throws {
        let folder = try TemporaryFolder()
        var environment = ProcessInfo.processInfo.environment
        environment["HAPTICS_SETTINGS"] = "nowhere.json"
        let result = try await HapticsProcess.run(["export", "success"], in: folder.url, environment: environment, timeout: .seconds(30))
        #expect(result.status == 0)
        let path = folder.url.appendingPathComponent("nowhere.json").standardizedFileURL.path
        #expect(result.errorLines == ["haptics: warning: \(path): no such file; using default settings"])
    }

    @Test("a silenced preset's --stats reports -inf dBFS, not an invented floor")
    func silentStats() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["HAPTICS_DISABLED"] = "1"
        let result = try await HapticsProcess.run(["render", "success", "-o", "/dev/null", "--stats"], environment: environment, timeout: .seconds(30))
        #expect(result.status == 0)
        #expect(result.output.contains("peak 0.0000 (-inf dBFS), RMS 0.0000"), "\(result.output)")
        #expect(result.errorLines == ["haptics: note: haptics are turned off by HAPTICS_DISABLED; 'success' is silent"])
    }
}
