import Foundation
import HapticsTestSupport
import Testing

/// The service harness's tests, one after another: each starts a private bus, a daemon and
/// real clients, and on two shared cores running them side by side would only make each slower.
@Suite(.serialized) struct ServiceHarness {}

extension Tag {
    /// Tests that load a daemon for seconds (many clients, floods, fuzzing): run in the normal
    /// suite, bounded in count and time; `--skip` them by this tag's tests' names to iterate fast.
    @Tag static var serviceLoad: Self
}

/// A bus, a daemon on it and a client, as most scenarios need them.
struct HarnessService {
    let bus: SessionBus
    let daemon: ServiceDaemon
    let client: FeedbackClient

    /// The theme both daemons read in the comparison scenarios (`FEEDBACK_THEME`): each event
    /// with a sound at `full` (what Debian's feedbackd can play without a motor) and a vibration
    /// at `quiet` (what ours plays into its `file:` device; `full` includes `quiet`), integer
    /// magnitudes as in feedbackd 0.0.3's themes, which also hold one feedback per event and
    /// profile and need all three profiles.
    static let comparisonTheme = FeedbackClient.script.deletingLastPathComponent().appendingPathComponent("comparison-theme.json")

    init(_ kind: ServiceDaemon.Kind, theme: URL? = comparisonTheme, arguments: [String] = [], environment: [String: String] = [:]) throws {
        bus = try SessionBus()
        var environment = environment
        if let theme { environment["FEEDBACK_THEME"] = theme.path }
        daemon = try ServiceDaemon(kind, on: bus, arguments: arguments, environment: environment)
        client = try FeedbackClient(on: bus)
        client.companions = [daemon]
        try client.ready()
    }
}
