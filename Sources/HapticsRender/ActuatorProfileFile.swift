import FoundationEssentials
import HapticsCore

/// Why a profile cannot be used: no built-in profile has the name, or the profile file cannot
/// be read or is invalid (with the file, line, column and key).
public enum ProfileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name is no built-in profile's and does not look like a file.
    case unknownProfile(name: String, builtIn: [String])
    /// The profile file cannot be read or is invalid; the error says where and why.
    case file(JSONFileError)

    /// One line: `file:line:column: key: problem`, or `name: no such profile (…)`.
    public var description: String {
        switch self {
        case .unknownProfile(let name, let builtIn):
            if let near = NameSuggestion.best(for: name, among: builtIn) {
                return "\(name): no such profile (did you mean '\(near)'? built-in: \(builtIn.joined(separator: ", ")); or give a path to a JSON file)"
            }
            return "\(name): no such profile (built-in: \(builtIn.joined(separator: ", ")); or give a path to a JSON file)"
        case .file(let error):
            return error.description
        }
    }
}

extension ActuatorProfile {
    /// The keys a profile file may have, with what they mean (shown when a key is unknown).
    public static let fileKeys: [(key: String, meaning: String)] = [
        ("name", "string, the profile's name (default: the file name)"),
        ("minFrequency", "number, Hz at sharpness 0, 1…20000 (required)"),
        ("maxFrequency", "number, Hz at sharpness 1, minFrequency…20000, below half the sample rate (required)"),
        ("sampleRate", "integer, default output rate in Hz, 8000…192000 (default 48000)"),
        ("allowedSampleRates", "array of integers, the only rates the device takes, 8000…192000"),
        ("channels", "integer, channels of the device, 1…32 (default 1)"),
        ("hapticChannels", "array of 1-based channel numbers that carry haptics (default: all)"),
        ("gain", "number, linear output gain 0…4 (default 1)"),
        ("intensityExponent", "number, amplitude = intensity^exponent, 0.5…4 (default 2)"),
    ]

    /// Sample rates a profile may use, in hertz.
    public static let sampleRateRange = 8_000...192_000
    /// Frequencies a profile's band may span, in hertz.
    public static let frequencyRange: ClosedRange<Double> = 1...20_000
    /// Channel counts a profile may have.
    public static let channelRange = 1...32
    /// Output gains a profile may have.
    public static let gainRange: ClosedRange<Double> = 0...4
    /// Intensity exponents a profile may have.
    public static let intensityExponentRange: ClosedRange<Double> = 0.5...4
    /// The most entries in `allowedSampleRates`.
    static let maxAllowedSampleRates = 16
    /// The longest profile name.
    static let maxNameLength = 64

    /// Loads a profile from a JSON file such as
    /// `{"name": "my-lra", "minFrequency": 150, "maxFrequency": 210, "gain": 0.8}`.
    ///
    /// Every key and every number is checked; an unknown key is an error (a typo should not
    /// silently fall back to a default that makes the actuator feel wrong). Errors name the
    /// file as given (`url.relativePath`), the line and column, and the key. Only a regular
    /// file of at most 1 MiB is read.
    public init(contentsOf url: URL) throws(ProfileError) {
        let source = url.isFileURL ? url.relativePath : url.absoluteString
        do throws(JSONFileError) {
            let file = try JSONFile(contentsOf: url.path, name: source)
            self = try Self.read(file, defaultName: url.deletingPathExtension().lastPathComponent)
        } catch {
            throw .file(error)
        }
    }

    /// Decodes profile JSON; `source` names it in errors, and `defaultName` is the profile's
    /// name when the JSON has none.
    public init(json data: Data, source: String, defaultName: String) throws(ProfileError) {
        do throws(JSONFileError) {
            self = try Self.read(JSONFile(bytes: [UInt8](data), name: source), defaultName: defaultName)
        } catch {
            throw .file(error)
        }
    }

