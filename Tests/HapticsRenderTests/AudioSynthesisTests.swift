import Foundation
import HapticsCore
import HapticsTestSupport
import Testing
@testable import HapticsRender

/// Audio events rendered with `includingAudio`, measured on the samples (see ``AudioTimbre``).
@Suite("Audio events")
struct AudioSynthesisTests {
    let rate = 48_000.0
    /// Two channels, both carrying the (mono-copied) haptics: audio goes to 1 and 2.
    static let stereo = ActuatorProfile(name: "stereo", minFrequency: 60, maxFrequency: 300, channelCount: 2)

    func tone(
        at time: Double = 0, duration: Double = 1, volume: Double = 1, pitch: Double = 0, pan: Double = 0,
        brightness: Double = 0, extra: [HapticEvent.Parameter] = []
    ) -> HapticEvent {
        HapticEvent(
            .audioContinuous, at: time, duration: duration,
            parameters: [
                .init(.audioVolume, volume), .init(.audioPitch, pitch), .init(.audioPan, pan), .init(.audioBrightness, brightness),
            ] + extra)
    }

    /// Left and right channels of a render with audio on the two-channel profile.
    func stereoRender(_ pattern: HapticPattern) -> (left: [Float], right: [Float]) {
        let signal = HapticRenderer.render(pattern, profile: Self.stereo, includingAudio: true)
        return (signal.channel(0), signal.channel(1))
    }

    func monoRender(_ pattern: HapticPattern) -> [Float] {
        HapticRenderer.render(pattern, includingAudio: true).channel(0)
    }

    func samples(_ from: Double, _ to: Double) -> Range<Int> { Int(from * rate)..<Int(to * rate) }

    // MARK: AudioContinuous

    @Test("a tone's pitch follows AudioPitch over ±1 octave around 440 Hz")
    func tonePitch() {
        var previous = 0.0
        for pitch in [-1.0, -0.5, 0, 0.5, 1] {
            let x = monoRender(HapticPattern(events: [tone(pitch: pitch)]))
            let f = Signal.frequency(x, samples(0.1, 0.9), sampleRate: rate)
            let expected = 440 * pow(2, pitch)
            #expect(abs(f - expected) < expected * 0.002, "pitch \(pitch): \(f) Hz, expected \(expected)")
            #expect(f > previous)
            previous = f
        }
    }

    @Test("volume scales the tone's RMS linearly; at volume 1 a centred sine peaks at 0.5")
    func toneVolume() {
        let full = monoRender(HapticPattern(events: [tone(volume: 1)]))
        #expect(abs(Double(Signal.peak(full, samples(0.1, 0.9))) - 0.5) < 0.002)
        let reference = Signal.rms(full, samples(0.1, 0.9))
        for volume in [0.5, 0.25] {
            let x = monoRender(HapticPattern(events: [tone(volume: volume)]))
            let ratio = Signal.rms(x, samples(0.1, 0.9)) / reference
            #expect(abs(ratio - volume) < 0.002, "volume \(volume): RMS ratio \(ratio)")
        }
    }

    @Test("pan moves the tone between left and right with equal power")
    func tonePan() {
        var powers: [Double] = []
        for pan in [-1.0, -0.5, 0, 0.5, 1] {
            let (l, r) = stereoRender(HapticPattern(events: [tone(pan: pan)]))
            let left = Signal.rms(l, samples(0.1, 0.9))
            let right = Signal.rms(r, samples(0.1, 0.9))
            let theta = (pan + 1) * Double.pi / 4
            #expect(abs(left - 0.5 / 2.0.squareRoot() * cos(theta)) < 0.002, "pan \(pan): left RMS \(left)")
            #expect(abs(right - 0.5 / 2.0.squareRoot() * sin(theta)) < 0.002, "pan \(pan): right RMS \(right)")
            powers.append(left * left + right * right)
        }
        #expect(powers.allSatisfy { abs($0 - powers[0]) < 1e-3 * powers[0] }, "total power \(powers)")
        let (l, r) = stereoRender(HapticPattern(events: [tone(pan: -1)]))
        #expect(Signal.peak(r, r.indices) < 1e-6 && Signal.peak(l, l.indices) > 0.49)
    }

