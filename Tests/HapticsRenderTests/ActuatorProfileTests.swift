import Foundation
import HapticsCore
import HapticsTestSupport
import Testing
@testable import HapticsRender

/// Actuator profiles: the built-in table of the README, the intensity and sharpness mappings,
/// sample-rate checks, and custom profile files with their errors.
@Suite("Actuator profiles")
struct ActuatorProfileTests {
    /// Loads `text` as a profile file and returns the error it must raise.
    func loadError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (file: String, message: String) {
        let folder = try TemporaryFolder()
        let file = try folder.write("custom.json", text)
        let error = try #require(throws: ProfileError.self, sourceLocation: sourceLocation) {
            try ActuatorProfile(contentsOf: file)
        }
        #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
        return (file.path, error.description)
    }

    @Test(
        "the built-in profiles have the README's bands, rates and channels",
        arguments: [
            ("wideband", 60.0, 300.0, 1, [0]),
            ("lra", 140.0, 220.0, 1, [0]),
            ("dualsense", 50.0, 300.0, 4, [2, 3]),
            ("shaker", 25.0, 80.0, 1, [0]),
        ])
    func builtIns(name: String, minimum: Double, maximum: Double, channels: Int, haptic: [Int]) throws {
        let profile = try #require(ActuatorProfile.named(name))
        #expect(profile.name == name)
        #expect(profile.minFrequency == minimum)
        #expect(profile.maxFrequency == maximum)
        #expect(profile.sampleRate == 48_000)
        #expect(profile.channelCount == channels)
        #expect(profile.hapticChannels == haptic)
        #expect(profile.gain == 1)
        #expect(profile.intensityExponent == 2)
    }

    @Test("wideband is the default, first of the four built-ins; only dualsense restricts the rate")
    func builtInList() {
        #expect(ActuatorProfile.builtIn.map(\.name) == ["wideband", "lra", "dualsense", "shaker"])
        #expect(ActuatorProfile.dualsense.allowedSampleRates == [48_000])
        #expect(ActuatorProfile.builtIn.filter { $0.allowedSampleRates != nil }.map(\.name) == ["dualsense"])
    }

    @Test("sharpness maps linearly onto the band and is clamped to 0…1")
    func frequencyMapping() {
        for profile in ActuatorProfile.builtIn {
            let low = profile.minFrequency
            let high = profile.maxFrequency
            #expect(profile.frequency(sharpness: 0) == low)
            #expect(profile.frequency(sharpness: 0.5) == (low + high) / 2)
            #expect(profile.frequency(sharpness: 1) == high)
            #expect(profile.frequency(sharpness: -0.3) == low)
            #expect(profile.frequency(sharpness: 7) == high)
        }
        #expect(ActuatorProfile.wideband.frequency(sharpness: 0.25) == 120)
    }

    @Test("amplitude is intensity to the profile's exponent, with intensity clamped to 0…1")
    func amplitudeMapping() {
        let profile = ActuatorProfile.wideband
        #expect(profile.amplitude(intensity: 0) == 0)
        #expect(profile.amplitude(intensity: 0.5) == 0.25)
        #expect(profile.amplitude(intensity: 1) == 1)
        #expect(profile.amplitude(intensity: -2) == 0)
        #expect(profile.amplitude(intensity: 1.5) == 1)
        let cubic = ActuatorProfile(name: "cubic", minFrequency: 100, maxFrequency: 200, intensityExponent: 3)
        #expect(abs(cubic.amplitude(intensity: 0.5) - 0.125) < 1e-12)
        #expect(cubic.amplitude(intensity: 3) == 1)
        let root = ActuatorProfile(name: "root", minFrequency: 100, maxFrequency: 200, intensityExponent: 0.5)
        #expect(abs(root.amplitude(intensity: 0.25) - 0.5) < 1e-12)
    }

    @Test("dualsense takes 48000 Hz only and says so; 44100 Hz is refused")
    func dualsenseRates() {
        #expect(ActuatorProfile.dualsense.problem(withSampleRate: 48_000) == nil)
        let problem = ActuatorProfile.dualsense.problem(withSampleRate: 44_100)
        #expect(problem == "profile 'dualsense' supports only 48000 Hz")
    }

    @Test("other profiles take 8–192 kHz above twice their top frequency")
    func openRates() {
        #expect(ActuatorProfile.wideband.problem(withSampleRate: 500) == "sample rate must be between 8000 and 192000 Hz")
        #expect(ActuatorProfile.wideband.problem(withSampleRate: 192_001) != nil)
        for rate in [8_000, 44_100, 96_000, 192_000] {
            #expect(ActuatorProfile.wideband.problem(withSampleRate: rate) == nil, "\(rate)")
        }
        let high = ActuatorProfile(name: "high", minFrequency: 100, maxFrequency: 5_000)
        let problem = high.problem(withSampleRate: 8_000)
        #expect(problem?.contains("too low for frequencies up to 5000") == true, "\(problem ?? "nil")")
        #expect(high.problem(withSampleRate: 16_000) == nil)
    }

    @Test("a profile file with every key loads as written, channels 1-based in the file and 0-based in the profile")
    func fullFile() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "my.json",
            """
            {"name": "my-lra", "minFrequency": 150, "maxFrequency": 210, "sampleRate": 96000,
             "channels": 2, "hapticChannels": [2], "gain": 0.8, "intensityExponent": 1.5}
            """)
        let profile = try ActuatorProfile(contentsOf: file)
        #expect(
            profile
                == ActuatorProfile(
                    name: "my-lra", minFrequency: 150, maxFrequency: 210, sampleRate: 96_000,
                    channelCount: 2, hapticChannels: [1], gain: 0.8, intensityExponent: 1.5))
    }

    @Test("a minimal profile file takes its name from the file and defaults for the rest")
    func minimalFile() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("bass-coil.json", #"{"minFrequency": 30, "maxFrequency": 90}"#)
        let profile = try ActuatorProfile(contentsOf: file)
        #expect(profile.name == "bass-coil")
        #expect(profile.sampleRate == 48_000)
        #expect(profile.channelCount == 1)
        #expect(profile.hapticChannels == [0])
        #expect(profile.gain == 1)
        #expect(profile.intensityExponent == 2)
        #expect(profile.allowedSampleRates == nil)
    }

    @Test("the numbers 0 and 1 are numbers, not booleans")
    func zeroAndOneAreNumbers() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("edge.json", #"{"minFrequency": 1, "maxFrequency": 100, "channels": 1, "hapticChannels": [1], "gain": 0}"#)
        let profile = try ActuatorProfile(contentsOf: file)
        #expect(profile.minFrequency == 1)
        #expect(profile.channelCount == 1)
        #expect(profile.hapticChannels == [0])
        #expect(profile.gain == 0)
    }

    @Test("allowedSampleRates sets the default rate to its first entry and restricts the rate")
    func allowedRates() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("fixed.json", #"{"minFrequency": 50, "maxFrequency": 300, "allowedSampleRates": [44100, 48000]}"#)
        let profile = try ActuatorProfile(contentsOf: file)
        #expect(profile.sampleRate == 44_100)
        #expect(profile.problem(withSampleRate: 48_000) == nil)
        #expect(profile.problem(withSampleRate: 96_000) == "profile 'fixed' supports only 44100 Hz, 48000 Hz")
    }

    /// A profile file whose band is 60…300 Hz, with `extra` members after it (on line 4 on).
    static func profileText(min: String = "60", max: String = "300", _ extra: String = "") -> String {
        "{\n  \"minFrequency\": \(min),\n  \"maxFrequency\": \(max)" + (extra.isEmpty ? "" : ",\n  " + extra) + "\n}"
    }

    /// Loads `text`, whose `^` marks where the error must point, and checks the error is
    /// `file:line:column: expected`.
    func expectLocatedError(_ marked: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (text, line, column) = markedLocation(marked)
        let (file, message) = try loadError(text, sourceLocation: sourceLocation)
        #expect(message == "\(file):\(line):\(column): \(expected)", sourceLocation: sourceLocation)
    }

    @Test("a file that is not JSON names the file, line and column")
    func notJSON() throws {
        let (file, message) = try loadError("{ minFrequency: 1 ")
        #expect(message == "\(file):1:3: expected a key in double quotes, found 'm'")
    }

    @Test(
        "malformed JSON gets the same located syntax errors as an AHAP file",
        arguments: [
            "{ minFrequency: 1 ",
            "{\n  \"minFrequency\": 60,\n  \"maxFrequency\": 300,\n}",
            "{\"minFrequency\": 60, \"minFrequency\": 70, \"maxFrequency\": 300}",
            "{\"minFrequency\": 6e999, \"maxFrequency\": 300}",
            "{\"minFrequency\": NaN}",
            "{\"minFrequency\": 060}",
            "{\"name\": \"a\u{01}b\"}",
            "{\"name\": \"\\x\"}",
            "{\"minFrequency\": 60",
            "{\"minFrequency\": 60} 1",
            "",
            "\u{FEFF}",
        ])
    func syntaxMatchesAHAP(text: String) throws {
        let ahap = try #require(throws: AHAPError.self) { try AHAPDecoder(mode: .strict).decode(Data(text.utf8), source: "x") }
        let diagnostic = try #require(ahap.errors.first)
        let line = try #require(diagnostic.line)
        let column = try #require(diagnostic.column)
        let message = diagnostic.message.replacingOccurrences(of: "line \(line), column \(column): ", with: "")
        let (file, profileMessage) = try loadError(text)
        let place = diagnostic.location.isEmpty ? "" : diagnostic.location + ": "
        #expect(profileMessage == "\(file):\(line):\(column): \(place)\(message)")
        let error = try #require(throws: ProfileError.self) {
            try ActuatorProfile(json: Data(text.utf8), source: "x.json", defaultName: "x")
        }
        guard case .file(let failure) = error, case .syntax(let syntax) = failure.problem else {
            Issue.record("not a syntax error: \(error)")
            return
        }
        #expect(syntax == message)
        #expect(failure.line == line && failure.column == column)
    }

    @Test("a JSON value that is not an object names the file and where it is")
    func notAnObject() throws {
        let (file, message) = try loadError("[60, 300]")
        #expect(message == #"\#(file):1:1: expected a JSON object, like {"minFrequency": 60, "maxFrequency": 300}, got an array"#)
    }

    @Test("an unknown key is an error at the key, suggesting the nearest known key or listing them")
    func unknownKey() throws {
        let (file, message) = try loadError(#"{"minFrequency": 60, "maxFrequency": 300, "maxFrequncy": 250}"#)
        #expect(message == "\(file):1:43: maxFrequncy: unknown key (did you mean 'maxFrequency'?)")
        let (other, listed) = try loadError(#"{"minFrequency": 60, "maxFrequency": 300, "colour": "red"}"#)
        #expect(
            listed
                == "\(other):1:43: colour: unknown key (known: name, minFrequency, maxFrequency, sampleRate, allowedSampleRates, channels, hapticChannels, gain, intensityExponent)"
        )
    }

    @Test(
        "a missing frequency names the key, at the object",
        arguments: [
            (#"{"maxFrequency": 300}"#, "minFrequency: missing (Hz at sharpness 0)"),
            (#"{"minFrequency": 60}"#, "maxFrequency: missing (Hz at sharpness 1)"),
        ])
    func missingKey(text: String, expected: String) throws {
        let (file, message) = try loadError(text)
        #expect(message == "\(file):1:1: \(expected)")
    }

    @Test("maxFrequency below minFrequency names maxFrequency")
    func invertedBand() throws {
        try expectLocatedError(#"{"minFrequency": 200, "maxFrequency": ^100}"#, "maxFrequency: must not be below minFrequency (200 Hz)")
    }

    @Test(
        "a haptic channel outside 1…channels, or listed twice, is an error at that channel",
        arguments: [
            ("[^0]", "hapticChannels[0]: expected a number from 1 to 2, got 0"),
            ("[1, ^3]", "hapticChannels[1]: expected a number from 1 to 2, got 3"),
            ("[2, ^2]", "hapticChannels[1]: channel 2 is listed twice"),
            ("^[1, 2, 1]", "hapticChannels: has 3 items; at most 2 are allowed"),
        ])
    func hapticChannelOutOfRange(channels: String, expected: String) throws {
        try expectLocatedError(Self.profileText(#""channels": 2, "hapticChannels": \#(channels)"#), expected)
    }

    @Test("a gain outside 0…4 names gain and the range", arguments: ["-0.1", "4.5"])
    func gainOutOfRange(gain: String) throws {
        try expectLocatedError(Self.profileText(#""gain": ^\#(gain)"#), "gain: expected a number from 0 to 4, got \(gain)")
    }

    @Test(
        "an integer field given as 1.5 names the field and asks for a whole number",
        arguments: [
            (#""channels": ^1.5"#, "channels: expected a whole number from 1 to 32, got 1.5"),
            (#""sampleRate": ^48000.5"#, "sampleRate: expected a whole number from 8000 to 192000 Hz, got 48000.5"),
            (#""hapticChannels": [^1.5]"#, "hapticChannels[0]: expected a whole number from 1 to 1, got 1.5"),
            (#""allowedSampleRates": [48000, ^44100.5]"#, "allowedSampleRates[1]: expected a whole number from 8000 to 192000 Hz, got 44100.5"),
        ])
    func fractionalInteger(field: String, expected: String) throws {
        try expectLocatedError(Self.profileText(field), expected)
    }

    @Test(
        "a wrongly typed value names the key and what it takes",
        arguments: [
            (#""gain": ^"loud""#, #"gain: expected a number from 0 to 4, got "loud""#),
            (#""channels": ^true"#, "channels: expected a whole number from 1 to 32, got true"),
            (#""name": ^7"#, "name: expected a non-empty string of at most 64 characters, got 7"),
            (#""name": ^"""#, #"name: expected a non-empty string of at most 64 characters, got """#),
            (#""hapticChannels": ^[]"#, "hapticChannels: expected a non-empty array of channel numbers from 1 to 1, got an empty array"),
            (#""allowedSampleRates": ^48000"#, "allowedSampleRates: expected a non-empty array of sample rates in Hz, got 48000"),
            (#""intensityExponent": ^null"#, "intensityExponent: expected a number from 0.5 to 4, got null"),
        ])
    func wrongType(field: String, expected: String) throws {
        try expectLocatedError(Self.profileText(field), expected)
    }

    @Test("a sample rate outside 8000…192000 Hz names sampleRate and the range")
    func impossibleRate() throws {
        try expectLocatedError(Self.profileText(#""sampleRate": ^500"#), "sampleRate: expected a number from 8000 to 192000 Hz, got 500")
    }

    @Test(
        "allowedSampleRates of -1, 0, 1 or 999999999 (which crashed the WAV writer) is a located error",
        arguments: [
            -1, 0, 1, 999_999_999,
        ])
    func crashingRates(rate: Int) throws {
        let marked = "{\n  \"minFrequency\": 60,\n  \"maxFrequency\": 300,\n  \"allowedSampleRates\": [^\(rate)]\n}"
        try expectLocatedError(marked, "allowedSampleRates[0]: expected a number from 8000 to 192000 Hz, got \(rate)")
        let error = try #require(throws: ProfileError.self) {
            try ActuatorProfile(json: Data(markedLocation(marked).text.utf8), source: "rates.json", defaultName: "rates")
        }
        let expected = JSONFileError(
            file: "rates.json", line: 4, column: 26, path: "allowedSampleRates[0]",
            .outOfRange(key: "allowedSampleRates", value: Double(rate), range: 8_000...192_000, unit: "Hz"))
        #expect(error == .file(expected))
    }

    @Test(
        "every number of a profile file is range-checked, with the file, line, column and key",
        arguments: [
            (profileText(min: "^0"), "minFrequency: expected a number from 1 to 20000 Hz, got 0"),
            (profileText(min: "^-5"), "minFrequency: expected a number from 1 to 20000 Hz, got -5"),
            (profileText(min: "^30000", max: "40000"), "minFrequency: expected a number from 1 to 20000 Hz, got 30000"),
            (profileText(max: "^25000"), "maxFrequency: expected a number from 1 to 20000 Hz, got 25000"),
            (profileText(max: "^0"), "maxFrequency: expected a number from 1 to 20000 Hz, got 0"),
            (profileText(#""sampleRate": ^7999"#), "sampleRate: expected a number from 8000 to 192000 Hz, got 7999"),
            (profileText(#""sampleRate": ^192001"#), "sampleRate: expected a number from 8000 to 192000 Hz, got 192001"),
            (profileText(#""sampleRate": ^-1"#), "sampleRate: expected a number from 8000 to 192000 Hz, got -1"),
            (profileText(#""sampleRate": ^0"#), "sampleRate: expected a number from 8000 to 192000 Hz, got 0"),
            (profileText(#""sampleRate": ^1e300"#), "sampleRate: expected a number from 8000 to 192000 Hz, got 1e+300"),
            (
                profileText(max: "9000", #""sampleRate": ^16000"#),
                "sampleRate: 16000 Hz is too low for frequencies up to 9000 Hz (a rate must be above twice maxFrequency)"
            ),
            (
                profileText(max: "5000", #""allowedSampleRates": [48000, ^8000]"#),
                "allowedSampleRates[1]: 8000 Hz is too low for frequencies up to 5000 Hz (a rate must be above twice maxFrequency)"
            ),
            (profileText(#""allowedSampleRates": [48000, ^48000]"#), "allowedSampleRates[1]: 48000 Hz is listed twice"),
            (
                profileText(#""allowedSampleRates": ^[\#((0..<17).map { String(8_000 + $0) }.joined(separator: ", "))]"#),
                "allowedSampleRates: has 17 items; at most 16 are allowed"
            ),
            (
                profileText(#""allowedSampleRates": [48000], "sampleRate": ^44100"#),
                "sampleRate: 44100 Hz is not one of allowedSampleRates (48000 Hz)"
            ),
            (profileText(#""channels": ^0"#), "channels: expected a number from 1 to 32, got 0"),
            (profileText(#""channels": ^33"#), "channels: expected a number from 1 to 32, got 33"),
            (profileText(#""channels": ^-1"#), "channels: expected a number from 1 to 32, got -1"),
            (profileText(#""channels": 4, "hapticChannels": [^5]"#), "hapticChannels[0]: expected a number from 1 to 4, got 5"),
            (profileText(#""gain": ^1e300"#), "gain: expected a number from 0 to 4, got 1e+300"),
            (profileText(#""intensityExponent": ^0.4"#), "intensityExponent: expected a number from 0.5 to 4, got 0.4"),
            (profileText(#""intensityExponent": ^4.1"#), "intensityExponent: expected a number from 0.5 to 4, got 4.1"),
            (profileText(#""intensityExponent": ^-2"#), "intensityExponent: expected a number from 0.5 to 4, got -2"),
            (
                profileText(#""name": ^"\#(String(repeating: "n", count: 65))""#),
                #"name: expected a non-empty string of at most 64 characters, got "\#(String(repeating: "n", count: 40))…""#
            ),
            (
                profileText(#""name": ^"tab\there""#),
                "name: expected a non-empty string of at most 64 characters without control characters, got \"tab\\there\""
            ),
        ])
    func everyFieldRangeChecked(marked: String, expected: String) throws {
        try expectLocatedError(marked, expected)
    }

    @Test("the bounds of every range are accepted")
    func boundsAccepted() throws {
        let low = try ActuatorProfile(
            json: Data(Self.profileText(min: "1", max: "1", #""sampleRate": 8000, "channels": 1, "gain": 0, "intensityExponent": 0.5"#).utf8),
            source: "low.json", defaultName: "low")
        #expect(low == ActuatorProfile(name: "low", minFrequency: 1, maxFrequency: 1, sampleRate: 8_000, gain: 0, intensityExponent: 0.5))
        let high = try ActuatorProfile(
            json: Data(
                Self.profileText(
                    min: "20000", max: "20000", #""allowedSampleRates": [192000], "channels": 32, "hapticChannels": [32, 1], "gain": 4, "intensityExponent": 4"#
                ).utf8),
            source: "high.json", defaultName: "high")
        #expect(
            high
                == ActuatorProfile(
                    name: "high", minFrequency: 20_000, maxFrequency: 20_000, sampleRate: 192_000, allowedSampleRates: [192_000],
                    channelCount: 32, hapticChannels: [31, 0], gain: 4, intensityExponent: 4))
    }

    @Test("a missing file names the file")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("absent.json").path
        let error = try #require(throws: ProfileError.self) { try ActuatorProfile.resolve(path) }
        #expect(error == .file(JSONFileError(file: path, .noSuchFile)))
        #expect(error.description == "\(path): no such file")
    }

    @Test("a device, a pipe or a folder is not read: the error says it is not a regular file, at once")
    func notARegularFile() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("pipe.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [("/dev/zero", "a character device"), (fifo, "a pipe"), (folder.url.path, "a directory")] {
            let start = ContinuousClock.now
            let error = try #require(throws: ProfileError.self) { try ActuatorProfile(contentsOf: URL(fileURLWithPath: path)) }
            #expect(error.description == "\(path): not a regular file (\(kind))")
            #expect(error == .file(JSONFileError(file: path, .notARegularFile(kind: kind))))
            #expect(ContinuousClock.now - start < .seconds(1))
        }
    }

    @Test("a file over 1 MiB is refused by its size, without being read")
    func oversizedFile() throws {
        let folder = try TemporaryFolder()
        let huge = try folder.write("huge.json", "")
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 100 << 20)
        try handle.close()
        let start = ContinuousClock.now
        let error = try #require(throws: ProfileError.self) { try ActuatorProfile(contentsOf: huge) }
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(error.description == "\(huge.path): larger than 1 MiB (104857600 bytes)")
        #expect(error == .file(JSONFileError(file: huge.path, .fileTooLarge(size: 100 << 20, limit: 1 << 20))))

        let padded = try folder.write("padded.json", Self.profileText() + String(repeating: " ", count: 1 << 20))
        let paddedError = try #require(throws: ProfileError.self) { try ActuatorProfile(contentsOf: padded) }
        #expect(paddedError.description == "\(padded.path): larger than 1 MiB (\((1 << 20) + Self.profileText().utf8.count) bytes)")
        let exact = try folder.write("exact.json", Self.profileText() + String(repeating: " ", count: (1 << 20) - Self.profileText().utf8.count))
        #expect(try ActuatorProfile(contentsOf: exact).maxFrequency == 300, "exactly 1 MiB is read")
    }

    @Test("errors name the file as given: a relative path stays relative")
    func relativeName() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("bad.json", Self.profileText(#""gain": 9"#))
        let base = URL(fileURLWithPath: folder.url.path, isDirectory: true)
        let error = try #require(throws: ProfileError.self) {
            try ActuatorProfile(contentsOf: URL(fileURLWithPath: "bad.json", relativeTo: base))
        }
        #expect(error.description == "bad.json:4:11: gain: expected a number from 0 to 4, got 9")
    }

    @Test("resolve takes a built-in name in any case, or a path to a file")
    func resolveNameAndPath() throws {
        #expect(try ActuatorProfile.resolve("lra") == .lra)
        #expect(try ActuatorProfile.resolve("DualSense") == .dualsense)
        let folder = try TemporaryFolder()
        let file = try folder.write("coil.json", #"{"minFrequency": 40, "maxFrequency": 120}"#)
        let profile = try ActuatorProfile.resolve(file.path)
        #expect(profile.name == "coil")
        #expect(profile.minFrequency == 40 && profile.maxFrequency == 120)
    }

    @Test("resolving an unknown name lists the built-in profiles")
    func resolveUnknown() throws {
        let error = try #require(throws: ProfileError.self) { try ActuatorProfile.resolve("nope") }
        #expect(error.description == "nope: no such profile (built-in: wideband, lra, dualsense, shaker; or give a path to a JSON file)")
    }
}
