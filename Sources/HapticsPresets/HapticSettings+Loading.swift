import Foundation

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
    public static func load(environment: [String: String] = ProcessInfo.processInfo.environment) -> Loaded {
        var settings = HapticSettings.standard
        var problems: [HapticSettingsError] = []
        let file = settingsFile(environment: environment)
        if let file {
            do {
                settings = try load(contentsOf: URL(fileURLWithPath: file.path))
            } catch {
                let missing = !FileManager.default.fileExists(atPath: file.path)
                if !(missing && !file.isExplicit) { problems.append(error) }
            }
        }
        if let value = environment[EnvironmentKey.disabled], !value.isEmpty {
            switch value.lowercased() {
            case "1", "true", "yes", "on": settings.isEnabled = false
            case "0", "false", "no", "off": settings.isEnabled = true
            default:
                problems.append(HapticSettingsError(source: EnvironmentKey.disabled, "expected 1 or 0, got '\(value)'; ignored"))
            }
        }
        if let value = environment[EnvironmentKey.intensity], !value.isEmpty {
            if let intensity = Double(value.trimmingCharacters(in: .whitespaces)), (0...1).contains(intensity) {
                settings.intensity = intensity
            } else {
                problems.append(HapticSettingsError(source: EnvironmentKey.intensity, "expected a number from 0 to 1, got '\(value)'; ignored"))
            }
        }
        return Loaded(settings: settings, file: file?.path, problems: problems)
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
    static let largestFile = 1 << 20

    /// Reads a settings file.
    public static func load(contentsOf url: URL) throws(HapticSettingsError) -> HapticSettings {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw HapticSettingsError(source: path, "no such file")
        }
        guard !isDirectory.boolValue else { throw HapticSettingsError(source: path, "is a directory, not a settings file") }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: largestFile + 1) ?? Data()
        } catch {
            throw HapticSettingsError(source: path, "cannot read: \(error.localizedDescription)")
        }
        guard data.count <= largestFile else {
            throw HapticSettingsError(source: path, "larger than \(largestFile >> 20) MiB; not a settings file")
        }
        return try decode(data, source: path)
    }

    /// Decodes settings JSON:
    ///
    /// ```json
    /// { "enabled": true, "intensity": 0.8, "categories": { "impact": 0.5, "selection": 0.3 },
    ///   "device": "plughw:CARD=Device,DEV=0", "profile": "lra" }
    /// ```
    ///
    /// Every key is optional; unknown keys are errors, because a misspelt setting that silently
    /// does nothing is worse than a warning.
    public static func decode(_ data: Data, source: String) throws(HapticSettingsError) -> HapticSettings {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw syntaxError(error, in: data, source: source)
        }
        guard let object = root as? [String: Any] else {
            throw HapticSettingsError(source: source, "expected a JSON object, like {\"intensity\": 0.8}")
        }
        var settings = HapticSettings.standard
        for key in object.keys.sorted() {
            let value = object[key]
            switch key {
            case "enabled":
                guard let number = value as? NSNumber, number.isBoolean else {
                    throw HapticSettingsError(source: source, location: key, "expected true or false, got \(jsonText(value))")
                }
                settings.isEnabled = number.boolValue
            case "intensity":
                settings.intensity = try unitNumber(value, source: source, location: key)
            case "categories":
                guard let categories = value as? [String: Any] else {
                    throw HapticSettingsError(source: source, location: key, "expected an object of category strengths, like {\"impact\": 0.5}")
                }
                for name in categories.keys.sorted() {
                    let location = "categories.\(name)"
                    guard let category = PresetCategory(rawValue: name) else {
                        let known = PresetCategory.allCases.map(\.rawValue)
                        let hint = NearestName.suggestion(for: name, among: known).map { "did you mean '\($0)'?" }
                            ?? "known: \(known.joined(separator: ", "))"
                        throw HapticSettingsError(source: source, location: location, "unknown category (\(hint))")
                    }
                    settings.categoryIntensities[category] = try unitNumber(categories[name], source: source, location: location)
                }
            case "device", "profile":
                guard let text = value as? String, !text.isEmpty else {
                    throw HapticSettingsError(source: source, location: key, "expected a non-empty string, got \(jsonText(value))")
                }
                if key == "device" { settings.device = text } else { settings.profile = text }
            default:
                let known = ["enabled", "intensity", "categories", "device", "profile"]
                let hint = NearestName.suggestion(for: key, among: known).map { "did you mean '\($0)'?" }
                    ?? "known: \(known.joined(separator: ", "))"
                throw HapticSettingsError(source: source, location: key, "unknown setting (\(hint))")
            }
        }
        return settings
    }

    private static func unitNumber(_ value: Any?, source: String, location: String) throws(HapticSettingsError) -> Double {
        guard let number = value as? NSNumber, !number.isBoolean, number.doubleValue.isFinite, (0...1).contains(number.doubleValue) else {
            throw HapticSettingsError(source: source, location: location, "expected a number from 0 to 1, got \(jsonText(value))")
        }
        return number.doubleValue
    }

    /// Turns Foundation's "… around character N." into a line and column.
    private static func syntaxError(_ error: Error, in data: Data, source: String) -> HapticSettingsError {
        guard !data.isEmpty else { return HapticSettingsError(source: source, "empty file; expected a JSON object") }
        var detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "malformed"
        var location = ""
        if let range = detail.range(of: #" around (line \d+, column \d+|character \d+)\.?$"#, options: .regularExpression) {
            let place = detail[range]
            if let offset = place.split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .punctuationCharacters)) }),
               place.contains("character") {
                location = lineAndColumn(ofOffset: offset, in: data)
            } else {
                location = String(place.dropFirst(" around ".count)).trimmingCharacters(in: .punctuationCharacters)
            }
            detail = String(detail[..<range.lowerBound])
        }
        if detail.hasSuffix(".") { detail.removeLast() }
        return HapticSettingsError(source: source, location: location, "not valid JSON: \(detail.prefix(1).lowercased() + detail.dropFirst())")
    }

    private static func lineAndColumn(ofOffset offset: Int, in data: Data) -> String {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return "line \(line), column \(column)"
    }

    /// A short rendering of a JSON value for messages.
    private static func jsonText(_ value: Any?) -> String {
        guard let value, !(value is NSNull) else { return "null" }
        switch value {
        case let number as NSNumber: return number.isBoolean ? (number.boolValue ? "true" : "false") : "\(number)"
        case let text as String: return "\"\(text.prefix(40))\""
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        default: return "\(value)"
        }
    }
}

extension NSNumber {
    /// Whether JSON wrote `true` or `false` here rather than a number (Foundation reads both
    /// as NSNumber; booleans carry the `c` type code).
    fileprivate var isBoolean: Bool {
        String(cString: objCType) == "c"
    }
}
