/// What the reader notes about times and durations while reading events, to spot a pattern
/// written in milliseconds (`"Time": 120` meaning 0.12 s plays two minutes of silence first).
///
/// The rule, checked once the whole pattern is read (warnings, so errors in `--strict`):
///
/// 1. **Whole numbers, one of them large**: every event `Time` and `EventDuration` in the file
///    is a whole number and one of them is 100 s or more. Millisecond values look like that
///    (`0, 120, 250`; `EventDuration: 100`); patterns in seconds use fractions. The warning
///    names the first such value.
/// 2. **Too long**: otherwise, a pattern lasting more than 90 s. That is three times the 30 s
///    Core Haptics allows a continuous event, and longer than any public AHAP file (the
///    longest, a test clip, lasts 70 s).
///
/// Both warnings end with "did you mean milliseconds?".
struct TimingPlausibility {
    /// Rule 1's threshold, in seconds.
    static let millisecondsThreshold = 100.0
    /// Rule 2's threshold, in seconds.
    static let maxPlausibleDuration = 90.0

    /// Whether every event time and duration so far is a whole number.
    var allWhole = true
    /// The first event time or duration at or above ``millisecondsThreshold``.
    var firstLarge: (value: Double, naming: String, location: String, offset: Int?)?
}

extension AHAPPatternReader {
    /// Notes an event's time or duration (`nil` when absent or invalid) for the rule above.
    mutating func noteTiming(_ value: Double?, at location: @autoclosure () -> String, offset: Int?, naming: String) {
        guard let value else { return }
        if value.rounded() != value { timing.allWhole = false }
        if value >= TimingPlausibility.millisecondsThreshold, timing.firstLarge == nil {
            timing.firstLarge = (value, naming, location(), offset)
        }
    }

    /// Warns when the pattern's times look like milliseconds or its length is implausible.
    mutating func checkPlausibility(duration: Double, at location: String, offset: Int) {
        if timing.allWhole, let large = timing.firstLarge {
            report.warning(
                "\(large.naming) \(JSONText.shortNumber(large.value)) s looks like milliseconds: every time and duration in the file is a whole number, and AHAP times are in seconds (\(JSONText.shortNumber(large.value)) ms is \(JSONText.shortNumber(large.value / 1000)) s); did you mean milliseconds?",
                at: large.location, offset: large.offset)
        } else if duration > TimingPlausibility.maxPlausibleDuration {
            report.warning(
                "the pattern lasts \(Self.secondsText(duration)), longer than a haptic pattern plausibly is (\(Self.secondsText(TimingPlausibility.maxPlausibleDuration))); AHAP times are in seconds: did you mean milliseconds?",
                at: location, offset: offset)
        }
    }
}
