import Foundation
import HapticsCore
import HapticsRender
import HapticsTestSupport
import Testing

/// A pattern with haptics, a tone and a sound file (`sounds/sine.wav`, relative to the file).
let audioPattern = """
    { "Pattern": [
      { "Event": { "Time": 0, "EventType": "HapticTransient",
                   "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.9 } ] } },
      { "Event": { "Time": 0.02, "EventType": "AudioContinuous", "EventDuration": 0.2,
                   "EventParameters": [ { "ParameterID": "AudioVolume", "ParameterValue": 0.8 },
                                        { "ParameterID": "AudioPan", "ParameterValue": -0.5 } ] } },
      { "Event": { "Time": 0.1, "EventType": "AudioCustom", "EventWaveformPath": "sounds/sine.wav",
                   "EventWaveformLoopEnabled": true, "EventDuration": 0.25 } },
      { "ParameterCurve": { "ParameterID": "AudioPitchControl", "Time": 0.15,
                            "ParameterCurveControlPoints": [ { "Time": 0, "ParameterValue": 0 },
                                                             { "Time": 0.1, "ParameterValue": 0.5 } ] } }
    ] }
    """

/// `render --audio`, and how render and play report sound files they cannot play.
@Suite("audio events on the command line")
struct AudioCommandTests {
    func folderWithAudioPattern(
        sound: Data? = Data(
            TestWAV.bytes(
                TestWAV.sine(frequency: 440, seconds: 0.1, sampleRate: 44_100),
                channels: 1, sampleRate: 44_100))
    ) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let file = try folder.write("audio.ahap", audioPattern)
        _ = file
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("sounds"), withIntermediateDirectories: true)
        if let sound { try folder.write("sounds/sine.wav", sound) }
        return folder
    }

    @Test("render --audio writes the library's render with audio; without it, the haptic signal and a note", arguments: ["wideband", "dualsense"])
    func renderAudio(profile: String) async throws {
        let folder = try folderWithAudioPattern()
        let withAudio = try await HapticsProcess.run(
            ["render", "audio.ahap", "--profile", profile, "--audio", "--format", "f32", "-o", "-"],
            in: folder.url, timeout: .seconds(30))
        #expect(withAudio.status == 0)
        #expect(withAudio.errorOutput.isEmpty, "\(withAudio.errorOutput)")
        let pattern = try AHAPDecoder().decode(contentsOf: folder.url.appendingPathComponent("audio.ahap")).pattern
        let actuator = try #require(ActuatorProfile.named(profile))
        let expected = HapticRenderer.render(pattern, profile: actuator, includingAudio: true)
        #expect(try WAVFile(withAudio.stdout).float32Samples.map(\.bitPattern) == expected.samples.map(\.bitPattern))
        #expect(expected.statistics.audioPeak > 0.3, "the oracle has audio")

        let hapticOnly = try await HapticsProcess.run(
            ["render", "audio.ahap", "--profile", profile, "--format", "f32", "-o", "-"],
            in: folder.url, timeout: .seconds(30))
        #expect(hapticOnly.status == 0)
        #expect(hapticOnly.errorLines == ["audio.ahap: note: 2 audio events left out (add --audio to mix them in)"])
        let haptic = HapticRenderer.render(pattern, profile: actuator)
        #expect(try WAVFile(hapticOnly.stdout).float32Samples.map(\.bitPattern) == haptic.samples.map(\.bitPattern))
    }

    @Test("a missing sound file is one warning naming it, for render --audio and for play; the rest plays")
    func missingSoundFile() async throws {
        let folder = try folderWithAudioPattern(sound: nil)
        for arguments in [["render", "audio.ahap", "--audio", "-o", "out.wav"], ["play", "audio.ahap", "--device", "null"]] {
            let result = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(30))
            #expect(result.status == 0, "\(arguments): \(result.errorOutput)")
            #expect(result.errorLines.count == 1, "\(arguments): \(result.errorOutput)")
            #expect(result.errorLines.first?.contains("sound file 'sounds/sine.wav' not found") == true, "\(result.errorOutput)")
        }
    }

    @Test("a malformed sound file is one warning naming the file and the problem")
    func malformedSoundFile() async throws {
        let folder = try folderWithAudioPattern(sound: Data("RIFF0000JUNK".utf8))
        let path = folder.url.appendingPathComponent("sounds/sine.wav").path
        for arguments in [["render", "audio.ahap", "--audio", "-o", "out.wav"], ["play", "audio.ahap", "--device", "null"]] {
            let result = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(30))
            #expect(result.status == 0, "\(arguments): \(result.errorOutput)")
            #expect(
                result.errorLines == ["audio.ahap: warning: \(path): not a WAV file (no RIFF/WAVE header); its audio events are silent"],
                "\(arguments)")
        }
    }

    @Test("--audio with --rumble is a usage error; render --help explains --audio")
    func usage() async throws {
        let result = try await HapticsProcess.run(["render", "success", "--rumble", "--audio", "-o", "-"])
        #expect(result.status == 2)
        #expect(result.errorOutput.contains("--audio does not go with --rumble"))
        let help = try await HapticsProcess.run(["render", "--help"])
        #expect(help.output.contains("--audio") && help.output.contains("silent channels"))
        let playHelp = try await HapticsProcess.run(["play", "--help"])
        #expect(playHelp.output.contains("--haptics-only") && playHelp.output.contains("Audio events"))
    }
}
