import Foundation

/// A problem with a custom profile file: names the file, the key and what is wrong.
public struct ProfileError: Error, Sendable, CustomStringConvertible {
    /// One line: `file: key: problem`.
    public var description: String
    init(_ file: String, _ key: String?, _ problem: String) {
        description = [file, key, problem].compactMap { $0 }.joined(separator: ": ")
    }
}

extension ActuatorProfile {
    /// The keys a profile file may have, with what they mean (shown when a key is unknown).
    public static let fileKeys: [(key: String, meaning: String)] = [
        ("name", "string, the profile's name (default: the file name)"),
        ("minFrequency", "number, Hz at sharpness 0 (required)"),
        ("maxFrequency", "number, Hz at sharpness 1 (required)"),
        ("sampleRate", "integer, default output rate in Hz (default 48000)"),
        ("allowedSampleRates", "array of integers, the only rates the device takes"),
        ("channels", "integer, channels of the device (default 1)"),
        ("hapticChannels", "array of 1-based channel numbers that carry haptics (default: all)"),
        ("gain", "number, linear output gain 0…4 (default 1)"),
        ("intensityExponent", "number, amplitude = intensity^exponent, 0.5…4 (default 2)"),
    ]

    /// Loads a profile from a JSON file such as
    /// `{"name": "my-lra", "minFrequency": 150, "maxFrequency": 210, "gain": 0.8}`.
    ///
    /// Every key is checked; an unknown key is an error (a typo should not silently fall back
    /// to a default that makes the actuator feel wrong).
    public init(contentsOf url: URL) throws(ProfileError) {
        let file = url.path
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ProfileError(file, nil, "cannot read the profile file (\(error.localizedDescription))")
        }
        guard data.count < 1 << 20 else { throw ProfileError(file, nil, "profile file is larger than 1 MiB") }
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw ProfileError(file, nil, "not valid JSON")
        }
        guard let object = json as? [String: Any] else { throw ProfileError(file, nil, "expected a JSON object") }
        let known = Set(Self.fileKeys.map(\.key))
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw ProfileError(file, unknown, "unknown key (known keys: \(Self.fileKeys.map(\.key).joined(separator: ", ")))")
        }

        func number(_ key: String) throws(ProfileError) -> Double? {
            guard let value = object[key] else { return nil }
            guard let n = value as? NSNumber, !n.isJSONBoolean, n.doubleValue.isFinite else {
                throw ProfileError(file, key, "expected a number")
            }
            return n.doubleValue
        }
        func integer(_ key: String) throws(ProfileError) -> Int? {
            guard let value = try number(key) else { return nil }
            guard value.rounded() == value, abs(value) < 1e9 else { throw ProfileError(file, key, "expected a whole number") }
            return Int(value)
        }
        func integers(_ key: String) throws(ProfileError) -> [Int]? {
            guard let value = object[key] else { return nil }
            guard let array = value as? [Any], !array.isEmpty else { throw ProfileError(file, key, "expected a non-empty array of whole numbers") }
            var result: [Int] = []
            for element in array {
                guard let n = element as? NSNumber, !n.isJSONBoolean, n.doubleValue.rounded() == n.doubleValue, abs(n.doubleValue) < 1e9 else {
                    throw ProfileError(file, key, "expected a non-empty array of whole numbers")
                }
                result.append(n.intValue)
            }
            return result
        }

        let name: String
        if let value = object["name"] {
            guard let string = value as? String, !string.isEmpty else { throw ProfileError(file, "name", "expected a non-empty string") }
            name = string
        } else {
            name = url.deletingPathExtension().lastPathComponent
        }
        guard let fMin = try number("minFrequency") else { throw ProfileError(file, "minFrequency", "missing (Hz at sharpness 0)") }
        guard let fMax = try number("maxFrequency") else { throw ProfileError(file, "maxFrequency", "missing (Hz at sharpness 1)") }
        guard fMin >= 1 else { throw ProfileError(file, "minFrequency", "must be at least 1 Hz") }
        guard fMax >= fMin else { throw ProfileError(file, "maxFrequency", "must not be below minFrequency (\(fMin) Hz)") }
        let channels = try integer("channels") ?? 1
        guard (1...32).contains(channels) else { throw ProfileError(file, "channels", "must be 1…32") }
        let hapticChannels = try integers("hapticChannels") ?? Array(1...channels)
        for channel in hapticChannels where !(1...channels).contains(channel) {
            throw ProfileError(file, "hapticChannels", "channel \(channel) is outside 1…\(channels)")
        }
        let gain = try number("gain") ?? 1
        guard (0...4).contains(gain) else { throw ProfileError(file, "gain", "must be 0…4") }
        let exponent = try number("intensityExponent") ?? 2
        guard (0.5...4).contains(exponent) else { throw ProfileError(file, "intensityExponent", "must be 0.5…4") }
        let allowed = try integers("allowedSampleRates")
        let rate = try integer("sampleRate") ?? allowed?.first ?? 48_000

        self.init(name: name, minFrequency: fMin, maxFrequency: fMax, sampleRate: rate,
                  allowedSampleRates: allowed, channelCount: channels,
                  hapticChannels: hapticChannels.map { $0 - 1 }, gain: gain, intensityExponent: exponent)
        if let problem = problem(withSampleRate: rate) { throw ProfileError(file, "sampleRate", problem) }
    }

    /// Resolves `--profile`: a built-in name or a path to a JSON file.
    public static func resolve(_ nameOrPath: String) throws(ProfileError) -> ActuatorProfile {
        if let builtIn = named(nameOrPath) { return builtIn }
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") || FileManager.default.fileExists(atPath: nameOrPath) {
            return try ActuatorProfile(contentsOf: URL(fileURLWithPath: nameOrPath))
        }
        throw ProfileError(nameOrPath, nil, "no such profile (built-in: \(builtIn.map(\.name).joined(separator: ", ")); or give a path to a JSON file)")
    }
}

private extension NSNumber {
    /// Whether JSON wrote `true` or `false` here. Not `value is Bool`: on Linux that bridges
    /// every NSNumber holding 0 or 1, so `"hapticChannels": [1]` would read as a boolean.
    /// Foundation gives booleans the `c` type code.
    var isJSONBoolean: Bool {
        String(cString: objCType) == "c"
    }
}
