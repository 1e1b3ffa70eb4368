import Foundation
import HapticsCore
import HapticsRender
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// Audio events in the real-time engine, measured on what it writes to the device.
@Suite("Engine audio events")
struct EngineAudioTests {
    let rate = 48_000.0

    /// Plays on a manual output for `profile`, `seconds` long; `before` runs before the engine
    /// starts (flags that take effect at start). Returns the interleaved samples.
    func capture(
        profile: ActuatorProfile = .dualsense, seconds: Double, before: (HapticEngine) -> Void = { _ in },
        _ body: (HapticEngine) throws -> Void
    ) throws -> [Float] {
        let output = TestOutput.manual(sampleRate: profile.sampleRate, channelCount: profile.channelCount)
        let engine = HapticEngine(configuration: .init(profile: profile)) { _, _, _ throws(AudioOutputError) in output }
        before(engine)
        try engine.start()
        try body(engine)
        let frames = Int(seconds * rate)
        output.advance(frames: frames)
        #expect(output.waitUntilWritten(frames: frames), "the audio thread stopped writing")
        output.release()
        engine.stop()
        return Array(output.samples.prefix(frames * profile.channelCount))
    }

    /// Shared by every test of the suite, for the whole run.
    static let temporaryFolder = try! TemporaryFolder()

    static let folder: URL = {
        let folder = temporaryFolder.url
        try! TestWAV.write(
            TestWAV.sine(frequency: 440, seconds: 0.2, sampleRate: 44_100), sampleRate: 44_100,
            to: folder.appendingPathComponent("sine.wav"))
        return folder
    }()

    /// Haptics, a tone and a sound file, with audio and haptic curves.
    static let pattern = HapticPattern(
        events: [
            .transient(at: 0, intensity: 0.8, sharpness: 0.3),
            .continuous(at: 0.05, duration: 0.3, intensity: 0.7, sharpness: 0.8, attack: 0.2, release: 0.3),
            HapticEvent(.audioContinuous, at: 0.02, duration: 0.3, parameters: [.init(.audioPan, -0.4), .init(.audioBrightness, 0.6)]),
            HapticEvent(
                .audioCustom, at: 0.123, duration: 0.35, parameters: [.init(.audioPitch, 0.3), .init(.audioBrightness, 0.5)],
                audio: .init(path: "sine.wav", loopEnabled: true, directory: folder)),
        ],
        curves: [
            HapticParameterCurve(.hapticIntensityControl, at: 0.1, points: [(0, 1), (0.1, 0.3)]),
            HapticParameterCurve(.audioVolumeControl, at: 0.15, points: [(0, 1), (0.2, 0.4)]),
            HapticParameterCurve(.audioPanControl, at: 0.2, points: [(0, 0), (0.1, 0.8)]),
        ])

    func channel(_ index: Int, _ x: [Float], _ count: Int) -> [Float] {
        stride(from: index, to: x.count, by: count).map { x[$0] }
    }

    @Test(
        "with audio events, what the engine plays equals the offline render with audio, sample for sample",
        arguments: [ActuatorProfile.dualsense, .wideband])
    func playEqualsRender(profile: ActuatorProfile) throws {
        let x = try capture(profile: profile, seconds: 1) { engine in
            let player = try engine.makePlayer(with: Self.pattern)
            #expect(player.soundFileProblems.isEmpty)
            try player.start(atTime: 0.0375)
            keep(player)
        }
        let offline = HapticRenderer.render(Self.pattern, profile: profile, includingAudio: true).samples
        let start = 1800 * profile.channelCount
        #expect(x[..<start].allSatisfy { $0 == 0 })
        let played = Array(x[start..<(start + offline.count)])
        let mismatch = zip(played, offline).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(mismatch == nil, "first difference at sample \(mismatch ?? -1)")
        #expect(x[(start + offline.count)...].allSatisfy { $0 == 0 })
        if profile == .dualsense {
            #expect(Signal.peak(channel(0, played, 4), 0..<offline.count / 4) > 0.1, "audio on channel 1")
        }
    }

