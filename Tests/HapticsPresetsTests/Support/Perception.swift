import Foundation

/// Whether a finger could tell two rendered patterns apart, using conservative
/// just-noticeable differences for vibration on the skin (the same figures Patterns/README.md
/// designs against).
enum Perception {
    /// Strength: about 1–2 dB is noticeable; ask for more.
    static let strength = 2.0
    /// Pitch: 15–30 % is noticeable between 100 and 300 Hz.
    static let pitch = 1.2
    /// Timing: intervals differing by a quarter and by at least 20 ms.
    static let timing = (ratio: 1.25, seconds: 0.02)
    /// Length of a continuous stretch: half as long again, and by at least 15 ms.
    static let length = (ratio: 1.5, seconds: 0.015)
    /// A pitch sweep is felt when it changes by this ratio within a stretch.
    static let sweep = 1.2

    /// The first difference found, described, or nil when the patterns would feel the same.
    static func difference(_ a: Feel, _ b: Feel) -> String? {
        guard a.count == b.count else { return "\(a.count) vs \(b.count) taps" }
        for (index, (x, y)) in zip(a.segments, b.segments).enumerated() {
            if abs(x.peakDecibels - y.peakDecibels) >= strength {
                return String(format: "tap %d strength %.1f vs %.1f dB", index, x.peakDecibels, y.peakDecibels)
            }
            if max(x.frequency, y.frequency) >= pitch * min(x.frequency, y.frequency) {
                return String(format: "tap %d pitch %.0f vs %.0f Hz", index, x.frequency, y.frequency)
            }
            let onsets =
                index == 0
                ? (x.start, y.start)
                : (x.start - a.segments[index - 1].start, y.start - b.segments[index - 1].start)
            if differ(onsets.0, onsets.1, by: timing) {
                return String(format: "tap %d comes after %.0f vs %.0f ms", index, onsets.0 * 1000, onsets.1 * 1000)
            }
            if differ(x.duration, y.duration, by: length) {
                return String(format: "tap %d lasts %.0f vs %.0f ms", index, x.duration * 1000, y.duration * 1000)
            }
            if direction(x) != direction(y) {
                return "tap \(index) sweeps \(direction(x)) vs \(direction(y))"
            }
            let longest = max(x.duration, y.duration)
            if longest >= 0.05, abs((x.peakTime - x.start) - (y.peakTime - y.start)) >= 0.3 * longest {
                return "tap \(index) peaks at a different moment"
            }
        }
        return nil
    }

    static func differ(_ x: Double, _ y: Double, by threshold: (ratio: Double, seconds: Double)) -> Bool {
        abs(x - y) >= threshold.seconds && max(x, y) >= threshold.ratio * max(min(x, y), 1e-9)
    }

    static func direction(_ segment: Feel.Segment) -> String {
        guard segment.startFrequency > 0, segment.endFrequency > 0 else { return "flat" }
        if segment.endFrequency >= sweep * segment.startFrequency { return "up" }
        if segment.startFrequency >= sweep * segment.endFrequency { return "down" }
        return "flat"
    }
}
