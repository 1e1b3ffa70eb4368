import Foundation
import Haptics
import HapticsFormats
import HapticsTestSupport
import Testing

@testable import HapticsService

/// Where a rendered signal sounds: runs of non-silent samples (gaps shorter than 2 ms joined),
/// as (start, end) in seconds.
func soundingRuns(_ pattern: HapticPattern, includingAudio: Bool = false) -> [(start: Double, end: Double)] {
    let signal = HapticRenderer.render(pattern, includingAudio: includingAudio)
    let samples = signal.channel(0)
    let rate = Double(signal.sampleRate)
    let gap = Int(0.002 * rate)
    var runs: [(Double, Double)] = []
    var start: Int?
    var last = -gap - 1
    for (index, sample) in samples.enumerated() where abs(sample) > 1e-4 {
        if index - last > gap {
            if let open = start { runs.append((Double(open) / rate, Double(last + 1) / rate)) }
            start = index
        }
        last = index
    }
    if let open = start { runs.append((Double(open) / rate, Double(last + 1) / rate)) }
    return runs
}

@Suite("Theme feedbacks become patterns the engine plays sample-accurately")
struct ThemePatternTests {
    @Test("a VibraPattern step is a continuous event of that strength and length; a 0 step is a pause")
    func steps() throws {
        let pattern = ThemePatterns.steps(magnitudes: [0.25, 0, 0.25], durations: [50, 250, 50])
        #expect(pattern.events.count == 2)
        #expect(pattern.events.map(\.kind) == [.continuous, .continuous])
        #expect(pattern.events.map(\.relativeTime) == [0, 0.3])
        #expect(pattern.events.map(\.duration) == [0.05, 0.05])
        #expect(pattern.events.allSatisfy { $0.value(of: .hapticIntensity) == 0.5 }, "magnitude 0.25 is intensity 0.5: amplitude intensity² = 0.25")
        let runs = soundingRuns(pattern)
        #expect(runs.count == 2)
        // Onsets land on their frame; each run lasts its step plus the envelope's short release.
        #expect(abs(runs[0].start) < 0.0005 && abs(runs[1].start - 0.3) < 0.0005, "\(runs)")
        #expect(runs.allSatisfy { $0.end - $0.start >= 0.05 && $0.end - $0.start < 0.07 }, "\(runs)")
    }

    @Test("steps of one magnitude side by side are one event, so nothing restarts between them")
    func equalStepsJoin() {
        let pattern = ThemePatterns.steps(magnitudes: [1, 1, 1, 0.5], durations: [10, 10, 10, 20])
        #expect(pattern.events.map(\.relativeTime) == [0, 0.03])
        #expect(pattern.events.map(\.duration) == [0.03, 0.02])
    }

    @Test("a short feedbackd tick (button-pressed's 0.2 for 7 ms) is felt for its 7 ms")
    func shortTick() {
        let runs = soundingRuns(ThemePatterns.steps(magnitudes: [0.2], durations: [7]))
        #expect(runs.count == 1)
        #expect(runs[0].start < 0.0005 && runs[0].end - runs[0].start >= 0.007 && runs[0].end - runs[0].start < 0.02, "\(runs)")
    }

    @Test("VibraRumble: count rumbles of duration/count − pause, each followed by the pause")
    func rumble() {
        let pattern = ThemePatterns.rumble(duration: 750, count: 3, pause: 100, magnitude: 1)
        #expect(pattern.events.map(\.relativeTime) == [0, 0.25, 0.5])
        #expect(pattern.events.allSatisfy { $0.duration == 0.15 && $0.value(of: .hapticIntensity) == 1 })
        let runs = soundingRuns(pattern)
        #expect(runs.count == 3)
        #expect(zip(runs, [0, 0.25, 0.5]).allSatisfy { abs($0.start - $1) < 0.0005 }, "\(runs)")
    }

    @Test("VibraRumble whose pause leaves no rumble plays one rumble of 1 s, as feedbackd does")
    func rumbleFallback() {
        let pattern = ThemePatterns.rumble(duration: 100, count: 2, pause: 60, magnitude: 0.5)
        #expect(pattern.events.count == 1)
        #expect(pattern.events.first?.duration == 1)
    }

