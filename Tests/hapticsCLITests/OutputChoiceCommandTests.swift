import Foundation
import HapticsTestSupport
import Testing

/// `haptics play` and `haptics devices` choose the output exactly as the library does
/// (HapticsOutputsTests' choice table): the same machines, the same settings keys.
@Suite("haptics play and devices: the library's choice of output")
struct OutputChoiceCommandTests {
    /// An environment with no device named, no settings file and no sound server, looking at
    /// `tree` instead of this machine.
    static func environment(_ tree: FakeSystemTree?, settings: String? = nil) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HAPTICS_DEVICE"] = nil
        environment["HAPTICS_SETTINGS"] = settings ?? ""
        environment["PULSE_SERVER"] = "unix:/nonexistent/haptics-no-server"
        if let tree { environment["HAPTICS_SYSTEM_ROOT"] = tree.root }
        return environment
    }

    static func defaultOutput(_ environment: [String: String]) async throws -> [String: Any] {
        let result = try await HapticsProcess.run(["devices", "--json"], environment: environment, timeout: .seconds(30))
        try #require(result.status == 0, "\(result.errorOutput)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return try #require(object["default"] as? [String: Any])
    }

    @Test(
        "devices marks the library's choice on each machine, and whether it is felt",
        arguments: [
            ("gamepad", "/dev/input/event7", true), ("pinephone", "/dev/input/event1", true), ("touchpad", "/dev/input/event5", true),
            ("dualsense", "hw:CARD=Controller,DEV=0", true), ("speakers", "null", false), ("nothing", "null", false),
        ])
    func defaultOnEachMachine(machine: String, device: String, felt: Bool) async throws {
        let tree = try FakeSystemTree.machine(machine)
        let chosen = try await Self.defaultOutput(Self.environment(tree))
        let expected = device.hasPrefix("/dev/") ? tree.root + device : device
        #expect(chosen["device"] as? String == expected)
        #expect(chosen["supportsHaptics"] as? Bool == felt)
        #expect(chosen["profile"] as? String == (machine == "dualsense" ? "dualsense" : "wideband"))
        let text = try await HapticsProcess.run(["devices"], environment: Self.environment(tree), timeout: .seconds(30))
        #expect(text.outputLines.contains { $0.hasPrefix(" * \(expected)") }, "\(text.output)")
    }

    @Test("play without --device plays on the machine's chosen actuator: a missing one exits 69 naming it")
    func playUsesTheChoice() async throws {
        for (machine, device) in [("dualsense", "hw:CARD=Controller,DEV=0"), ("gamepad", "/dev/input/event7")] {
            let tree = try FakeSystemTree.machine(machine)
            let result = try await HapticsProcess.run(["play", "success"], environment: Self.environment(tree), timeout: .seconds(30))
            let expected = device.hasPrefix("/dev/") ? tree.root + device : device
            #expect(result.status == 69, "\(machine): \(result.errorOutput)")
            #expect(result.errorLines.count == 1 && result.errorOutput.contains(expected), "\(machine): \(result.errorOutput)")
        }
    }

    @Test("play on a machine with only speakers and no sound server renders instead, in one line, and exits 69 (not played)")
    func speakersOnlyFallsBack() async throws {
        let tree = try FakeSystemTree.machine("nothing")
        let folder = try TemporaryFolder()
        var environment = Self.environment(tree)
        environment["TMPDIR"] = folder.path
        let result = try await HapticsProcess.run(["play", "success"], environment: environment, timeout: .seconds(30))
        let cards = (try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8)) ?? ""
        if cards.contains("[") { try Test.cancel("this machine has a sound card: play would be heard on it") }
        withExtendedLifetime(tree) {}
        #expect(result.status == 69, "\(result.errorOutput)")
        #expect(result.errorLines.count == 1 && result.errorOutput.hasPrefix("haptics: no audio output to play on"), "\(result.errorOutput)")
    }

    @Test("the settings file's device and profile, and HAPTICS_DEVICE over them, are what play and devices use")
    func settingsKeys() async throws {
        let folder = try TemporaryFolder()
        let fromSettings = folder.path("settings.wav")
        let fromVariable = folder.path("variable.wav")
        let settings = try folder.write("settings.json", #"{"device": "file:'\#(fromSettings)',wav", "profile": "dualsense"}"#)
        let tree = try FakeSystemTree.machine("pinephone")
        var environment = Self.environment(tree, settings: settings.path)
        let chosen = try await Self.defaultOutput(environment)
        #expect(chosen["device"] as? String == "file:'\(fromSettings)',wav" && chosen["source"] as? String == "settings")
        let listing = try await HapticsProcess.run(["devices"], environment: environment, timeout: .seconds(30))
        #expect(listing.outputLines.dropFirst().first == " * file:'\(fromSettings)',wav  named by the settings file  (configured, ~20 ms)", "\(listing.output)")
        #expect(listing.outputLines.contains { $0.contains("/dev/input/event1") && $0.contains("vibration motor") }, "found outputs are still listed")
        #expect(chosen["profile"] as? String == "dualsense" && chosen["supportsHaptics"] as? Bool == true)
        let played = try await HapticsProcess.run(["play", "success"], environment: environment, timeout: .seconds(30))
        #expect(played.status == 0, "\(played.errorOutput)")
        let wav = try WAVFile(contentsOf: URL(fileURLWithPath: fromSettings))
        #expect(wav.channelCount == 4 && wav.sampleRate == 48_000, "the settings' profile (dualsense) was used")

        environment["HAPTICS_DEVICE"] = "file:'\(fromVariable)',wav"
        let overridden = try await Self.defaultOutput(environment)
        #expect(overridden["device"] as? String == "file:'\(fromVariable)',wav" && overridden["source"] as? String == "environment")
        let again = try await HapticsProcess.run(["play", "success", "--profile", "lra"], environment: environment, timeout: .seconds(30))
        #expect(again.status == 0, "\(again.errorOutput)")
        let variable = try WAVFile(contentsOf: URL(fileURLWithPath: fromVariable))
        #expect(variable.channelCount == 1, "--profile wins over the settings' profile")
        withExtendedLifetime(tree) {}
    }

    @Test("the settings' enabled and intensity keys scale what play plays, as they scale Haptics.play")
    func settingsScale() async throws {
        let folder = try TemporaryFolder()
        func peak(_ settings: String) async throws -> Float {
            let out = folder.path("\(UUID().uuidString).wav")
            let file = try folder.write("\(UUID().uuidString).json", settings)
            var environment = Self.environment(nil, settings: file.path)
            environment["HAPTICS_DEVICE"] = "file:'\(out)',wav"
            let result = try await HapticsProcess.run(["play", "success"], environment: environment, timeout: .seconds(30))
            try #require(result.status == 0, "\(result.errorOutput)")
            let wav = try WAVFile(contentsOf: URL(fileURLWithPath: out))
            let samples = wav.bitsPerSample == 32 ? wav.float32Samples : wav.int16Samples.map { Float($0) / 32768 }
            return samples.map(abs).max() ?? 0
        }
        let full = try await peak("{}")
        let half = try await peak(#"{"intensity": 0.5}"#)
        let off = try await peak(#"{"enabled": false}"#)
        let category = try await peak(#"{"categories": {"notification": 0.5}}"#)
        let otherCategory = try await peak(#"{"categories": {"impact": 0}}"#)
        #expect(full > 0.1)
        #expect(half < full * 0.9 && half > 0)
        #expect(off == 0)
        #expect(category < full * 0.9 && category > 0, "success is a notification")
        #expect(otherCategory == full, "another category's scale leaves it alone")
    }

    @Test("an embedded install's /etc/haptics/settings.json and /etc/haptics/profiles/NAME.json are what play uses, as the library")
    func systemWideSettingsAndProfiles() async throws {
        let tree = try FakeSystemTree.machine("nothing")
        let home = try TemporaryFolder()
        let output = home.path("played.wav")
        let root = URL(fileURLWithPath: tree.root)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("etc/haptics/profiles"), withIntermediateDirectories: true)
        try #"{"device": "file:'\#(output)',wav", "profile": "board"}"#.write(
            to: root.appendingPathComponent("etc/haptics/settings.json"), atomically: false, encoding: .utf8)
        try #"{"name": "board", "minFrequency": 150, "maxFrequency": 210, "channels": 2, "hapticChannels": [1, 2]}"#.write(
            to: root.appendingPathComponent("etc/haptics/profiles/board.json"), atomically: false, encoding: .utf8)
        var environment = Self.environment(tree)
        environment["HAPTICS_SETTINGS"] = nil
        environment["XDG_CONFIG_HOME"] = home.path
        let chosen = try await Self.defaultOutput(environment)
        #expect(chosen["device"] as? String == "file:'\(output)',wav" && chosen["profile"] as? String == "board")
        let played = try await HapticsProcess.run(["play", "success"], environment: environment, timeout: .seconds(30))
        #expect(played.status == 0, "\(played.errorOutput)")
        #expect(try WAVFile(contentsOf: URL(fileURLWithPath: output)).channelCount == 2, "the system's 'board' profile was used")
        // The user's profiles folder, by name on the command line.
        _ = try home.write("haptics/profiles/mine.json", #"{"name": "mine", "minFrequency": 100, "maxFrequency": 200, "channels": 3, "hapticChannels": [1]}"#)
        let mine = try await HapticsProcess.run(["play", "success", "--profile", "mine"], environment: environment, timeout: .seconds(30))
        #expect(mine.status == 0, "\(mine.errorOutput)")
        #expect(try WAVFile(contentsOf: URL(fileURLWithPath: output)).channelCount == 3)
        withExtendedLifetime(tree) {}
    }

    @Test("play on a haptic touchpad names continuous events as not representable, once")
    func touchpadNote() async throws {
        let tree = try FakeSystemTree.machine("touchpad")
        let folder = try TemporaryFolder()
        try folder.write(
            "hum.ahap",
            #"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.5, "EventParameters": []}}, {"Event": {"Time": 0.6, "EventType": "HapticContinuous", "EventDuration": 0.5, "EventParameters": []}}]}"#
        )
        let result = try await HapticsProcess.run(["play", "hum.ahap"], in: folder.url, environment: Self.environment(tree), timeout: .seconds(30))
        let notes = result.errorLines.filter { $0.contains("not representable on a haptic touchpad") }
        #expect(
            notes == ["hum.ahap: note: 2 continuous events are not representable on a haptic touchpad: each plays one click at its start"],
            "\(result.errorOutput)")
        withExtendedLifetime(tree) {}
    }

    @Test("completion offers the haptic outputs found for --device and the profiles folder's names for --profile")
    func completions() async throws {
        let tree = try FakeSystemTree.machine("pinephone")
        let home = try TemporaryFolder()
        _ = try home.write("haptics/profiles/board.json", "{}")
        var environment = Self.environment(tree)
        environment["XDG_CONFIG_HOME"] = home.path
        let devices = try await HapticsProcess.run(["---complete", "--", "play", "success", "--device", ""], environment: environment, timeout: .seconds(30))
        #expect(devices.outputLines.first == tree.root + "/dev/input/event1", "\(devices.output)")
        let profiles = try await HapticsProcess.run(
            ["---complete", "--", "play", "success", "--profile", "bo"], environment: environment, timeout: .seconds(30))
        #expect(profiles.outputLines.contains("board"), "\(profiles.output)")
    }
}
