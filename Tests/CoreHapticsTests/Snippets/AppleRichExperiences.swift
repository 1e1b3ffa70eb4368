// After Apple's sample "Delivering Rich App Experiences with Haptics"
// (https://developer.apple.com/documentation/corehaptics/delivering-rich-app-experiences-with-haptics):
// patterns are loaded from AHAP files with `CHHapticPattern(contentsOf:)`, a sound is
// registered with `registerAudioResource` and played by an `AudioCustom` event beside a
// haptic tap, and a continuous "texture" loops in an advanced player whose playback rate
// follows the game. Scenes and sprites are removed; the folder stands in for the bundle.
import CoreHaptics
import HapticsTestSupport
import Testing

private final class RichHaptics {
    let resources: URL
    var engine: CHHapticEngine!
    var texturePlayer: CHHapticAdvancedPatternPlayer!
    var collisionPlayer: CHHapticPatternPlayer!
    var splashAudio: CHHapticAudioResourceID = 0

    init(resources: URL) { self.resources = resources }

    func createAndStartHapticEngine() throws {
        engine = try CHHapticEngine()
        engine.isAutoShutdownEnabled = true
        engine.stoppedHandler = { reason in
            print("Stop Handler: The engine stopped for reason: \(reason.rawValue)")
        }
        engine.resetHandler = {
            print("Reset Handler: Restarting the engine.")
            do {
                try self.engine.start()
            } catch {
                print("Failed to restart the engine: \(error)")
            }
        }
        try engine.start()
    }

    func loadPatterns() throws {
        // A looping texture read from an AHAP file.
        let textureURL = resources.appendingPathComponent("Texture.ahap")
        let texturePattern = try CHHapticPattern(contentsOf: textureURL)
        texturePlayer = try engine.makeAdvancedPlayer(with: texturePattern)
        texturePlayer.loopEnabled = true

        // A collision: a sharp tap with a registered splash sound.
        let audioURL = resources.appendingPathComponent("Splash.wav")
        splashAudio = try engine.registerAudioResource(audioURL, options: [CHHapticAudioResourceKeyUseVolumeEnvelope: true])
        let tap = CHHapticEvent(eventType: .hapticTransient, parameters: [
            CHHapticEventParameter(parameterID: .hapticIntensity, value: 1.0),
            CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.9),
        ], relativeTime: 0)
        let splash = CHHapticEvent(audioResourceID: splashAudio, parameters: [
            CHHapticEventParameter(parameterID: .audioVolume, value: 0.8),
        ], relativeTime: 0)
        collisionPlayer = try engine.makePlayer(with: try CHHapticPattern(events: [tap, splash], parameters: []))
    }

    func startTexture(speed: Float) throws {
        texturePlayer.playbackRate = speed
        try texturePlayer.start(atTime: CHHapticTimeImmediate)
    }

    func collide(at time: TimeInterval) throws {
        try collisionPlayer.start(atTime: time)
    }

    func stopTexture(at time: TimeInterval) throws {
        try texturePlayer.stop(atTime: time)
    }
}

@Suite("CoreHaptics snippet: Apple's rich app experiences")
struct AppleRichExperiencesTests {
    @Test("a texture from an AHAP file loops at twice its rate; a collision taps with its registered sound")
    func textureAndCollision() throws {
        let folder = try TemporaryFolder(prefix: "corehaptics")
        // Three soft ticks 0.1 s apart, a 0.3 s loop.
        try Data("""
        { "Version": 1.0, "Pattern": [
          { "Event": { "Time": 0.0, "EventType": "HapticTransient", "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.4 } ] } },
          { "Event": { "Time": 0.1, "EventType": "HapticTransient", "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.4 } ] } },
          { "Event": { "Time": 0.2, "EventType": "HapticTransient", "EventDuration": 0.1, "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.4 } ] } } ] }
        """.utf8).write(to: folder.file("Texture.ahap"))
        // A silent splash: a real sound file, which plays without masking the taps measured here.
        _ = try TestWAV.write([Float](repeating: 0, count: 4_800), sampleRate: 48_000, to: folder.file("Splash.wav"))

        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let haptics = RichHaptics(resources: folder.url)
            try haptics.createAndStartHapticEngine()
            try haptics.loadPatterns()
            let start = haptics.engine.currentTime + 0.2
            haptics.texturePlayer.playbackRate = 2
            try haptics.texturePlayer.start(atTime: start)
            try haptics.collide(at: start + 0.325)
            try haptics.stopTexture(at: start + 0.59)
            let x = try output.samples(seconds: start + 0.8)
            return Array(x[Int((start * 48_000).rounded())...])
        }
        let onsets = Taps.onsets(x)
        // At rate 2 the ticks come every 50 ms and the 0.3 s loop every 150 ms; the
        // collision lands between two ticks.
        #expect(onsets == [0, 2400, 4800, 7200, 9600, 12000, 14400, 15600, 16800, 19200, 21600, 24000, 26400], "onsets \(onsets)")
        let collision = try #require(onsets.firstIndex(of: 15600))
        #expect(Taps.peak(x, at: onsets[collision], length: 400) > 0.95, "the collision tap is at full strength")
        #expect(Taps.peak(x, at: 0, length: 400) < 0.2, "the texture ticks are soft (0.4²)")
    }
}