    @Test("brightness mixes the 2nd–4th harmonics in: none at 0, half the fundamental's 2nd at 1")
    func toneBrightness() {
        for brightness in [0.0, 0.5, 1.0] {
            let x = monoRender(HapticPattern(events: [tone(brightness: brightness)]))
            let range = samples(0.1, 0.9)
            let fundamental = Signal.magnitude(x, range, frequency: 440, sampleRate: rate)
            let second = Signal.magnitude(x, range, frequency: 880, sampleRate: rate)
            let third = Signal.magnitude(x, range, frequency: 1320, sampleRate: rate)
            let fifth = Signal.magnitude(x, range, frequency: 2200, sampleRate: rate)
            #expect(abs(second / fundamental - brightness / 2) < 0.002, "b \(brightness): 2nd/1st \(second / fundamental)")
            #expect(abs(third / fundamental - brightness / 3) < 0.002, "b \(brightness): 3rd/1st \(third / fundamental)")
            #expect(fifth / fundamental < 0.001, "band-limited: no 5th harmonic")
            #expect(Signal.peak(x, range) <= 0.5 + 1e-3, "the harmonics never raise the peak above the volume's")
        }
    }

    @Test("a tone's envelope follows the haptic rules: attack, release, not sustained")
    func toneEnvelope() {
        let attack = 0.5
        let t = HapticEnvelope.seconds(for: 0.5)
        let x = monoRender(HapticPattern(events: [tone(duration: t + 0.2, extra: [.init(.attackTime, attack), .init(.releaseTime, 0.3)])]))
        func level(_ s: Double) -> Double { Signal.amplitude(x, at: s, frequency: 440, sampleRate: rate) / 0.5 }
        #expect(abs(level(t / 2) - 0.5) < 0.02, "half the attack: \(level(t / 2))")
        #expect(abs(level(t + 0.1) - 1) < 0.01)
        let release = HapticEnvelope.seconds(for: 0.3)
        let end = Double(try! #require(Signal.lastNonZero(x, threshold: 1e-6))) / rate
        #expect(abs(end - (t + 0.2 + release)) < 0.0015, "ends at \(end)")
        #expect(abs(level(t + 0.2 + release / 2) - 0.5) < 0.03)
        // Not sustained: attack 5 ms then decay 160 ms, whatever the duration.
        let short = monoRender(HapticPattern(events: [tone(duration: 1, extra: [.init(.sustained, 0), .init(.decayTime, 0.5)])]))
        let shortEnd = Double(try! #require(Signal.lastNonZero(short, threshold: 1e-6))) / rate
        #expect(abs(shortEnd - (0.005 + HapticEnvelope.seconds(for: 0.5))) < 0.0015)
        #expect(Signal.maximumStep(x) < 0.07, "no clicks")
    }

    // MARK: AudioCustom

    /// A folder with `sine.wav`: 440 Hz at 44.1 kHz, amplitude 0.5, `seconds` long.
    func soundFolder(seconds: Double = 0.5, channels: Int = 1, encoding: TestWAV.Encoding = .f32) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        var samples = TestWAV.sine(frequency: 440, seconds: seconds, sampleRate: 44_100)
        if channels == 2 { samples = samples.flatMap { [$0, 0] } }
        try TestWAV.write(samples, channels: channels, sampleRate: 44_100, encoding: encoding, to: folder.file("sine.wav"))
        return folder
    }

    func custom(
        _ folder: TemporaryFolder, at time: Double = 0.1, duration: Double = 0, envelope: Bool? = false, loop: Bool? = nil,
        parameters: [HapticEvent.Parameter] = []
    ) -> HapticEvent {
        HapticEvent(
            .audioCustom, at: time, duration: duration, parameters: parameters,
            audio: .init(path: "sine.wav", usesVolumeEnvelope: envelope, loopEnabled: loop, directory: folder.url))
    }

    @Test("a sound file plays at its time, resampled from 44.1 to 48 kHz, as recorded, for its length")
    func customPlays() throws {
        let folder = try soundFolder()
        let x = monoRender(HapticPattern(events: [custom(folder)]))
        let onset = try #require(Signal.firstNonZero(x, threshold: 1e-5))
        #expect(onset >= 4800 && onset <= 4802, "onset \(onset)")
        #expect(abs(Signal.frequency(x, samples(0.15, 0.55), sampleRate: rate) - 440) < 0.3)
        #expect(abs(Signal.amplitude(x, at: 0.3, frequency: 440, sampleRate: rate) - 0.5) < 0.005)
        let end = Double(try #require(Signal.lastNonZero(x, threshold: 1e-4))) / rate
        #expect(abs(end - 0.6) < 0.001, "ends at \(end)")
        #expect(Signal.maximumStep(x) < 0.05)
    }

    @Test("AudioPitch changes a file's speed: +1 is an octave up and half as long")
    func customPitch() throws {
        let folder = try soundFolder()
        let x = monoRender(HapticPattern(events: [custom(folder, parameters: [.init(.audioPitch, 1)])]))
        #expect(abs(Signal.frequency(x, samples(0.12, 0.34), sampleRate: rate) - 880) < 0.6)
        let end = Double(try #require(Signal.lastNonZero(x, threshold: 1e-4))) / rate
        #expect(abs(end - 0.35) < 0.001, "ends at \(end)")
    }

    @Test("a looping file repeats for the event's duration; without looping it ends with the file")
    func customLoop() throws {
        let folder = try soundFolder(seconds: 0.1)
        let looped = monoRender(HapticPattern(events: [custom(folder, duration: 0.5, loop: true)]))
        let once = monoRender(HapticPattern(events: [custom(folder, duration: 0.5, loop: false)]))
        let loopEnd = Double(try #require(Signal.lastNonZero(looped, threshold: 1e-4))) / rate
        let onceEnd = Double(try #require(Signal.lastNonZero(once, threshold: 1e-4))) / rate
        #expect(abs(loopEnd - 0.6) < 0.0015, "looped sound ends at \(loopEnd)")
        #expect(abs(onceEnd - 0.2) < 0.001, "single play ends at \(onceEnd)")
        for t in [0.25, 0.35, 0.45, 0.55] {
            #expect(abs(Signal.amplitude(looped, at: t, frequency: 440, sampleRate: rate) - 0.5) < 0.01, "at \(t) s")
        }
        #expect(abs(Signal.frequency(looped, samples(0.12, 0.58), sampleRate: rate) - 440) < 0.3)
        #expect(Signal.maximumStep(looped) < 0.05, "the loop seam does not click")
    }

    @Test("with the volume envelope, the event's attack shapes the file; without, it plays at full level")
    func customEnvelope() throws {
        let folder = try soundFolder(seconds: 1)
        let t = HapticEnvelope.seconds(for: 0.5)
        let shaped = monoRender(HapticPattern(events: [custom(folder, duration: 0.5, envelope: true, parameters: [.init(.attackTime, 0.5)])]))
        let plain = monoRender(HapticPattern(events: [custom(folder, duration: 0.5, envelope: false, parameters: [.init(.attackTime, 0.5)])]))
        let defaulted = monoRender(HapticPattern(events: [custom(folder, duration: 0.5, envelope: nil, parameters: [.init(.attackTime, 0.5)])]))
        let at = 0.1 + t / 2
        #expect(abs(Signal.amplitude(shaped, at: at, frequency: 440, sampleRate: rate) - 0.25) < 0.01)
        #expect(abs(Signal.amplitude(plain, at: at, frequency: 440, sampleRate: rate) - 0.5) < 0.01)
        #expect(defaulted == shaped, "the envelope is on by default")
        // Cut by the duration: the plain file fades over 1 ms at 0.6 s; the shaped one releases over 5 ms.
        let plainEnd = Double(try #require(Signal.lastNonZero(plain, threshold: 1e-4))) / rate
        let shapedEnd = Double(try #require(Signal.lastNonZero(shaped, threshold: 1e-4))) / rate
        #expect(abs(plainEnd - 0.6) < 0.0012 && abs(shapedEnd - 0.605) < 0.0012, "ends \(plainEnd), \(shapedEnd)")
        #expect(Signal.maximumStep(plain) < 0.05)
    }

    @Test("a stereo file keeps its channels; volume, pan and brightness act on it")
    func customStereoAndParameters() throws {
        let folder = try soundFolder(channels: 2)
        let (l, r) = stereoRender(HapticPattern(events: [custom(folder)]))
        #expect(abs(Signal.amplitude(l, at: 0.3, frequency: 440, sampleRate: rate) - 0.5) < 0.005)
        #expect(Signal.peak(r, r.indices) < 1e-6)
        let (quiet, _) = stereoRender(HapticPattern(events: [custom(folder, parameters: [.init(.audioVolume, 0.5)])]))
        #expect(abs(Signal.rms(quiet, samples(0.15, 0.55)) / Signal.rms(l, samples(0.15, 0.55)) - 0.5) < 0.002)
        let (panned, _) = stereoRender(HapticPattern(events: [custom(folder, parameters: [.init(.audioPan, 0.5)])]))
        let theta = 1.5 * Double.pi / 4
        #expect(abs(Signal.rms(panned, samples(0.15, 0.55)) / Signal.rms(l, samples(0.15, 0.55)) - 2.0.squareRoot() * cos(theta)) < 0.002)
        // Brightness 0: a one-pole low-pass at 400 Hz takes 440 Hz down by about 3.3 dB.
        let (dark, _) = stereoRender(HapticPattern(events: [custom(folder, parameters: [.init(.audioBrightness, 0)])]))
        let ratio = Signal.rms(dark, samples(0.15, 0.55)) / Signal.rms(l, samples(0.15, 0.55))
        #expect(ratio > 0.6 && ratio < 0.75, "brightness 0 at 440 Hz: \(ratio)")
    }

    @Test("a missing sound file is one problem naming it, and its events are silent")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        let pattern = HapticPattern(events: [custom(folder, at: 0), custom(folder, at: 0.2), tone(at: 0.3, duration: 0.1)])
        let compiled = CompiledPattern(pattern, includingAudio: true)
        #expect(compiled.soundFileProblems.count == 1)
        let problem = try #require(compiled.soundFileProblems.first)
        #expect(problem.reason == .missing)
        #expect(problem.description == folder.file("sine.wav").path + ": sound file not found")
        let x = monoRender(pattern)
        #expect(Signal.firstNonZero(x) ?? 0 >= Int(0.3 * rate), "only the tone sounds")
        #expect(CompiledPattern(pattern).soundFileProblems.isEmpty, "files are read only when audio is compiled")
    }

    @Test("audio controls act on audio events only, haptic controls on haptic events only")
    func controlsSeparate() throws {
        // DualSense: audio on channels 1–2, haptics on 3–4.
        let events = [tone(duration: 1), HapticEvent.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5)]
        func levels(_ pattern: HapticPattern) -> (audio: Double, haptic: Double) {
            let signal = HapticRenderer.render(pattern, profile: .dualsense, includingAudio: true)
            return (Signal.rms(signal.channel(0), samples(0.6, 0.9)), Signal.rms(signal.channel(2), samples(0.6, 0.9)))
        }
        let plain = levels(HapticPattern(events: events))
        let volume = levels(HapticPattern(events: events, parameters: [HapticDynamicParameter(.audioVolumeControl, 0.5, at: 0.5)]))
        #expect(abs(volume.audio / plain.audio - 0.5) < 0.002 && volume.haptic == plain.haptic)
        let intensity = levels(HapticPattern(events: events, parameters: [HapticDynamicParameter(.hapticIntensityControl, 0.5, at: 0.5)]))
        #expect(abs(intensity.haptic / plain.haptic - 0.25) < 0.002 && intensity.audio == plain.audio)
        let pitch = HapticRenderer.render(
            HapticPattern(events: events, curves: [HapticParameterCurve(.audioPitchControl, at: 0.5, points: [(0, 1)])]),
            profile: .dualsense, includingAudio: true)
        #expect(abs(Signal.frequency(pitch.channel(0), samples(0.6, 0.9), sampleRate: rate) - 880) < 1)
        #expect(abs(Signal.frequency(pitch.channel(2), samples(0.6, 0.9), sampleRate: rate) - 175) < 0.5, "dualsense at sharpness 0.5: 175 Hz")
        let sharp = HapticRenderer.render(
            HapticPattern(events: events, parameters: [HapticDynamicParameter(.hapticSharpnessControl, 0.5, at: 0.5)]),
            profile: .dualsense, includingAudio: true)
        #expect(abs(Signal.frequency(sharp.channel(0), samples(0.6, 0.9), sampleRate: rate) - 440) < 0.5)
        let pan = HapticRenderer.render(
            HapticPattern(events: events, parameters: [HapticDynamicParameter(.audioPanControl, 1, at: 0)]),
            profile: .dualsense, includingAudio: true)
        #expect(Signal.rms(pan.channel(0), samples(0.1, 0.9)) < 1e-4 && Signal.rms(pan.channel(1), samples(0.1, 0.9)) > 0.3)
        let release = HapticRenderer.render(
            HapticPattern(events: events, parameters: [HapticDynamicParameter(.audioReleaseTimeControl, 0.5, at: 0)]),
            profile: .dualsense, includingAudio: true)
        let audioEnd = Double(try #require(Signal.lastNonZero(release.channel(0), threshold: 1e-6))) / rate
        let hapticEnd = Double(try #require(Signal.lastNonZero(release.channel(2), threshold: 1e-6))) / rate
        #expect(abs(audioEnd - (1 + HapticEnvelope.seconds(for: 0.5))) < 0.0015 && abs(hapticEnd - 1.005) < 0.0015)
    }

    @Test("where audio goes: DualSense speaker channels; added to 1–2 of a mono-copied stereo output; summed on mono")
    func placement() throws {
        let pattern = HapticPattern(events: [tone(duration: 0.5, pan: -1), .continuous(at: 0, duration: 0.5, intensity: 1, sharpness: 0)])
        let dualsense = HapticRenderer.render(pattern, profile: .dualsense, includingAudio: true)
        #expect(ActuatorProfile.dualsense.audioChannels == [0, 1])
        #expect(abs(Signal.frequency(dualsense.channel(0), samples(0.1, 0.4), sampleRate: rate) - 440) < 0.5)
        #expect(Signal.peak(dualsense.channel(1), dualsense.channel(1).indices) < 1e-6, "pan -1: nothing right")
        #expect(abs(Signal.frequency(dualsense.channel(2), samples(0.1, 0.4), sampleRate: rate) - 50) < 0.2, "haptics alone on 3")
        #expect(dualsense.channel(2) == dualsense.channel(3))
        let hapticOnly = HapticRenderer.render(pattern, profile: .dualsense)
        #expect(hapticOnly.channel(2) == dualsense.channel(2) && hapticOnly.channel(0).allSatisfy { $0 == 0 })

        let stereo = HapticRenderer.render(pattern, profile: Self.stereo, includingAudio: true)
        let haptic = HapticRenderer.render(pattern, profile: Self.stereo).channel(0)
        let left = zip(stereo.channel(0), haptic).map { $0 - $1 }
        let right = zip(stereo.channel(1), haptic).map { $0 - $1 }
        #expect(abs(Signal.amplitude(left, at: 0.25, frequency: 440, sampleRate: rate) - 0.5) < 0.005, "tone added on the left")
        #expect(Signal.peak(right, right.indices) < 1e-6)

        let mono = HapticRenderer.render(pattern, includingAudio: true).channel(0)
        let monoHaptic = HapticRenderer.render(pattern).channel(0)
        let audio = zip(mono, monoHaptic).map { $0 - $1 }
        // Hard left is cos 0 = 1 on the left, summed with 1/√2.
        #expect(abs(Signal.amplitude(audio, at: 0.25, frequency: 440, sampleRate: rate) - 0.5 / 2.0.squareRoot()) < 0.005)
    }

    @Test("audio output does not depend on how rendering is split into blocks")
    func blockSizeInvariance() throws {
        let folder = try soundFolder(seconds: 0.13, channels: 2)
        let pattern = HapticPattern(
            events: [
                tone(at: 0.01, duration: 0.3, pan: 0.3, brightness: 0.7, extra: [.init(.attackTime, 0.3)]),
                custom(folder, at: 0.05, duration: 0.4, envelope: true, loop: true, parameters: [.init(.audioBrightness, 0.4)]),
                .continuous(at: 0, duration: 0.3, intensity: 0.5, sharpness: 0.5),
            ],
            curves: [
                HapticParameterCurve(.audioPitchControl, at: 0.1, points: [(0, 0), (0.2, 0.7)]),
                HapticParameterCurve(.audioVolumeControl, at: 0.2, points: [(0, 1), (0.1, 0.3)]),
            ])
        let whole = HapticRenderer.render(pattern, profile: .dualsense, includingAudio: true).samples
        for blockFrames in [1, 7, 441, 1000] {
            let renderer = HapticRenderer(pattern: pattern, profile: .dualsense, includingAudio: true)
            var out: [Float] = []
            var block = [Float](repeating: 0, count: blockFrames * 4)
            while case let n = block.withUnsafeMutableBufferPointer({ renderer.render(into: $0) }), n > 0 {
                out += block[..<(n * 4)]
            }
            #expect(out == whole, "block of \(blockFrames) differs")
        }
        #expect(Signal.peak(whole, whole.indices) > 0.1)
    }

    @Test("a seek lands mid-file and mid-tone: after a 1 ms ramp the sound continues as if played through")
    func seekResumesMidEvent() throws {
        let folder = try soundFolder(seconds: 1)
        let pattern = CompiledPattern(
            HapticPattern(events: [
                custom(folder, at: 0.1, duration: 0.8, envelope: true, parameters: [.init(.audioPan, 1)]),
                tone(at: 0, duration: 1, pan: -1),
            ]), includingAudio: true)
        func run(seekingTo offset: Double?, frames: Int) -> (left: [Float], right: [Float]) {
            let synth = PatternSynth(pattern: pattern, profile: .wideband, sampleRate: rate)
            if let offset { synth.seek(to: offset) }
            var haptic = [Float](repeating: 0, count: frames)
            var left = haptic
            var right = haptic
            haptic.withUnsafeMutableBufferPointer { h in
                left.withUnsafeMutableBufferPointer { l in
                    right.withUnsafeMutableBufferPointer { r in
                        synth.render(adding: h.baseAddress!, audioLeft: l.baseAddress!, audioRight: r.baseAddress!, frames: frames)
                    }
                }
            }
            return (left, right)
        }
        let through = run(seekingTo: nil, frames: Int(0.7 * rate))
        let sought = run(seekingTo: 0.4, frames: Int(0.2 * rate))
        let skip = 96
        let start = Int(0.4 * rate)
        let fileError = (skip..<sought.right.count).map { abs(sought.right[$0] - through.right[start + $0]) }.max() ?? 1
        #expect(fileError < 2e-3, "file resumed at its place: largest difference \(fileError)")
        let toneRMS = Signal.rms(sought.left, skip..<sought.left.count)
        let throughRMS = Signal.rms(through.left, start..<(start + sought.left.count))
        #expect(abs(toneRMS - throughRMS) < 1e-3, "tone resumed at its level")
    }

    // MARK: Reading WAV files

    @Test("the reader decodes 16, 24 and 32-bit integer and 32-bit float, mono and stereo, plain and extensible")
    func readerFormats() throws {
        let source = TestWAV.sine(frequency: 1000, seconds: 0.01, sampleRate: 8000, amplitude: 0.9)
        for encoding in TestWAV.Encoding.allCases {
            for channels in [1, 2] {
                for extensible in [false, true] {
                    let interleaved = channels == 1 ? source : source.flatMap { [$0, -$0] }
                    let bytes = TestWAV.bytes(interleaved, channels: channels, sampleRate: 8000, encoding: encoding, extensible: extensible)
                    let clip = try bytes.withUnsafeBytes { try AudioClip.decode($0, name: "t.wav") }
                    #expect(clip.channelCount == channels && clip.sampleRate == 8000 && clip.frameCount == source.count)
                    let tolerance: Float = encoding == .s16 ? 1.0 / 16000 : 1e-6
                    let left = clip.channel(0)
                    #expect(zip(left, source).allSatisfy { abs($0 - $1) <= tolerance }, "\(encoding) \(channels) ch")
                    if channels == 2 {
                        #expect(zip(clip.channel(1), source).allSatisfy { abs($0 + $1) <= tolerance })
                    }
                }
            }
        }
    }

    @Test("malformed, unsupported, too large and missing files are errors naming the file")
    func readerErrors() throws {
        let folder = try TemporaryFolder()
        func load(_ name: String, _ bytes: [UInt8]?, limit: Int = AudioClip.defaultByteLimit) -> SoundFileError? {
            let url = folder.file(name)
            if let bytes { try? Data(bytes).write(to: url) }
            do {
                _ = try AudioClip.load(path: url.path, byteLimit: limit)
                return nil
            } catch { return error }
        }
        let path = folder.path
        let garbage = load("a.wav", Array("RIFF....not a wave file".utf8))
        #expect(garbage?.reason == .malformed && garbage?.description == "\(path)/a.wav: not a WAV file (no RIFF/WAVE header)")
        var eightBit = TestWAV.bytes([0, 0.5], channels: 1, sampleRate: 8000)
        eightBit[34] = 8
        // WAV encodings and layouts the reader does not decode itself go to libsndfile, which
        // does (more channels are mixed into stereo).
        #expect(load("b.wav", eightBit) == nil)
        let surround = TestWAV.bytes([0, 0, 0, 0, 0, 0], channels: 6, sampleRate: 48000)
        #expect(load("c.wav", surround) == nil)
        let text = load("f.aiff", Array("not a sound".utf8))
        #expect(
            text?.reason == .malformed && text?.description.hasPrefix("\(path)/f.aiff: not a sound file libsndfile reads") == true,
            "\(String(describing: text))")
        let big = load("d.wav", TestWAV.bytes([Float](repeating: 0.1, count: 1000), channels: 1, sampleRate: 8000), limit: 1000)
        #expect(big?.reason == .tooLarge && big?.description.hasPrefix("\(path)/d.wav: the sound file is 2044 bytes") == true)
        #expect(load("e.wav", nil)?.reason == .missing)
        #expect(load("", nil)?.reason == .unreadable, "a folder")
    }
}