    /// Reads a profile, checking every key and number.
    private static func read(_ file: JSONFile, defaultName: String) throws(JSONFileError) -> ActuatorProfile {
        let object = try file.rootObject(expected: #"a JSON object, like {"minFrequency": 60, "maxFrequency": 300}"#)
        try object.checkKeys(fileKeys.map(\.key))

        let name = try object["name"]?.string(maxLength: maxNameLength) ?? defaultName
        let fMin = try object.required("minFrequency", meaning: "Hz at sharpness 0").number(in: frequencyRange, unit: "Hz")
        let maxField = try object.required("maxFrequency", meaning: "Hz at sharpness 1")
        let fMax = try maxField.number(in: frequencyRange, unit: "Hz")
        guard fMax >= fMin else {
            throw maxField.error(.inconsistent(key: "maxFrequency", message: "must not be below minFrequency (\(JSONText.shortNumber(fMin)) Hz)"))
        }

        let channels = try object["channels"]?.integer(in: channelRange) ?? 1
        var hapticChannels = Array(1...channels)
        if let field = object["hapticChannels"] {
            hapticChannels = []
            for item in try field.array(count: 1...channels, of: "channel numbers from 1 to \(channels)") {
                let channel = try item.integer(in: 1...channels)
                guard !hapticChannels.contains(channel) else {
                    throw item.error(.inconsistent(key: "hapticChannels", message: "channel \(channel) is listed twice"))
                }
                hapticChannels.append(channel)
            }
        }

        let gain = try object["gain"]?.number(in: gainRange) ?? 1
        let exponent = try object["intensityExponent"]?.number(in: intensityExponentRange) ?? 2

        /// A rate must carry the band: above twice the top frequency.
        func checkBand(_ rate: Int, at field: JSONField) throws(JSONFileError) {
            guard Double(rate) > 2 * fMax else {
                throw field.error(
                    .inconsistent(
                        key: field.key ?? "",
                        message: "\(rate) Hz is too low for frequencies up to \(JSONText.shortNumber(fMax)) Hz (a rate must be above twice maxFrequency)"))
            }
        }
        var allowed: [Int]?
        if let field = object["allowedSampleRates"] {
            var rates: [Int] = []
            for item in try field.array(count: 1...maxAllowedSampleRates, of: "sample rates in Hz") {
                let rate = try item.integer(in: sampleRateRange, unit: "Hz")
                guard !rates.contains(rate) else {
                    throw item.error(.inconsistent(key: "allowedSampleRates", message: "\(rate) Hz is listed twice"))
                }
                try checkBand(rate, at: item)
                rates.append(rate)
            }
            allowed = rates
        }
        var rate = allowed?.first ?? 48_000
        if let field = object["sampleRate"] {
            rate = try field.integer(in: sampleRateRange, unit: "Hz")
            if let allowed, !allowed.contains(rate) {
                let list = allowed.map { "\($0) Hz" }.joined(separator: ", ")
                throw field.error(.inconsistent(key: "sampleRate", message: "\(rate) Hz is not one of allowedSampleRates (\(list))"))
            }
            try checkBand(rate, at: field)
        }

        let profile = ActuatorProfile(
            name: name, minFrequency: fMin, maxFrequency: fMax, sampleRate: rate,
            allowedSampleRates: allowed, channelCount: channels,
            hapticChannels: hapticChannels.map { $0 - 1 }, gain: gain, intensityExponent: exponent)
        if let problem = profile.problem(withSampleRate: rate) {
            // Unreachable after the checks above; kept so that no profile file can ever carry
            // a rate the renderer refuses.
            throw (object["sampleRate"] ?? maxField).error(.inconsistent(key: "sampleRate", message: problem))
        }
        return profile
    }

    /// Resolves `--profile`: a built-in name or a path to a JSON file.
    public static func resolve(_ nameOrPath: String) throws(ProfileError) -> ActuatorProfile {
        if let builtIn = named(nameOrPath) { return builtIn }
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") || FileManager.default.fileExists(atPath: nameOrPath) {
            return try ActuatorProfile(contentsOf: URL(fileURLWithPath: nameOrPath))
        }
        throw .unknownProfile(name: nameOrPath, builtIn: builtIn.map(\.name))
    }
}
