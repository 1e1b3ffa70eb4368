// The feedback manager's semantics without a bus: ids, end reasons, timeouts, levels, hints,
// clients, limits and Vibrate, on a fake output and a fake clock.
import Foundation
import Haptics
import HapticsTestSupport
import Testing

@testable import HapticsService

/// Records what the service plays and stops.
final class FakeFeedbackOutput: FeedbackOutput {
    struct Start {
        var pattern: HapticPattern
        var looping: Bool
        var strength: Double
        var token: Int
    }

    var hasHaptics = true
    var starts: [Start] = []
    var stops: [Int] = []
    var failure: (any Error)?

    func start(_ pattern: HapticPattern, looping: Bool, strength: Double, token: Int) throws {
        if let failure { throw failure }
        starts.append(Start(pattern: pattern, looping: looping, strength: strength, token: token))
    }

    func stop(token: Int) { stops.append(token) }

    /// Tokens started and not stopped.
    var playing: [Int] { starts.map(\.token).filter { !stops.contains($0) } }
}

final class FakeClock {
    var time = 100.0
}

/// A service on the built-in theme, a fake output and a fake clock.
struct ManagerUnderTest {
    let output = FakeFeedbackOutput()
    let clock = FakeClock()
    var lines: [String] { log.lines }
    private let log = Log()
    let service: FeedbackService

    final class Log { var lines: [String] = [] }

    init(settings: FeedbackSettings = FeedbackSettings(), limits: FeedbackLimits = .standard) {
        let clock = clock
        let log = log
        service = FeedbackService(
            theme: .builtIn, settings: settings, output: output, limits: limits, now: { clock.time },
            report: { log.lines.append($0) })
    }

    /// Takes the queued FeedbackEnded signals.
    func ended() -> [[UInt32]] {
        defer { service.endedFeedbacks.removeAll() }
        return service.endedFeedbacks.map { [$0.id, $0.reason.rawValue] }
    }
}

/// An event the built-in theme plays at the full level, and the lowest level it plays at.
func playableEvent() throws -> (name: String, lowest: FeedbackLevel) {
    let theme = FeedbackTheme.builtIn
    let name = "button-pressed"
    try #require(!theme.feedbacks(for: name, level: .full).isEmpty, "the built-in theme plays \(name) at full")
    let lowest = [FeedbackLevel.silent, .quiet, .full].first { !theme.feedbacks(for: name, level: $0).isEmpty }!
    return (name, lowest)
}

@Suite struct FeedbackServiceTests {
    @Test func idsStartAtOneAndOnlyIncrease() throws {
        let t = ManagerUnderTest()
        let event = try playableEvent().name
        var ids: [UInt32] = []
        for timeout: Int32 in [-1, 0, 3, -1] {
            ids.append(try t.service.trigger(appID: "app", event: event, timeout: timeout, sender: ":1.1"))
        }
        ids.append(try t.service.trigger(appID: "app", event: "no-such-event", timeout: -1, sender: ":1.1"))
        #expect(ids == [1, 2, 3, 4, 5])
    }