    @Test("VibraPeriodic's fade-in is the event's attack: the signal grows over it, then holds")
    func periodicFadeIn() throws {
        let pattern = ThemePatterns.periodic(duration: 1000, magnitude: 1, fadeInTime: 500, fadeInLevel: 0)
        #expect(pattern.events.count == 1)
        let event = try #require(pattern.events.first)
        #expect(event.duration == 1)
        // 5 ms × 1000^v = 500 ms.
        #expect(abs(HapticEnvelope.seconds(for: event.value(of: .attackTime)) - 0.5) < 1e-9)
        let signal = HapticRenderer.render(pattern)
        let samples = signal.channel(0)
        let rate = signal.sampleRate
        let early = Signal.rms(samples, (rate / 20)..<(rate / 10))
        let middle = Signal.rms(samples, (rate * 3 / 10)..<(rate * 35 / 100))
        let held = Signal.rms(samples, (rate * 6 / 10)..<(rate * 9 / 10))
        #expect(early < middle && middle < held, "rising over the fade-in: \(early), \(middle), \(held)")
        let runs = soundingRuns(pattern)
        #expect(runs.count == 1 && runs[0].end >= 1 && runs[0].end < 1.05, "\(runs)")
    }

    @Test("a fade-in level already at the magnitude leaves no fade")
    func periodicFullFadeLevel() {
        let pattern = ThemePatterns.periodic(duration: 200, magnitude: 0.5, fadeInTime: 500, fadeInLevel: 0.5)
        #expect(pattern.events.first?.value(of: .attackTime) == 0)
    }

    @Test("max-haptic-strength caps a feedback's strength (amplitude) and leaves weaker ones alone")
    func maxStrength() throws {
        let folders = try ThemeFolders()
        try folders.system(
            "default",
            #"{ "name": "default", "profiles": [ { "name": "quiet", "feedbacks": [ { "event-name": "a", "type": "VibraPattern", "magnitudes": [1, 0.09], "durations": [20, 20] } ] } ] }"#
        )
        let feedback = try #require(try folders.load().feedbacks(for: "a", level: .quiet).first)
        let capped = try #require(feedback.pattern(maxHapticStrength: 0.25))
        #expect(capped.events.map { $0.value(of: .hapticIntensity) } == [0.5, 0.3])
        #expect(feedback.pattern(maxHapticStrength: 1) == feedback.pattern)
    }
}

@Suite("Sound feedbacks play the sound theme's file for its whole length")
struct ThemeSoundTests {
    @Test("a sound is found in the theme's stereo folder, else freedesktop's, else under a shorter name")
    func lookup() throws {
        var folders = try ThemeFolders()
        let rate = 8000
        let own = try TestWAV.write(
            TestWAV.sine(frequency: 440, seconds: 0.1, sampleRate: Double(rate)), sampleRate: rate, to: folders.folder.file("data/sounds/mine/stereo/bell.wav"))
        let fallback = try TestWAV.write(
            TestWAV.sine(frequency: 440, seconds: 0.1, sampleRate: Double(rate)), sampleRate: rate,
            to: folders.folder.file("data/sounds/freedesktop/stereo/message.wav"))
        folders.environment["HAPTICS_SOUND_THEME"] = "mine"
        let sounds = SoundTheme(environment: folders.environment)
        #expect(sounds.file(for: "bell") == own)
        #expect(sounds.file(for: "message-new-instant") == fallback, "message-new-instant → message-new → message")
        #expect(sounds.file(for: "phone-hangup") == nil)
        #expect(sounds.file(for: "../message") == nil)
    }

    @Test("a theme's index.theme Inherits= chain is searched before freedesktop")
    func inheritance() throws {
        var folders = try ThemeFolders()
        try folders.folder.write("data/sounds/phone/index.theme", "[Sound Theme]\nName=Phone\nInherits=base, other\n")
        try folders.folder.write("data/sounds/base/index.theme", "[Sound Theme]\nInherits=phone\n")
        let inherited = try TestWAV.write(
            TestWAV.sine(frequency: 440, seconds: 0.1, sampleRate: 8000), sampleRate: 8000, to: folders.folder.file("data/sounds/other/stereo/bell.wav"))
        try TestWAV.write(
            TestWAV.sine(frequency: 440, seconds: 0.1, sampleRate: 8000), sampleRate: 8000, to: folders.folder.file("data/sounds/freedesktop/stereo/bell.wav"))
        folders.environment["HAPTICS_SOUND_THEME"] = "phone"
        let sounds = SoundTheme(environment: folders.environment, askingDesktop: true)
        #expect(sounds.themes == ["phone", "base", "other", "freedesktop"], "a loop back to phone is followed once")
        #expect(sounds.file(for: "bell") == inherited)
    }

