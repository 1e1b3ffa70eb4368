import Foundation
import Testing

extension Tag {
    /// Tests that measure timing against a sound server's clock (a private PulseAudio null
    /// sink). They run only when ``RealTime/isSelected``; see ``RealTime`` for how to add one.
    @Tag public static var realtime: Self
}

/// The real-time group: suites whose results depend on a sound server getting the CPU on time.
///
/// Run alongside the rest of the suite, on a busy machine, the server is starved and inserts
/// silence, which shifts every onset they measure; so a plain `swift test` skips them (with
/// ``skipReason``, visible in the output) and `scripts/test.sh` runs them on their own, second,
/// with `HAPTICS_REALTIME_TESTS=1`.
///
/// A new real-time suite (or a single test) takes both traits, and nothing else needs to change:
///
/// ```swift
/// @Suite("Low-latency playback under load", .tags(.realtime), .enabled(if: RealTime.isSelected, RealTime.skipReason))
/// struct LowLatencyLoadTests { … }
/// ```
///
/// `swift test --filter` matches names only (swift-testing 6.3.1 has no tag filter on the
/// command line), so the variable is the gate, and `scripts/test.sh` finds the group's names
/// from the tag: the suite or test declared after each `.tags(.realtime`. By hand:
/// `HAPTICS_REALTIME_TESTS=1 swift test --filter PulseEngineTests`.
public enum RealTime {
    /// The variable that enables the group: `1` runs it (with whatever else the filter selects).
    public static let variable = "HAPTICS_REALTIME_TESTS"

    /// Whether this run includes the real-time group.
    public static let isSelected = ProcessInfo.processInfo.environment[variable] == "1"

    /// Why the group was skipped, and how to run it.
    public static let skipReason: Comment =
        "real-time test: runs with HAPTICS_REALTIME_TESTS=1, on an otherwise idle machine (scripts/test.sh runs it after the rest)"
}
