import CoreHaptics
import Foundation
import HapticsTestSupport
import Testing

/// An AHAP file in a folder of its own, with an `AudioCustom` event playing `sound.wav` beside it.
private func ahapWithSound(_ folder: TemporaryFolder) throws -> URL {
    _ = try TestWAV.write(TestWAV.sine(frequency: 1_000, seconds: 0.2, sampleRate: 48_000), sampleRate: 48_000, to: folder.file("sound.wav"))
    return try folder.write(
        "boom.ahap",
        """
        { "Pattern": [ { "Event": { "Time": 0.0, "EventType": "AudioCustom", "EventWaveformPath": "sound.wav",
          "EventParameters": [ { "ParameterID": "AudioBrightness", "ParameterValue": 1 } ] } } ] }
        """)
}

/// What a player of `pattern` sends to the output's audio channel.
private func audioOf(_ pattern: CHHapticPattern) throws -> [Float] {
    let output = FileOutput()
    return try output.run { () throws -> [Float] in
        let engine = try CHHapticEngine()
        return try withExtendedLifetime(engine) {
            try engine.start()
            let player = try engine.makePlayer(with: pattern)
            try player.start(atTime: CHHapticTimeImmediate)
            _ = try output.samples(seconds: engine.currentTime + 0.4)
            let file = try WAVFile(contentsOf: output.url)
            let samples = file.bitsPerSample == 32 ? file.float32Samples : file.int16Samples.map { Float($0) / 32768 }
            return WAVFile.channel(output.profile.audioChannels[0], of: samples, channels: file.channelCount)
        }
    }
}

@Suite("CoreHaptics resolves relative EventWaveformPaths as iOS does")
struct WaveformPathTests {
    @Test("a dictionary's and AHAP data's relative sound paths are in the app's bundle, not the working directory")
    func dictionaryPathsAreInTheBundle() throws {
        let bundle = Bundle.main.resourceURL ?? Bundle.main.bundleURL
        let pattern = try CHHapticPattern(dictionary: [
            .pattern: [
                [
                    CHHapticPattern.Key.event: [
                        CHHapticPattern.Key.eventType: CHHapticEvent.EventType.audioCustom, .time: 0.0, .eventWaveformPath: "click.wav",
                    ] as [CHHapticPattern.Key: Any]
                ]
            ]
        ])
        let audio = try #require(pattern.hapticPattern.events.first?.audio)
        #expect(audio.resolvedPath == bundle.appendingPathComponent("click.wav").path)
        #expect(audio.resolvedPath != FileManager.default.currentDirectoryPath + "/click.wav")
    }

    @Test("a pattern read from an AHAP file exports its sound's path so that the dictionary plays the same sound from anywhere")
    func exportedPathsResolveTheSame() throws {
        let folder = try TemporaryFolder(prefix: "corehaptics-paths")
        let fromFile = try CHHapticPattern(contentsOf: try ahapWithSound(folder))
        let exported = try fromFile.exportDictionary()
        let events = try #require(exported[.pattern] as? [[CHHapticPattern.Key: Any]])
        let path = try #require((events.first?[.event] as? [CHHapticPattern.Key: Any])?[.eventWaveformPath] as? String)
        #expect(path == folder.file("sound.wav").path)
        // Read back (the working directory is not the AHAP file's folder), it plays the tone.
        let x = try audioOf(try CHHapticPattern(dictionary: exported))
        let onset = try #require(Signal.firstNonZero(x, threshold: 0.05), "the exported pattern was silent")
        #expect(abs(Signal.frequency(x, (onset + 1200)..<(onset + 7200), sampleRate: 48_000) - 1_000) < 10)
    }
}