    @Test("a 1 s sound plays as 1 s of audio through the engine's audio path")
    func soundLength() throws {
        let folders = try ThemeFolders()
        let rate = 16000
        try TestWAV.write(
            TestWAV.sine(frequency: 300, seconds: 1, sampleRate: Double(rate)), sampleRate: rate,
            to: folders.folder.file("data/sounds/freedesktop/stereo/phone-incoming-call.wav"))
        try folders.system(
            "default",
            #"{ "name": "default", "profiles": [ { "name": "full", "feedbacks": [ { "event-name": "phone-incoming-call", "type": "Sound", "effect": "phone-incoming-call" } ] } ] }"#
        )
        let theme = try folders.load()
        #expect(theme.feedbacks(for: "phone-incoming-call", level: .quiet).isEmpty, "a full-section sound is not played at quiet")
        let sound = try #require(theme.feedbacks(for: "phone-incoming-call", level: .full).first)
        #expect(sound.kind == .sound && !sound.isHaptic)
        let pattern = try #require(sound.pattern)
        #expect(pattern.events.map(\.kind) == [.audioCustom])
        #expect(abs(pattern.duration - 1) < 0.001)
        let runs = soundingRuns(pattern, includingAudio: true)
        #expect(runs.count == 1)
        #expect(runs.first.map { $0.start < 0.001 && abs($0.end - 1) < 0.01 } == true, "\(runs)")
        #expect(soundingRuns(pattern).isEmpty, "no haptic drive from a sound")
    }

    @Test("a sound decoded again after it changed replaces its older decoding in the cache")
    func cacheReplacesChangedSounds() throws {
        let folders = try ThemeFolders()
        let sounds = SoundTheme(environment: folders.environment)
        let file = folders.folder.file("clip.wav")
        try TestWAV.write(TestWAV.sine(frequency: 200, seconds: 0.25, sampleRate: 8000), sampleRate: 8000, to: file)
        #expect(abs(try sounds.pattern(forFile: file.path).duration - 0.25) < 0.001)
        try TestWAV.write(TestWAV.sine(frequency: 200, seconds: 0.5, sampleRate: 8000), sampleRate: 8000, to: file)
        var info = stat()
        stat(file.path, &info)
        var times = [timespec(tv_sec: info.st_atim.tv_sec, tv_nsec: 0), timespec(tv_sec: info.st_mtim.tv_sec + 10, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, file.path, &times, 0) == 0, "a new modification time, as an edit a while later gives")
        #expect(abs(try sounds.pattern(forFile: file.path).duration - 0.5) < 0.001)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sounds.cacheDirectory).count == 1)
    }

    @Test("sounds the sound theme lacks have no pattern and one warning naming them all")
    func missingSound() throws {
        let folders = try ThemeFolders()
        try folders.system(
            "default",
            #"{ "name": "default", "profiles": [ { "name": "full", "feedbacks": [ { "event-name": "x", "type": "Sound", "effect": "no-such-sound" }, { "event-name": "y", "type": "Sound", "effect": "other-missing" } ] } ] }"#
        )
        let theme = try folders.load()
        #expect(theme.feedbacks(for: "x", level: .full).first?.pattern == nil)
        #expect(
            theme.warnings.count == 1
                && theme.warnings.first?.hasSuffix(
                    "2 sounds not in the sound theme 'freedesktop' (searched \(folders.folder.path("home/.local/share"))/sounds, \(folders.folder.path("data"))/sounds), silent: no-such-sound, other-missing"
                ) == true)
    }

    @Test(
        "the freedesktop theme's phone-incoming-call (Ogg Vorbis) plays for its real 1.46 s",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/share/sounds/freedesktop/stereo/phone-incoming-call.oga"),
            "needs sound-theme-freedesktop (scripts/install-dependencies.sh)"))
    func realSoundTheme() throws {
        var folders = try ThemeFolders()
        folders.environment["XDG_DATA_DIRS"] = "/usr/share"
        let sounds = SoundTheme(environment: folders.environment)
        let file = try #require(sounds.file(for: "phone-incoming-call"))
        #expect(file == "/usr/share/sounds/freedesktop/stereo/phone-incoming-call.oga")
        let pattern = try sounds.pattern(forFile: file)
        #expect(abs(pattern.duration - 1.4636) < 0.01)
        let runs = soundingRuns(pattern, includingAudio: true)
        #expect((runs.last?.end ?? 0) > 1.3, "\(runs)")
        // Decoded once: the second time reads the cached WAV.
        #expect(try sounds.pattern(forFile: file) == pattern)
    }

    @Test("the sound-file hint plays any sound file whole; a missing one is one clear line")
    func soundFileHint() throws {
        let folders = try ThemeFolders()
        let rate = 8000
        let file = try TestWAV.write(
            TestWAV.sine(frequency: 200, seconds: 0.25, sampleRate: Double(rate)), sampleRate: rate, to: folders.folder.file("clip.wav"))
        let pattern = try soundFilePattern(URL(fileURLWithPath: file), environment: folders.environment)
        #expect(abs(pattern.duration - 0.25) < 0.001)
        #expect {
            try soundFilePattern(folders.folder.file("nothing.ogg"), environment: folders.environment)
        } throws: { error in
            "\(error)" == "\(folders.folder.path("nothing.ogg")): no such sound file"
        }
    }
}