    @Test func emptyAppIDOrEventIsInvalidArgumentsAndTakesNoID() throws {
        let t = ManagerUnderTest()
        #expect(throws: FeedbackServiceError.invalidArguments("Invalid app id ")) {
            try t.service.trigger(appID: "", event: "button-pressed", timeout: -1, sender: ":1.1")
        }
        #expect(throws: FeedbackServiceError.invalidArguments("Invalid event ")) {
            try t.service.trigger(appID: "app", event: "", timeout: -1, sender: ":1.1")
        }
        #expect(try t.service.trigger(appID: "app", event: "no-such-event", timeout: -1, sender: ":1.1") == 1)
        #expect(t.output.starts.isEmpty)
    }

    @Test func eventTheThemeLacksEndsNotFoundAtOnce() throws {
        let t = ManagerUnderTest()
        let id = try t.service.trigger(appID: "app", event: "no-such-event", timeout: 0, sender: ":1.1")
        #expect(t.ended() == [[id, 0xFFFF_FFFF]])
        #expect(t.output.starts.isEmpty)
        #expect(t.service.runningIDs.isEmpty)
    }

    @Test func oneShotPlaysOnceAndEndsNaturallyWhenEveryPlaybackHasEnded() throws {
        let t = ManagerUnderTest()
        let id = try t.service.trigger(appID: "app", event: try playableEvent().name, timeout: -1, sender: ":1.1")
        #expect(!t.output.starts.isEmpty)
        #expect(t.output.starts.allSatisfy { !$0.looping })
        #expect(t.ended().isEmpty)
        let tokens = t.output.starts.map(\.token)
        for token in tokens.dropLast() { t.service.finished(token: token) }
        #expect(t.ended().isEmpty)
        t.service.finished(token: tokens.last!)
        #expect(t.ended() == [[id, 0]])
        t.service.finished(token: tokens.last!)
        #expect(t.ended().isEmpty, "a second report of the same end sends nothing")
    }

    @Test func timeoutBelowMinusOneIsOneShot() throws {
        let t = ManagerUnderTest()
        _ = try t.service.trigger(appID: "app", event: try playableEvent().name, timeout: -7, sender: ":1.1")
        #expect(t.output.starts.allSatisfy { !$0.looping })
        #expect(t.service.nextDeadline == nil)
    }

    @Test func endlessFeedbackLoopsUntilEndFeedbackThenEndsExplicitOnce() throws {
        let t = ManagerUnderTest()
        let id = try t.service.trigger(appID: "app", event: try playableEvent().name, timeout: 0, sender: ":1.1")
        #expect(t.output.starts.allSatisfy { $0.looping })
        #expect(t.service.nextDeadline == nil)
        t.clock.time += 3600
        t.service.expire()
        #expect(t.ended().isEmpty)
        t.service.end(id: id)
        #expect(t.ended() == [[id, 2]])
        #expect(t.output.playing.isEmpty, "every playback of the id was stopped")
        // The engine reports the stopped players afterwards; the id has ended already.
        for start in t.output.starts { t.service.finished(token: start.token) }
        t.service.end(id: id)
        #expect(t.ended().isEmpty)
    }

    @Test func timeoutOfNSecondsLoopsAndExpiresAtN() throws {
        let t = ManagerUnderTest()
        let id = try t.service.trigger(appID: "app", event: try playableEvent().name, timeout: 2, sender: ":1.1")
        #expect(t.output.starts.allSatisfy { $0.looping })
        #expect(t.service.nextDeadline == 102)
        t.clock.time = 101.999
        t.service.expire()
        #expect(t.ended().isEmpty)
        t.clock.time = 102
        t.service.expire()
        #expect(t.ended() == [[id, 1]])
        #expect(t.output.playing.isEmpty)
        #expect(t.service.nextDeadline == nil)
    }

    @Test func endFeedbackOfAnUnknownIDChangesNothing() throws {
        let t = ManagerUnderTest()
        let id = try t.service.trigger(appID: "app", event: try playableEvent().name, timeout: 0, sender: ":1.1")
        t.service.end(id: id + 100)
        #expect(t.ended().isEmpty)
        #expect(t.service.runningIDs == [id])
    }

    @Test func aClientLeavingEndsItsFeedbacksOnly() throws {
        let t = ManagerUnderTest()
        let event = try playableEvent().name
        let a1 = try t.service.trigger(appID: "a", event: event, timeout: 0, sender: ":1.1")
        let b = try t.service.trigger(appID: "b", event: event, timeout: 0, sender: ":1.2")
        let a2 = try t.service.trigger(appID: "a", event: event, timeout: 5, sender: ":1.1")
        t.service.clientVanished(":1.1")
        #expect(Set(t.ended().map { $0 }) == Set([[a1, 2], [a2, 2]]))
        #expect(t.service.runningIDs == [b])
        #expect(!t.service.hasFeedbacks(from: ":1.1"))
        #expect(t.service.hasFeedbacks(from: ":1.2"))
    }

    @Test func profileNamesSetTheLevelAndUnknownOnesAreIgnoredWithALine() throws {
        let t = ManagerUnderTest()
        #expect(t.service.level == .full)
        #expect(t.service.setProfile("quiet"))
        #expect(t.service.level == .quiet)
        #expect(!t.service.setProfile("quiet"), "the same profile is no change")
        #expect(!t.service.setProfile("loud"))
        #expect(t.service.level == .quiet)
        #expect(t.lines == ["invalid profile 'loud' ignored: the profiles are full, quiet and silent"])
    }

    @Test func loweringTheProfileEndsTheFeedbacksAboveIt() throws {
        let t = ManagerUnderTest()
        let id = try t.service.trigger(appID: "app", event: try playableEvent().name, timeout: 0, sender: ":1.1")
        t.service.setProfile("silent")
        #expect(t.ended() == [[id, 2]])
    }

    @Test func reloadedSettingsBringTheirProfileAndEndWhatIsAboveIt() throws {
        let t = ManagerUnderTest()
        let id = try t.service.trigger(appID: "app", event: try playableEvent().name, timeout: 0, sender: ":1.1")
        #expect(!t.service.replaceSettings(FeedbackSettings(profile: .full)), "the same profile is no change")
        #expect(t.service.replaceSettings(FeedbackSettings(profile: .silent, maxHapticStrength: 0.5)))
        #expect(t.service.level == .silent)
        #expect(t.service.settings.maxHapticStrength == 0.5)
        #expect(t.ended() == [[id, 2]])
    }

    @Test func silentProfileAndProfileHintLowerTheLevel() throws {
        let (event, lowest) = try playableEvent()
        try #require(lowest > .silent, "the built-in theme keeps \(event) out of the silent level")
        let t = ManagerUnderTest()
        let hinted = try t.service.trigger(
            appID: "app", event: event, hints: FeedbackHints(profile: "silent"), timeout: -1, sender: ":1.1")
        #expect(t.ended() == [[hinted, 0xFFFF_FFFF]])
        // An unknown profile hint is feedbackd's UNKNOWN level: nothing plays.
        let unknown = try t.service.trigger(
            appID: "app", event: event, hints: FeedbackHints(profile: "loud"), timeout: -1, sender: ":1.1")
        #expect(t.ended() == [[unknown, 0xFFFF_FFFF]])
        t.service.setProfile("silent")
        let muted = try t.service.trigger(appID: "app", event: event, timeout: -1, sender: ":1.1")
        #expect(t.ended() == [[muted, 0xFFFF_FFFF]])
        // A hint never raises the level above the global one.
        let raised = try t.service.trigger(
            appID: "app", event: event, hints: FeedbackHints(profile: "full"), timeout: -1, sender: ":1.1")
        #expect(t.ended() == [[raised, 0xFFFF_FFFF]])
        #expect(t.output.starts.isEmpty)
    }

    @Test func importantOverridesTheGlobalLevelOnlyForAllowedApps() throws {
        let (event, lowest) = try playableEvent()
        try #require(lowest > .silent)
        var settings = FeedbackSettings()
        settings.allowImportant = ["org.gnome.clocks"]
        let t = ManagerUnderTest(settings: settings)
        t.service.setProfile("silent")
        let allowed = try t.service.trigger(
            appID: "org.gnome.clocks", event: event, hints: FeedbackHints(important: true), timeout: -1, sender: ":1.1")
        #expect(t.ended().isEmpty)
        #expect(t.service.runningIDs == [allowed])
        let other = try t.service.trigger(
            appID: "org.example.Game", event: event, hints: FeedbackHints(important: true), timeout: -1, sender: ":1.1")
        #expect(t.ended() == [[other, 0xFFFF_FFFF]])
    }

    @Test func soundFileHintPlaysAtFullOnly() throws {
        let t = ManagerUnderTest()
        let folder = try TemporaryFolder()
        let sound = folder.file("ding.wav")
        _ = try TestWAV.write(TestWAV.sine(frequency: 440, seconds: 0.1, sampleRate: 48000), sampleRate: 48000, to: sound)
        let id = try t.service.trigger(
            appID: "app", event: "no-such-event", hints: FeedbackHints(soundFile: sound.path), timeout: -1, sender: ":1.1")
        #expect(t.output.starts.count == 1)
        #expect(t.output.starts.first?.pattern.counts.audioCustom == 1)
        #expect(t.ended().isEmpty)
        #expect(t.service.runningIDs == [id])
        t.service.setProfile("quiet")
        let quiet = try t.service.trigger(
            appID: "app", event: "no-such-event", hints: FeedbackHints(soundFile: sound.path), timeout: -1, sender: ":1.1")
        #expect(t.ended() == [[id, 2], [quiet, 0xFFFF_FFFF]])
    }

    @Test func maxHapticStrengthScalesHapticFeedbacks() throws {
        var settings = FeedbackSettings()
        settings.maxHapticStrength = 0.25
        let t = ManagerUnderTest(settings: settings)
        _ = try t.service.trigger(appID: "app", event: try playableEvent().name, timeout: -1, sender: ":1.1")
        #expect(t.output.starts.allSatisfy { $0.strength == 0.25 })
    }

    @Test func perClientLimitIsALimitsExceededErrorAndOtherClientsGoOn() throws {
        let t = ManagerUnderTest(limits: FeedbackLimits(perClient: 3, players: 100, vibrateSteps: 10))
        let event = try playableEvent().name
        for _ in 0..<3 { _ = try t.service.trigger(appID: "app", event: event, timeout: 0, sender: ":1.1") }
        #expect {
            try t.service.trigger(appID: "app", event: event, timeout: 0, sender: ":1.1")
        } throws: { error in
            guard case .limitExceeded(let message) = error as? FeedbackServiceError else { return false }
            return message.contains("3 feedbacks of this client")
        }
        #expect(try t.service.trigger(appID: "other", event: event, timeout: 0, sender: ":1.2") == 4, "a refused call takes no id")
        // One ended, the client may start another.
        t.service.end(id: 1)
        #expect(try t.service.trigger(appID: "app", event: event, timeout: 0, sender: ":1.1") == 5)
    }

    @Test func globalPlayerLimitIsALimitsExceededErrorUntilPlayersEnd() throws {
        let event = try playableEvent().name
        let perEvent = FeedbackTheme.builtIn.feedbacks(for: event, level: .full).count
        let t = ManagerUnderTest(limits: FeedbackLimits(perClient: 1000, players: 2 * perEvent, vibrateSteps: 10))
        let first = try t.service.trigger(appID: "app", event: event, timeout: -1, sender: ":1.1")
        _ = try t.service.trigger(appID: "app", event: event, timeout: -1, sender: ":1.2")
        #expect {
            try t.service.trigger(appID: "app", event: event, timeout: -1, sender: ":1.3")
        } throws: { error in
            guard case .limitExceeded = error as? FeedbackServiceError else { return false }
            return true
        }
        #expect(t.ended().isEmpty, "a refused call sends no FeedbackEnded")
        for start in t.output.starts.prefix(perEvent) { t.service.finished(token: start.token) }
        #expect(t.ended() == [[first, 0]])
        #expect(throws: Never.self) { try t.service.trigger(appID: "app", event: event, timeout: -1, sender: ":1.3") }
    }

    @Test func outputFailureEndsTheEventNotFoundWithOneLine() throws {
        let t = ManagerUnderTest()
        t.output.failure = HapticError.engineNotRunning
        let event = try playableEvent().name
        let a = try t.service.trigger(appID: "app", event: event, timeout: -1, sender: ":1.1")
        let b = try t.service.trigger(appID: "app", event: event, timeout: -1, sender: ":1.1")
        #expect(t.ended() == [[a, 0xFFFF_FFFF], [b, 0xFFFF_FFFF]])
        #expect(t.lines.count == 1)
    }

    @Test func endAllEndsEveryIDExplicitAndStopsVibration() throws {
        let t = ManagerUnderTest()
        let event = try playableEvent().name
        let a = try t.service.trigger(appID: "app", event: event, timeout: 0, sender: ":1.1")
        let b = try t.service.trigger(appID: "app", event: event, timeout: 9, sender: ":1.2")
        #expect(t.service.vibrate(appID: "app", steps: [(1, 500)]))
        t.service.endAll()
        #expect(t.ended() == [[a, 2], [b, 2]])
        #expect(t.output.playing.isEmpty)
    }
}

