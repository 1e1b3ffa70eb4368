import Foundation
import HapticsOutputs
import HapticsPresets
import HapticsRender
import HapticsTestSupport
import Testing

@Suite("Profiles by name: built in, the user's profiles folder, the system's")
struct ProfileLookupTests {
    static let profile = #"{"name": "my-lra", "minFrequency": 150, "maxFrequency": 210, "channels": 2, "hapticChannels": [1, 2]}"#

    @Test("--profile NAME finds $XDG_CONFIG_HOME/haptics/profiles/NAME.json, then the system-wide folder; built-in names come first")
    func folders() throws {
        let home = try TemporaryFolder()
        let system = try TemporaryFolder()
        let environment = ["XDG_CONFIG_HOME": home.path, "HAPTICS_SYSTEM_ROOT": system.path]
        _ = try system.write("etc/haptics/profiles/board.json", Self.profile.replacingOccurrences(of: "my-lra", with: "board"))
        #expect(try ProfileLookup.resolve("board", environment: environment).name == "board")
        _ = try home.write("haptics/profiles/board.json", Self.profile)
        #expect(try ProfileLookup.resolve("board", environment: environment).name == "my-lra", "the user's profile wins")
        _ = try home.write("haptics/profiles/lra.json", Self.profile)
        #expect(try ProfileLookup.resolve("lra", environment: environment) == .lra, "a built-in name is the built-in profile")
        #expect(throws: ProfileError.self) { try ProfileLookup.resolve("nonesuch", environment: environment) }
        let chosen = HapticOutputSelection.resolve(
            environment: environment, settings: HapticSettings(device: "null", profile: "board"))
        #expect(chosen.profile.name == "my-lra" && chosen.problems.isEmpty, "the settings' profile is looked up the same way")
    }
}
