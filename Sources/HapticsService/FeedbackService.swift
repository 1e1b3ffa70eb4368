// The feedback manager: feedbackd's semantics (ids, events, levels, timeouts, end reasons,
// clients, limits, Vibrate, Profile) over an output that plays patterns. It runs on one thread
// (the daemon's) and knows nothing of D-Bus: the bus layer hands it calls and sends what it
// queues in `endedFeedbacks`; tests drive it with a fake output and clock.
import FoundationEssentials
import HapticsCore

/// Why a feedback ended, as feedbackd's `FbdEventEndReason` (sent as `u` in `FeedbackEnded`).
package enum FeedbackEndReason: UInt32, Sendable, Equatable {
    /// The theme has nothing to play for the event (feedbackd's -1, sent as `u`).
    case notFound = 0xFFFF_FFFF
    /// Every feedback played its natural length.
    case natural = 0
    /// The timeout ran out.
    case expired = 1
    /// `EndFeedback`, the client leaving the bus, or the profile lowered.
    case explicit = 2
}

/// The `TriggerFeedback` hints feedbackd reads (each ignored when absent or of another type).
package struct FeedbackHints: Sendable, Equatable {
    /// `profile`: a lower level for this event (an unknown name plays nothing, as in feedbackd).
    package var profile: String?
    /// `important`: the global profile is ignored, for the apps the settings allow.
    package var important: Bool?
    /// `sound-file`: a sound that replaces the theme's at the `full` level.
    package var soundFile: String?

    package init(profile: String? = nil, important: Bool? = nil, soundFile: String? = nil) {
        self.profile = profile
        self.important = important
        self.soundFile = soundFile
    }
}

/// A call the service refuses, with the D-Bus error it becomes.
package enum FeedbackServiceError: Error, Equatable, CustomStringConvertible {
    /// `org.freedesktop.DBus.Error.InvalidArgs`
    case invalidArguments(String)
    /// `org.freedesktop.DBus.Error.LimitsExceeded`
    case limitExceeded(String)

    package var description: String {
        switch self {
        case .invalidArguments(let message), .limitExceeded(let message): message
        }
    }
}

/// What plays the service's patterns: the engine in the daemon, a fake in tests. Every call
/// comes from the service's thread; a playback's end is reported back to the service with
/// ``FeedbackService/finished(token:)`` on that thread.
package protocol FeedbackOutput: AnyObject {
    /// Whether a haptic actuator is there (the Haptic interface is exported when so).
    var hasHaptics: Bool { get }
    /// Starts `pattern` now, repeating until stopped when `looping`; haptic intensity scaled by
    /// `strength` (0…1). `token` names the playback in ``stop(token:)`` and in its end.
    func start(_ pattern: HapticPattern, looping: Bool, strength: Double, token: Int) throws
    /// Stops a playback (its end may still be reported; the service ignores it).
    func stop(token: Int)
}

/// The service's limits: past them a call gets `LimitsExceeded`.
package struct FeedbackLimits: Sendable, Equatable {
    /// Feedback ids running at once for one client (bus connection).
    package var perClient: Int
    /// Playbacks (engine players) at once for all clients; the engine has 128 slots and
    /// `Vibrate` keeps one of them.
    package var players: Int
    /// Steps of one `Vibrate` pattern (feedbackd takes 10 and drops the rest).
    package var vibrateSteps: Int

    /// 64 feedbacks per client, 120 players, 1,000 `Vibrate` steps.
    package static let standard = FeedbackLimits(perClient: 64, players: 120, vibrateSteps: 1000)

    package init(perClient: Int, players: Int, vibrateSteps: Int) {
        self.perClient = perClient
        self.players = players
        self.vibrateSteps = vibrateSteps
    }
}