@Suite struct FeedbackServiceVibrateTests {
    @Test func vibrateTakesMoreThanTenStepsAndClampsAsFeedbackd() throws {
        let t = ManagerUnderTest()
        let steps = (0..<25).map { (amplitude: $0 % 2 == 0 ? 1.5 : 0.0, milliseconds: UInt32(100)) } + [(amplitude: 0.5, milliseconds: 60_000)]
        #expect(t.service.vibrate(appID: "game", steps: steps))
        let pattern = try #require(t.output.starts.first?.pattern)
        #expect(pattern.events.count == 14, "13 steps of 25 vibrate, and the last")
        #expect(pattern.events.allSatisfy { $0.value(of: .hapticIntensity) <= 1 })
        #expect(pattern.events.last?.duration == 10, "a step lasts at most 10 s")
        #expect(pattern.events.last?.relativeTime == 2.5)
        #expect(t.output.starts.first?.looping == false)
    }

    @Test func vibrateReplacesTheLastAndAnEmptyPatternStopsIt() throws {
        let t = ManagerUnderTest()
        #expect(t.service.vibrate(appID: "game", steps: [(1, 1000)]))
        #expect(t.service.vibrate(appID: "game", steps: [(0.5, 1000)]))
        #expect(t.output.playing.count == 1)
        #expect(t.service.vibrate(appID: "game", steps: []))
        #expect(t.output.playing.isEmpty)
        #expect(t.ended().isEmpty, "Vibrate sends no FeedbackEnded")
    }

    @Test func vibrateIsFalseBelowQuietOrWithoutAHapticOutput() throws {
        let t = ManagerUnderTest()
        t.service.setProfile("silent")
        #expect(!t.service.vibrate(appID: "game", steps: [(1, 100)]))
        t.service.setProfile("quiet")
        #expect(t.service.vibrate(appID: "game", steps: [(1, 100)]))
        t.output.hasHaptics = false
        #expect(!t.service.vibrate(appID: "game", steps: [(1, 100)]))
    }

    @Test func vibrateLimitsItsStepsToTheDocumentedCount() throws {
        let t = ManagerUnderTest(limits: FeedbackLimits(perClient: 1, players: 10, vibrateSteps: 4))
        #expect(t.service.vibrate(appID: "game", steps: Array(repeating: (amplitude: 1.0, milliseconds: UInt32(10)), count: 9)))
        #expect(t.output.starts.first?.pattern.events.count == 4)
    }
}
