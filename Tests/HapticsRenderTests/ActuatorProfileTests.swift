import Foundation
import Testing
@testable import HapticsRender

/// Actuator profiles: the built-in table of the README, the intensity and sharpness mappings,
/// sample-rate checks, and custom profile files with their errors.
@Suite("Actuator profiles")
struct ActuatorProfileTests {
    /// A folder of profile files, removed when the test's value goes away.
    final class Folder {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("haptics-profile-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }

        func write(_ name: String, _ text: String) throws -> URL {
            let file = url.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            return file
        }
    }

    /// Loads `text` as a profile file and returns the error it must raise.
    func loadError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (file: String, message: String) {
        let folder = try Folder()
        let file = try folder.write("custom.json", text)
        let error = try #require(throws: ProfileError.self, sourceLocation: sourceLocation) {
            try ActuatorProfile(contentsOf: file)
        }
        #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
        return (file.path, error.description)
    }

    @Test("the built-in profiles have the README's bands, rates and channels", arguments: [
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
            let low = profile.minFrequency, high = profile.maxFrequency
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
        let folder = try Folder()
        let file = try folder.write("my.json", """
        {"name": "my-lra", "minFrequency": 150, "maxFrequency": 210, "sampleRate": 96000,
         "channels": 2, "hapticChannels": [2], "gain": 0.8, "intensityExponent": 1.5}
        """)
        let profile = try ActuatorProfile(contentsOf: file)
        #expect(profile == ActuatorProfile(name: "my-lra", minFrequency: 150, maxFrequency: 210, sampleRate: 96_000,
                                           channelCount: 2, hapticChannels: [1], gain: 0.8, intensityExponent: 1.5))
    }

    @Test("a minimal profile file takes its name from the file and defaults for the rest")
    func minimalFile() throws {
        let folder = try Folder()
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
        let folder = try Folder()
        let file = try folder.write("edge.json", #"{"minFrequency": 1, "maxFrequency": 100, "channels": 1, "hapticChannels": [1], "gain": 0}"#)
        let profile = try ActuatorProfile(contentsOf: file)
        #expect(profile.minFrequency == 1)
        #expect(profile.channelCount == 1)
        #expect(profile.hapticChannels == [0])
        #expect(profile.gain == 0)
    }

    @Test("allowedSampleRates sets the default rate to its first entry and restricts the rate")
    func allowedRates() throws {
        let folder = try Folder()
        let file = try folder.write("fixed.json", #"{"minFrequency": 50, "maxFrequency": 300, "allowedSampleRates": [44100, 48000]}"#)
        let profile = try ActuatorProfile(contentsOf: file)
        #expect(profile.sampleRate == 44_100)
        #expect(profile.problem(withSampleRate: 48_000) == nil)
        #expect(profile.problem(withSampleRate: 96_000) == "profile 'fixed' supports only 44100 Hz, 48000 Hz")
    }

    @Test("a file that is not JSON names the file")
    func notJSON() throws {
        let (file, message) = try loadError("{ minFrequency: 1 ")
        #expect(message == "\(file): not valid JSON")
    }

    @Test("a JSON value that is not an object names the file")
    func notAnObject() throws {
        let (file, message) = try loadError("[60, 300]")
        #expect(message == "\(file): expected a JSON object")
    }

    @Test("an unknown key is an error naming the key and listing the known ones")
    func unknownKey() throws {
        let (file, message) = try loadError(#"{"minFrequency": 60, "maxFrequency": 300, "maxFrequncy": 250}"#)
        #expect(message.hasPrefix("\(file): maxFrequncy: unknown key (known keys: name, minFrequency, maxFrequency,"))
    }

    @Test("a missing frequency names the key", arguments: [
        (#"{"maxFrequency": 300}"#, "minFrequency"),
        (#"{"minFrequency": 60}"#, "maxFrequency"),
    ])
    func missingKey(text: String, key: String) throws {
        let (file, message) = try loadError(text)
        #expect(message.hasPrefix("\(file): \(key): missing"), "\(message)")
    }

    @Test("maxFrequency below minFrequency names maxFrequency")
    func invertedBand() throws {
        let (file, message) = try loadError(#"{"minFrequency": 200, "maxFrequency": 100}"#)
        #expect(message == "\(file): maxFrequency: must not be below minFrequency (200.0 Hz)")
    }

    @Test("a haptic channel outside 1…channels names hapticChannels", arguments: ["[0]", "[1, 3]"])
    func hapticChannelOutOfRange(channels: String) throws {
        let (file, message) = try loadError(#"{"minFrequency": 60, "maxFrequency": 300, "channels": 2, "hapticChannels": \#(channels)}"#)
        #expect(message.hasPrefix("\(file): hapticChannels: channel "), "\(message)")
        #expect(message.hasSuffix(" is outside 1…2"), "\(message)")
    }

    @Test("a gain outside 0…4 names gain", arguments: ["-0.1", "4.5"])
    func gainOutOfRange(gain: String) throws {
        let (file, message) = try loadError(#"{"minFrequency": 60, "maxFrequency": 300, "gain": \#(gain)}"#)
        #expect(message == "\(file): gain: must be 0…4")
    }

    @Test("an integer field given as 1.5 names the field", arguments: [
        (#""channels": 1.5"#, "channels"),
        (#""sampleRate": 48000.5"#, "sampleRate"),
        (#""hapticChannels": [1.5]"#, "hapticChannels"),
        (#""allowedSampleRates": [48000, 44100.5]"#, "allowedSampleRates"),
    ])
    func fractionalInteger(field: String, key: String) throws {
        let (file, message) = try loadError(#"{"minFrequency": 60, "maxFrequency": 300, \#(field)}"#)
        #expect(message.hasPrefix("\(file): \(key): expected "), "\(message)")
        #expect(message.contains("whole number"), "\(message)")
    }

    @Test("a wrongly typed value names the key", arguments: [
        (#""gain": "loud""#, "gain"),
        (#""channels": true"#, "channels"),
        (#""name": 7"#, "name"),
        (#""hapticChannels": []"#, "hapticChannels"),
    ])
    func wrongType(field: String, key: String) throws {
        let (file, message) = try loadError(#"{"minFrequency": 60, "maxFrequency": 300, \#(field)}"#)
        #expect(message.hasPrefix("\(file): \(key): expected "), "\(message)")
    }

    @Test("a sample rate the profile cannot render names sampleRate")
    func impossibleRate() throws {
        let (file, message) = try loadError(#"{"minFrequency": 60, "maxFrequency": 300, "sampleRate": 500}"#)
        #expect(message == "\(file): sampleRate: sample rate must be between 8000 and 192000 Hz")
    }

    @Test("a missing file names the file")
    func missingFile() throws {
        let folder = try Folder()
        let path = folder.url.appendingPathComponent("absent.json").path
        let error = try #require(throws: ProfileError.self) { try ActuatorProfile.resolve(path) }
        #expect(error.description.hasPrefix("\(path): cannot read the profile file"))
    }

    @Test("resolve takes a built-in name in any case, or a path to a file")
    func resolveNameAndPath() throws {
        #expect(try ActuatorProfile.resolve("lra") == .lra)
        #expect(try ActuatorProfile.resolve("DualSense") == .dualsense)
        let folder = try Folder()
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