    @Test("playsHapticsOnly silences audio events from the next start; playsAudioOnly silences haptics")
    func families() throws {
        let haptic = HapticRenderer.render(Self.pattern, profile: .dualsense).samples
        let both = HapticRenderer.render(Self.pattern, profile: .dualsense, includingAudio: true).samples
        let hapticsOnly = try capture(seconds: 1, before: { $0.playsHapticsOnly = true }) { engine in
            let player = try engine.makePlayer(with: Self.pattern)
            try player.start(atTime: 0.05)
            keep(player)
        }
        let start = 2400 * 4
        #expect(Array(hapticsOnly[start..<(start + haptic.count)]) == haptic, "haptic channels as rendered, audio channels silent")
        let audioOnly = try capture(seconds: 1, before: { $0.playsAudioOnly = true }) { engine in
            let player = try engine.makePlayer(with: Self.pattern)
            try player.start(atTime: 0.05)
            keep(player)
        }
        let audioStart = 2400 * 4
        let audio = Array(audioOnly[audioStart..<(audioStart + both.count)])
        #expect(channel(2, audio, 4).allSatisfy { $0 == 0 } && channel(3, audio, 4).allSatisfy { $0 == 0 })
        #expect(channel(0, audio, 4) == channel(0, both, 4) && channel(1, audio, 4) == channel(1, both, 4))
        // Set while running, the flag waits for the next start.
        let later = try capture(seconds: 0.5) { engine in
            engine.playsHapticsOnly = true
            let player = try engine.makePlayer(with: Self.pattern)
            try player.start(atTime: 0.01)
            keep(player)
        }
        #expect(Signal.peak(channel(0, later, 4), 0..<(later.count / 4)) > 0.1)
    }

    @Test("isMutedForAudio ramps audio to silence and back without touching haptics; isMutedForHaptics the reverse")
    func muting() throws {
        let pattern = HapticPattern(events: [
            .continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5),
            HapticEvent(.audioContinuous, at: 0, duration: 1, parameters: [.init(.audioBrightness, 0)]),
        ])
        let audioMuted = try capture(seconds: 1.2) { engine in
            let player = try engine.makePlayer(with: pattern)
            try player.start(atTime: 0.1)
            keep(player)
            // No clock runs before the output is let through: a mute sent now applies now.
            engine.isMutedForAudio = true
        }
        let speaker = channel(0, audioMuted, 4)
        let haptic = channel(2, audioMuted, 4)
        #expect(Signal.peak(speaker, speaker.indices) == 0, "muted before the start: no audio at all")
        #expect(Signal.rms(haptic, Int(0.3 * rate)..<Int(0.9 * rate)) > 0.3)

