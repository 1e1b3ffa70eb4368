// The service's output: one engine, its players mixing every client's feedbacks. Players end on
// the engine's notification thread; their tokens come back to the daemon's thread through a
// `CompletionInbox` (an eventfd its poll loop watches).
import CSDBus
import FoundationEssentials
import Glibc
import Haptics
import HapticsCore
import HapticsPlayback
import Synchronization

/// Tokens of playbacks that ended, posted from the engine's notification thread and taken on
/// the daemon's; posting wakes the daemon's poll through an eventfd.
package final class CompletionInbox: Sendable {
    /// The descriptor the daemon polls (readable when something was posted).
    package let descriptor: Int32
    private let tokens = Mutex<[Int]>([])

    package init() {
        descriptor = hsd_eventfd()
    }

    deinit { close(descriptor) }

    /// Any thread: a playback ended.
    package func post(_ token: Int) {
        tokens.withLock { $0.append(token) }
        hsd_eventfd_post(descriptor)
    }

    /// The daemon's thread: what was posted since the last call.
    package func take() -> [Int] {
        hsd_eventfd_drain(descriptor)
        return tokens.withLock { tokens in
            defer { tokens.removeAll(keepingCapacity: true) }
            return tokens
        }
    }
}

/// The engine the daemon plays on, made in ONE place (the output layer of issue #26 replaces
/// the body): `device` and `profile` as `haptics play` takes them, else the process's
/// ``HapticOutputSelection``. The engine shuts down after `idleTimeout` without a player,
/// releasing the device, and opens it again on the next feedback.
package func makeFeedbackEngine(
    device: String?, profile: ActuatorProfile?, environment: [String: String], idleTimeout: Duration = .seconds(5)
) -> (engine: HapticEngine, hasHaptics: Bool, problems: [String]) {
    var selection = HapticOutputSelection.resolve(environment: environment)
    if let device { selection = HapticOutputSelection(device: device, profile: selection.profile, source: .environment, problems: selection.problems) }
    if let profile { selection.profile = profile }
    var configuration = selection.configuration
    configuration.idleTimeout = idleTimeout
    let engine = HapticEngine(configuration: configuration)
    engine.isAutoShutdownEnabled = true
    // An explicitly configured output is taken to be a haptic actuator; ALSA's default only
    // when the machine has a sound card.
    return (engine, selection.isOutputAvailable, selection.problems)
}

/// Plays the service's patterns on an engine.
package final class EngineFeedbackOutput: FeedbackOutput {
    package let engine: HapticEngine
    package let hasHaptics: Bool
    private let inbox: CompletionInbox
    private var players: [Int: HapticAdvancedPatternPlayer] = [:]

    package init(engine: HapticEngine, hasHaptics: Bool, inbox: CompletionInbox) {
        self.engine = engine
        self.hasHaptics = hasHaptics
        self.inbox = inbox
    }

    package func start(_ pattern: HapticPattern, looping: Bool, strength: Double, token: Int) throws {
        let player = try engine.makeAdvancedPlayer(with: pattern)
        let inbox = inbox
        player.completionHandler = { _ in inbox.post(token) }
        if looping { player.loopEnabled = true }
        if strength < 1 {
            try player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, max(0, strength))])
        }
        try player.start()
        players[token] = player
    }

    package func stop(token: Int) {
        guard let player = players.removeValue(forKey: token) else { return }
        try? player.stop()
    }

    /// Lets go of a player that ended (its token came through the inbox).
    package func ended(token: Int) {
        players[token] = nil
    }

    /// Players held now.
    package var playerCount: Int { players.count }
}
