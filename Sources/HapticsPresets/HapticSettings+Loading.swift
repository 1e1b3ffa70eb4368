import FoundationEssentials
import Glibc
import HapticsCore

extension HapticSettings {
    /// The environment variables that override the settings file, for scripts and tests.
    public enum EnvironmentKey {
        /// A settings file to read instead of the usual one; empty means none (defaults).
        public static let settingsFile = "HAPTICS_SETTINGS"
        /// `1` (or `true`, `yes`, `on`) turns haptics off; `0` (`false`, `no`, `off`) on.
        public static let disabled = "HAPTICS_DISABLED"
        /// The master strength, 0…1, replacing the file's `intensity`.
        public static let intensity = "HAPTICS_INTENSITY"
    }

    /// Settings as found, with the problems met on the way. A problem never stops haptics: what
    /// could not be used is replaced by its default, and the caller decides how to warn.
    public struct Loaded: Sendable {
        /// The settings to use.
        public var settings: HapticSettings
        /// The settings file that was looked for (whether or not it exists), if any.
        public var file: String?
        /// What was wrong: a malformed file (its settings were ignored), a bad variable (it was
        /// ignored).
        public var problems: [HapticSettingsError]
    }

    /// The user's settings: the settings file with the environment's overrides, falling back
    /// to defaults for anything malformed. Reads the file on every call; keep the value if you
    /// play presets often. Use ``load(environment:)`` to learn about problems.
    public static var current: HapticSettings { load().settings }

    /// Reads the settings file and applies the environment's overrides.
    ///
    /// The file is `$HAPTICS_SETTINGS` when set, else `$XDG_CONFIG_HOME/haptics/settings.json`,
    /// else `~/.config/haptics/settings.json`. A missing file at the usual place means defaults;
    /// a missing file named by `HAPTICS_SETTINGS` is a problem. A malformed file is a problem
    /// and its settings are ignored as a whole (half-applied settings would surprise more
    /// than defaults do); the environment's overrides still apply, so `HAPTICS_DISABLED=1`
    /// always silences.
    public static func load(environment: [String: String] = environmentVariables) -> Loaded {
        var settings = HapticSettings.standard
        var problems: [HapticSettingsError] = []
        let file = settingsFile(environment: environment)
        if let file {
            do {
                settings = try load(contentsOfFile: file.path)
            } catch {
                let missing = if case .file(let failure) = error, failure.problem == .noSuchFile { true } else { false }
                if !(missing && !file.isExplicit) { problems.append(error) }
            }
        }
        if let value = environment[EnvironmentKey.disabled], !value.isEmpty {
            switch value.lowercased() {
            case "1", "true", "yes", "on": settings.isEnabled = false
            case "0", "false", "no", "off": settings.isEnabled = true
            default:
                problems.append(.variable(name: EnvironmentKey.disabled, value: value, expected: "1 or 0"))
            }
        }
        if let value = environment[EnvironmentKey.intensity], !value.isEmpty {
            if let intensity = Double(value.trimmingSpaces()), (0...1).contains(intensity) {
                settings.intensity = intensity
            } else {
                problems.append(.variable(name: EnvironmentKey.intensity, value: value, expected: "a number from 0 to 1"))
            }
        }
        return Loaded(settings: settings, file: file?.path, problems: problems)
    }

    /// The variables ``load(environment:)`` reads, from the process's environment: looked up
    /// one by one rather than copying the whole environment into a dictionary, which was a
    /// noticeable part of `haptics play`'s start-up.
    @usableFromInline static var environmentVariables: [String: String] {
        var values: [String: String] = [:]
        for name in [EnvironmentKey.settingsFile, EnvironmentKey.disabled, EnvironmentKey.intensity, "XDG_CONFIG_HOME", "HOME"] {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    /// Where the settings file is looked for, and whether the environment named it.
    static func settingsFile(environment: [String: String]) -> (path: String, isExplicit: Bool)? {
        if let path = environment[EnvironmentKey.settingsFile] {
            return path.isEmpty ? nil : (path, true)
        }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return (config + "/haptics/settings.json", false)
        }
        if let home = environment["HOME"], !home.isEmpty {
            return (home + "/.config/haptics/settings.json", false)
        }
        return nil
    }

    /// The largest settings file read; anything bigger is not a settings file.
    static let largestFile = JSONFile.defaultByteLimit

    /// The keys a settings file may have.
    static let fileKeys = ["enabled", "intensity", "categories", "device", "profile", "feedback"]
    /// The longest `device` (ALSA names are short) and `profile` (a name or a path).
    static let maxDeviceLength = 256
    static let maxProfileLength = 4096

    /// Reads a settings file: only a regular file of at most 1 MiB. Errors name the file by
    /// its path.
    public static func load(contentsOf url: URL) throws(HapticSettingsError) -> HapticSettings {
        try load(contentsOfFile: url.path)
    }

    /// Reads a settings file at a path (see ``load(contentsOf:)``).
    public static func load(contentsOfFile path: String) throws(HapticSettingsError) -> HapticSettings {
        // Messages name the file by its absolute path; the usual files' paths are absolute
        // already, and only others pay for a URL.
        let path = path.hasPrefix("/") ? path : URL(fileURLWithPath: path).path
        do throws(JSONFileError) {
            return try read(JSONFile(contentsOf: path, name: path, byteLimit: largestFile))
        } catch {
            throw .file(error)
        }
    }

    /// Decodes settings JSON:
    ///
    /// ```json
    /// { "enabled": true, "intensity": 0.8, "categories": { "impact": 0.5, "selection": 0.3 },
    ///   "device": "plughw:CARD=Device,DEV=0", "profile": "lra",
    ///   "feedback": { "profile": "quiet", "max-haptic-strength": 0.8 } }
    /// ```
    ///
    /// `feedback` holds the feedback service's settings, checked here and read by
    /// ``HapticSettings/Feedback/load(environment:)``.
    ///
    /// Every key is optional; unknown keys are errors, because a misspelt setting that silently
    /// does nothing is worse than a warning. Every error names `source`, the line and column,
    /// and the key.
    public static func decode(_ data: Data, source: String) throws(HapticSettingsError) -> HapticSettings {
        do throws(JSONFileError) {
            return try read(JSONFile(bytes: [UInt8](data), name: source))
        } catch {
            throw .file(error)
        }
    }

    private static func read(_ file: JSONFile) throws(JSONFileError) -> HapticSettings {
        let object = try file.rootObject(expected: #"a JSON object, like {"intensity": 0.8}"#)
        try object.checkKeys(fileKeys, noun: "setting")
        var settings = HapticSettings.standard
        for field in object.fields {
            switch field.key {
            case "enabled":
                settings.isEnabled = try field.bool()
            case "intensity":
                settings.intensity = try field.number(in: 0...1)
            case "categories":
                let categories = try field.object(expected: #"an object of category strengths, like {"impact": 0.5}"#)
                try categories.checkKeys(PresetCategory.allCases.map(\.rawValue), noun: "category")
                for strength in categories.fields {
                    guard let name = strength.key, let category = PresetCategory(rawValue: name) else { continue }
                    settings.categoryIntensities[category] = try strength.number(in: 0...1)
                }
            case "device":
                settings.device = try field.string(maxLength: maxDeviceLength)
            case "profile":
                settings.profile = try field.string(maxLength: maxProfileLength)
            case "feedback":
                _ = try Feedback.read(field)  // checked here; read by Feedback.load(environment:)
            default:
                break  // refused by checkKeys
            }
        }
        return settings
    }
}