/// feedbackd's feedback manager over an output. Not thread-safe: one thread calls it.
package final class FeedbackService {
    /// One triggered event and its playbacks.
    private struct Event {
        var id: UInt32
        var sender: String
        var level: FeedbackLevel
        var tokens: Set<Int>
        var deadline: Double?
    }

    /// The theme events are looked up in (replaced by a reload).
    package var theme: FeedbackTheme
    /// The settings: per-app levels, `allow-important`, `max-haptic-strength`.
    package var settings: FeedbackSettings
    /// The global level (the `Profile` property).
    package private(set) var level: FeedbackLevel
    package let limits: FeedbackLimits
    /// Seconds on a monotonic clock (the daemon's; a fake in tests).
    private let now: () -> Double
    private let output: any FeedbackOutput
    /// One line per problem (the daemon writes them to stderr).
    private let report: (String) -> Void

    private var nextID: UInt32 = 1
    private var nextToken = 1
    private var events: [UInt32: Event] = [:]
    private var eventOfToken: [Int: UInt32] = [:]
    private var feedbacksOfClient: [String: Int] = [:]
    private var vibrateToken: Int?
    private var playerCount = 0
    private var reported: Set<String> = []

    /// `FeedbackEnded` signals to send, in order; the bus layer empties it after each call.
    package var endedFeedbacks: [(id: UInt32, reason: FeedbackEndReason)] = []

    package init(
        theme: FeedbackTheme, settings: FeedbackSettings, output: any FeedbackOutput, limits: FeedbackLimits = .standard,
        now: @escaping () -> Double, report: @escaping (String) -> Void = { _ in }
    ) {
        self.theme = theme
        self.settings = settings
        self.output = output
        self.limits = limits
        self.now = now
        self.report = report
        level = settings.profile
    }

    /// Whether a haptic actuator is there.
    package var hasHaptics: Bool { output.hasHaptics }

    /// Ids running now.
    package var runningIDs: [UInt32] { events.keys.sorted() }

    /// Whether a client has feedbacks running.
    package func hasFeedbacks(from sender: String) -> Bool { (feedbacksOfClient[sender] ?? 0) > 0 }

    // MARK: The Feedback interface

    /// `TriggerFeedback`: the event's feedbacks start and its id comes back; an event with
    /// nothing to play still gets an id, and `FeedbackEnded(id, notFound)` is queued at once.
    package func trigger(
        appID: String, event: String, hints: FeedbackHints = FeedbackHints(), timeout: Int32, sender: String
    ) throws(FeedbackServiceError) -> UInt32 {
        guard !appID.isEmpty else { throw .invalidArguments("Invalid app id \(appID)") }
        guard !event.isEmpty else { throw .invalidArguments("Invalid event \(event)") }
        let running = feedbacksOfClient[sender] ?? 0
        guard running < limits.perClient else {
            throw .limitExceeded(
                "\(running) feedbacks of this client are running, the most one client may have; end some with EndFeedback")
        }
        let timeout = max(-1, timeout)
        let id = nextID
        nextID = nextID == .max ? 1 : nextID + 1

        // An unknown `profile` hint is feedbackd's UNKNOWN level, below silent: nothing plays.
        let wanted: FeedbackLevel? = hints.profile.map { FeedbackLevel(name: $0) } ?? .full
        guard let wanted else {
            endedFeedbacks.append((id, .notFound))
            return id
        }
        let level = effectiveLevel(appID: appID, wanted: wanted, important: hints.important ?? false)
        var feedbacks = theme.feedbacks(for: event, level: level)
        if let soundFile = hints.soundFile, level >= .full {
            do {
                let pattern = try soundFilePattern(URL(fileURLWithPath: soundFile))
                feedbacks.removeAll { $0.kind == .sound }
                feedbacks.insert(ThemeFeedback(kind: .sound, pattern: pattern, isHaptic: false), at: 0)
            } catch {
                reportOnce("sound-file", "sound-file '\(soundFile)' of \(appID): \(error)")
            }
        }
        if feedbacks.contains(where: { $0.kind == .led }) {
            reportOnce("led", "the theme's Led feedbacks are not supported: they are skipped")
        }
        let playable = feedbacks.compactMap { feedback in feedback.pattern.map { ($0, feedback.isHaptic) } }
        guard !playable.isEmpty else {
            endedFeedbacks.append((id, .notFound))
            return id
        }
        guard playerCount + playable.count <= limits.players else {
            throw .limitExceeded("\(playerCount) feedbacks are playing, the most the service mixes at once; try again later")
        }

        var tokens: Set<Int> = []
        for (pattern, isHaptic) in playable {
            let token = nextToken
            nextToken += 1
            do {
                try output.start(
                    pattern, looping: timeout >= 0, strength: isHaptic ? settings.maxHapticStrength : 1, token: token)
                tokens.insert(token)
                eventOfToken[token] = id
            } catch {
                reportOnce("start \(error)", "cannot play '\(event)': \(error)")
            }
        }
        guard !tokens.isEmpty else {
            endedFeedbacks.append((id, .notFound))
            return id
        }
        playerCount += tokens.count
        events[id] = Event(
            id: id, sender: sender, level: level, tokens: tokens, deadline: timeout > 0 ? now() + Double(timeout) : nil)
        feedbacksOfClient[sender, default: 0] += 1
        return id
    }

    /// `EndFeedback`: the id's feedbacks stop and it ends `explicit`; an unknown id is ignored
    /// (as feedbackd does, with a warning it logs and we do not).
    package func end(id: UInt32) {
        finish(id, reason: .explicit)
    }

    /// A client left the bus: its feedbacks end (`explicit`, as feedbackd's).
    package func clientVanished(_ sender: String) {
        for event in events.values where event.sender == sender {
            finish(event.id, reason: .explicit)
        }
        feedbacksOfClient[sender] = nil
    }

    /// Sets the global level from a profile name; true when it changed. An unknown name
    /// changes nothing (feedbackd logs it too). Lowering it ends the feedbacks above it.
    @discardableResult
    package func setProfile(_ name: String) -> Bool {
        guard let newLevel = FeedbackLevel(name: name) else {
            report("invalid profile '\(name)' ignored: the profiles are full, quiet and silent")
            return false
        }
        guard newLevel != level else { return false }
        // Kept where feedbackd keeps it (GSettings), as feedbackd does.
        if let problem = settings.setProfile(newLevel) { reportOnce("set profile", problem) }
        return apply(newLevel)
    }

    /// New settings (SIGHUP): their profile becomes the level (true when it changed; no write
    /// back, they are where it came from).
    @discardableResult
    package func replaceSettings(_ settings: FeedbackSettings) -> Bool {
        self.settings = settings
        return settings.profile != level && apply(settings.profile)
    }

    private func apply(_ newLevel: FeedbackLevel) -> Bool {
        level = newLevel
        for event in events.values where event.level > newLevel {
            finish(event.id, reason: .explicit)
        }
        return true
    }

    // MARK: Time and the output's reports

    /// The next time a timeout runs out, if any (on the service's clock).
    package var nextDeadline: Double? { events.values.compactMap(\.deadline).min() }

    /// Ends the feedbacks whose timeout has run out (`expired`).
    package func expire() {
        let time = now()
        for event in events.values where (event.deadline ?? .infinity) <= time {
            finish(event.id, reason: .expired)
        }
    }

    /// A playback ended on its own (or was stopped): an event whose last playback ended
    /// ends `natural`.
    package func finished(token: Int) {
        if token == vibrateToken {
            vibrateToken = nil
            playerCount -= 1
            return
        }
        guard let id = eventOfToken.removeValue(forKey: token), var event = events[id] else { return }
        event.tokens.remove(token)
        playerCount -= 1
        if event.tokens.isEmpty {
            finish(id, reason: .natural)
        } else {
            events[id] = event
        }
    }

    /// Ends every feedback (the daemon's exit): each id ends `explicit`.
    package func endAll() {
        for id in events.keys.sorted() { finish(id, reason: .explicit) }
        stopVibration()
    }

    private func finish(_ id: UInt32, reason: FeedbackEndReason) {
        guard let event = events.removeValue(forKey: id) else { return }
        for token in event.tokens.sorted() {
            eventOfToken[token] = nil
            output.stop(token: token)
        }
        playerCount -= event.tokens.count
        if let count = feedbacksOfClient[event.sender] {
            feedbacksOfClient[event.sender] = count > 1 ? count - 1 : nil
        }
        endedFeedbacks.append((id, reason))
    }

    // MARK: The Haptic interface

    /// `Vibrate`: plays (amplitude 0…1, milliseconds) steps, replacing the last `Vibrate`;
    /// an empty pattern stops it. False below the `quiet` level or without a haptic output.
    package func vibrate(appID: String, steps: [(amplitude: Double, milliseconds: UInt32)]) -> Bool {
        guard effectiveLevel(appID: appID, wanted: .quiet, important: false) >= .quiet, output.hasHaptics else {
            return false
        }
        stopVibration()
        guard !steps.isEmpty else { return true }
        let pattern = Self.vibrationPattern(steps.prefix(limits.vibrateSteps))
        guard !pattern.events.isEmpty else { return true }
        let token = nextToken
        nextToken += 1
        do {
            try output.start(pattern, looping: false, strength: settings.maxHapticStrength, token: token)
        } catch {
            reportOnce("start \(error)", "cannot vibrate: \(error)")
            return false
        }
        vibrateToken = token
        playerCount += 1
        return true
    }

    private func stopVibration() {
        guard let token = vibrateToken else { return }
        vibrateToken = nil
        playerCount -= 1
        output.stop(token: token)
    }

    /// The steps as one pattern: a continuous event per step with an amplitude (feedbackd
    /// clamps it to 0…1 and each step to 10 s; so does this).
    package static func vibrationPattern(_ steps: some Sequence<(amplitude: Double, milliseconds: UInt32)>) -> HapticPattern {
        var events: [HapticEvent] = []
        var milliseconds: UInt64 = 0
        for step in steps {
            let length = min(step.milliseconds, 10_000)
            let amplitude = step.amplitude.isNaN ? 0 : min(1, max(0, step.amplitude))
            if amplitude > 0 && length > 0 {
                events.append(
                    .continuous(
                        at: Double(milliseconds) / 1000, duration: Double(length) / 1000, intensity: amplitude, sharpness: 0.5,
                        sustained: true))
            }
            milliseconds += UInt64(length)
        }
        return HapticPattern(events: events)
    }

    // MARK: Levels

    /// feedbackd's effective level: the lowest of the global level, the app's and the
    /// event's, except that an `important` event of an allowed app ignores the global one.
    package func effectiveLevel(appID: String, wanted: FeedbackLevel, important: Bool) -> FeedbackLevel {
        let appLevel = settings.level(forApp: appID)
        if important && settings.allowImportant.contains(appID) {
            return min(wanted, appLevel)
        }
        return min(level, appLevel, wanted)
    }

    private func reportOnce(_ key: String, _ line: String) {
        guard reported.insert(key).inserted else { return }
        report(line)
    }
}