        let toggled = try capture(seconds: 1.2) { engine in
            let player = try engine.makePlayer(with: pattern)
            try player.start(atTime: 0.1)
            keep(player)
            engine.isMutedForHaptics = true
        }
        let toggledSpeaker = channel(0, toggled, 4)
        let toggledHaptic = channel(2, toggled, 4)
        #expect(Signal.peak(toggledHaptic, toggledHaptic.indices) == 0)
        #expect(abs(Signal.rms(toggledSpeaker, Int(0.3 * rate)..<Int(0.9 * rate)) - 0.25) < 0.01, "tone at 0.5 peak, pan centre: RMS 0.25")
        #expect(Signal.maximumStep(toggledSpeaker) < 0.05)
    }

    @Test("a muted-for-audio engine unmutes with a ramp; audio keeps its place")
    func unmuteRamp() throws {
        let pattern = HapticPattern(events: [HapticEvent(.audioContinuous, at: 0, duration: 1, parameters: [.init(.audioBrightness, 0)])])
        let output = TestOutput.manual(sampleRate: 48_000, channelCount: 4)
        let engine = HapticEngine(configuration: .init(profile: .dualsense)) { _, _, _ throws(AudioOutputError) in output }
        try engine.start()
        let player = try engine.makePlayer(with: pattern)
        try player.start(atTime: 0.05)
        engine.isMutedForAudio = true
        output.advance(frames: Int(0.3 * rate))
        #expect(output.waitUntilWritten(frames: Int(0.3 * rate)))
        engine.isMutedForAudio = false
        output.advance(frames: Int(0.5 * rate))
        #expect(output.waitUntilWritten(frames: Int(0.8 * rate)))
        output.release()
        engine.stop()
        let speaker = channel(0, output.samples, 4)
        let onset = try #require(speaker.firstIndex { $0 != 0 })
        #expect(onset >= Int(0.3 * rate) - 256, "silent while muted: first sound at \(onset)")
        #expect(abs(Signal.rms(speaker, (onset + 480)..<(onset + 24000)) - 0.25) < 0.01)
        #expect(Signal.maximumStep(speaker) < 0.05, "no click when unmuting")
        _ = player
    }

    @Test("sendParameters: audio controls act on audio events, haptic controls on haptic events")
    func runtimeControls() throws {
        let pattern = HapticPattern(events: [
            .continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5),
            HapticEvent(.audioContinuous, at: 0, duration: 1, parameters: [.init(.audioBrightness, 0)]),
        ])
        let x = try capture(seconds: 1.2) { engine in
            let player = try engine.makePlayer(with: pattern)
            try player.start(atTime: 0.1)
            try player.sendParameters([HapticDynamicParameter(.audioVolumeControl, 0.5)], atTime: 0.5)
            try player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, 0.5)], atTime: 0.8)
            try player.scheduleParameterCurve(HapticParameterCurve(.audioPitchControl, at: 0, points: [(0, 1)]), atTime: 0.9)
            keep(player)
        }
        let speaker = channel(0, x, 4)
        let haptic = channel(2, x, 4)
        func rms(_ y: [Float], _ a: Double, _ b: Double) -> Double { Signal.rms(y, Int(a * rate)..<Int(b * rate)) }
        #expect(abs(rms(speaker, 0.55, 0.75) / rms(speaker, 0.2, 0.45) - 0.5) < 0.005, "volume control halves audio")
        #expect(abs(rms(haptic, 0.55, 0.75) / rms(haptic, 0.2, 0.45) - 1) < 0.005, "and leaves haptics")
        #expect(abs(rms(haptic, 0.82, 0.95) / rms(haptic, 0.2, 0.45) - 0.25) < 0.005, "intensity control quarters haptics")
        #expect(abs(rms(speaker, 0.82, 0.88) / rms(speaker, 0.2, 0.45) - 0.5) < 0.005, "and leaves audio")
        #expect(abs(Signal.frequency(speaker, Int(0.92 * rate)..<Int(1.08 * rate), sampleRate: rate) - 880) < 1)
        #expect(abs(Signal.frequency(haptic, Int(0.92 * rate)..<Int(1.08 * rate), sampleRate: rate) - 175) < 0.5)
    }

    @Test("stop fades audio out with the haptics; pause holds it and resume continues")
    func stopAndPause() throws {
        let pattern = HapticPattern(events: [HapticEvent(.audioContinuous, at: 0, duration: 1, parameters: [.init(.audioBrightness, 0)])])
        let x = try capture(seconds: 1.2) { engine in
            let player = try engine.makeAdvancedPlayer(with: pattern)
            try player.start(atTime: 0.1)
            try player.pause(atTime: 0.3)
            try player.resume(atTime: 0.5)
            try player.stop(atTime: 0.8)
            keep(player)
        }
        let speaker = channel(0, x, 4)
        #expect(Signal.peak(speaker, Int(0.31 * rate)..<Int(0.5 * rate)) == 0, "paused")
        #expect(Signal.rms(speaker, Int(0.55 * rate)..<Int(0.79 * rate)) > 0.2, "resumed")
        let last = try #require(speaker.lastIndex { $0 != 0 })
        #expect(last >= Int(0.8 * rate) && last < Int(0.8 * rate) + 96, "stopped at \(last)")
        #expect(Signal.maximumStep(speaker) < 0.05)
    }

    @Test("a missing sound file is a problem the player reports; the rest of the pattern plays")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        let pattern = HapticPattern(events: [
            .transient(at: 0, intensity: 1, sharpness: 1),
            HapticEvent(.audioCustom, at: 0, duration: 0.2, audio: .init(path: "gone.wav", directory: folder.url)),
        ])
        var problems: [SoundFileError] = []
        let x = try capture(seconds: 0.3) { engine in
            let player = try engine.makePlayer(with: pattern)
            problems = player.soundFileProblems
            try player.start()
            keep(player)
        }
        #expect(problems.map(\.reason) == [.missing])
        #expect(problems.first?.path == folder.path("gone.wav"))
        #expect(Signal.peak(channel(2, x, 4), 0..<(x.count / 4)) > 0.9)
        #expect(channel(0, x, 4).allSatisfy { $0 == 0 })
    }
}
