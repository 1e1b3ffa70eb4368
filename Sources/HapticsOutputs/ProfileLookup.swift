import FoundationEssentials
import HapticsPresets
import HapticsRender

/// Finds the actuator profile a name means, for `--profile NAME` and the settings' `profile`:
/// a built-in profile (`wideband`, `lra`, `dualsense`, `shaker`), else the user's
/// `$XDG_CONFIG_HOME/haptics/profiles/NAME.json` (`~/.config/haptics/profiles/NAME.json`),
/// else the system-wide `/etc/haptics/profiles/NAME.json`, else a path to a JSON file.
package enum ProfileLookup {
    /// The folders searched for `NAME.json`, user's first.
    package static func folders(environment: [String: String]) -> [String] {
        var folders: [String] = []
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            folders.append(config + "/haptics/profiles")
        } else if let home = environment["HOME"], !home.isEmpty {
            folders.append(home + "/.config/haptics/profiles")
        }
        folders.append((environment[HapticSettings.systemRootVariable] ?? "") + "/etc/haptics/profiles")
        return folders
    }

    /// The profile `name` means; a name found nowhere is ``ProfileError/unknownProfile(name:builtIn:)``
    /// (with its did-you-mean), a file that does not read is the file's error.
    package static func resolve(_ name: String, environment: [String: String]) throws(ProfileError) -> ActuatorProfile {
        if let builtIn = ActuatorProfile.named(name) { return builtIn }
        if !name.contains("/") && !name.hasSuffix(".json") && !FileManager.default.fileExists(atPath: name) {
            for folder in folders(environment: environment) {
                let file = folder + "/" + name + ".json"
                if FileManager.default.fileExists(atPath: file) {
                    return try ActuatorProfile(contentsOf: URL(fileURLWithPath: file))
                }
            }
        }
        return try ActuatorProfile.resolve(name)
    }
}
