// After Apple, "Playing a Custom Haptic Pattern from a File"
// (https://developer.apple.com/documentation/corehaptics/playing-a-custom-haptic-pattern-from-a-file):
// an AHAP file shipped with the app is played with `playPattern(from:)`. The app bundle is
// replaced by a folder the test writes the file into.
import CoreHaptics
import HapticsTestSupport
import Testing

private final class FilePlayingViewController {
    var engine: CHHapticEngine!
    let resources: URL

    init(resources: URL) { self.resources = resources }

    /// - Tag: PlayAHAP
    func playHapticsFile(named filename: String) {
        // If the device doesn't support Core Haptics, abort.
        if !CHHapticEngine.capabilitiesForHardware().supportsHaptics {
            return
        }

        // Express the path to the AHAP file before attempting to load it.
        let path = resources.appendingPathComponent(filename).appendingPathExtension("ahap").path
        guard FileManager.default.fileExists(atPath: path) else {
            return
        }

        do {
            // Start the engine in case it's idle.
            try engine.start()

            // Tell the engine to play a pattern.
            try engine.playPattern(from: URL(fileURLWithPath: path))

        } catch { // Engine startup errors
            print("An error occured playing \(filename): \(error).")
        }
    }
}

@Suite("CoreHaptics snippet: Apple's playing a pattern from a file")
struct ApplePlayingFromFileTests {
    @Test("playPattern(from:) plays the file's heartbeat: two taps 0.15 s apart, then a fading buzz")
    func heartbeat() throws {
        let folder = try TemporaryFolder(prefix: "corehaptics")
        // Written as AHAP files in the wild are: no Version, a trailing comma, integer values.
        try Data("""
        {
          "Pattern": [
            { "Event": { "Time": 0, "EventType": "HapticTransient",
                "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 1 } ] } },
            { "Event": { "Time": 0.15, "EventType": "HapticTransient",
                "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.6 } ] } },
            { "Event": { "Time": 0.4, "EventType": "HapticContinuous", "EventDuration": 0.3,
                "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 1 },
                                     { "ParameterID": "HapticSharpness", "ParameterValue": 0.5 } ] } },
            { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0.4,
                "ParameterCurveControlPoints": [ { "Time": 0, "ParameterValue": 1 }, { "Time": 0.3, "ParameterValue": 0 } ] } },
          ]
        }
        """.utf8).write(to: folder.file("Heartbeat.ahap"))

        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let controller = FilePlayingViewController(resources: folder.url)
            controller.engine = try CHHapticEngine()
            controller.playHapticsFile(named: "Heartbeat")
            return try withExtendedLifetime(controller) { try output.samples(seconds: 1) }
        }
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 3, "onsets \(onsets)")
        #expect(onsets[1] - onsets[0] == 7200)
        #expect(abs(onsets[2] - onsets[0] - 19200) <= 1, "a continuous event's sine starts at 0")
        #expect(abs(Taps.peak(x, at: onsets[1]) - 0.36) < 0.02)
        let start = Double(onsets[2]) / 48_000
        let early = Signal.amplitude(x, at: start + 0.05, frequency: 180, sampleRate: 48_000)
        let late = Signal.amplitude(x, at: start + 0.25, frequency: 180, sampleRate: 48_000)
        #expect(early > 0.45 && late < 0.05, "the curve fades the buzz: \(early) then \(late)")
    }
}
