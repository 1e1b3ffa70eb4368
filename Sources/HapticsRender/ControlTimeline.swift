import HapticsCore

/// The dynamic parameters the synthesis follows, as dense indices: five haptic controls, which
/// act on haptic events only, and seven audio controls, which act on audio events only.
package enum HapticControl: Int, Sendable, CaseIterable {
    case intensity, sharpness, attack, decay, release
    case volume, pan, pitch, brightness, audioAttack, audioDecay, audioRelease

    /// The control for a dynamic parameter ID.
    package init?(_ id: HapticDynamicParameter.ID) {
        switch id {
        case .hapticIntensityControl: self = .intensity
        case .hapticSharpnessControl: self = .sharpness
        case .hapticAttackTimeControl: self = .attack
        case .hapticDecayTimeControl: self = .decay
        case .hapticReleaseTimeControl: self = .release
        case .audioVolumeControl: self = .volume
        case .audioPanControl: self = .pan
        case .audioPitchControl: self = .pitch
        case .audioBrightnessControl: self = .brightness
        case .audioAttackTimeControl: self = .audioAttack
        case .audioDecayTimeControl: self = .audioDecay
        case .audioReleaseTimeControl: self = .audioRelease
        }
    }

    /// Whether the control acts on audio events (as opposed to haptic events).
    @inlinable package var isAudio: Bool { rawValue >= HapticControl.volume.rawValue }

    /// Whether the control multiplies the event's value (intensity, volume) rather than adds.
    // Read on every control tick of every voice: a switch, which inlines to one comparison
    // where `==` did not.
    @inline(__always) package var multiplies: Bool {
        switch self {
        case .intensity, .volume: true
        default: false
        }
    }

    /// The value in effect when nothing has set the control.
    @inline(__always) package var defaultValue: Double { multiplies ? 1 : 0 }
}

/// One dynamic parameter's values over pattern time: a step-and-ramp timeline built from
/// `Parameter` elements (steps) and `ParameterCurve` elements (linear ramps between points,
/// holding the last value). Where elements overlap, the latest-starting one wins; among equal
/// starts, the later one in the pattern.
struct ControlTimeline: Sendable {
    /// An element: points `firstPoint ..< firstPoint + pointCount` (absolute pattern times).
    struct Segment: Sendable {
        var start: Double
        var firstPoint: Int
        var pointCount: Int
    }

    private(set) var segments: [Segment] = []
    private(set) var times: [Double] = []
    private(set) var values: [Double] = []
    /// For each point, the slope to the next point of its element (0 for the last): reading
    /// multiplies by it where it divided by the span, a wait on every tick of every voice.
    private(set) var slopes: [Double] = []

    var isEmpty: Bool { segments.isEmpty }

    mutating func addStep(at time: Double, value: Double) {
        segments.append(Segment(start: time, firstPoint: times.count, pointCount: 1))
        times.append(time)
        values.append(value)
        slopes.append(0)
    }

    mutating func addCurve(at start: Double, points: [HapticParameterCurve.ControlPoint]) {
        guard !points.isEmpty else { return }
        segments.append(Segment(start: start, firstPoint: times.count, pointCount: points.count))
        let first = times.count
        for point in points.sorted(by: { $0.relativeTime < $1.relativeTime }) {
            times.append(start + point.relativeTime)
            values.append(point.value)
        }
        for i in first..<times.count {
            // Points at one time (a jump) are never read between: the later one holds.
            let span = i + 1 < times.count ? times[i + 1] - times[i] : 0
            slopes.append(span > 0 ? (values[i + 1] - values[i]) / span : 0)
        }
    }

    /// Sorts segments by start, keeping the given order among equal starts.
    mutating func finish() {
        segments = stablySorted(segments, by: \.start)
    }

    /// The active element's value at `time` and when that element started, or nil before the
    /// first element.
    ///
    /// Every voice reads this every control tick: the arrays are read through buffer pointers,
    /// without the bounds checks and reference counting of array access.
    func value(at time: Double) -> (value: Double, since: Double)? {
        var hint = -1
        return value(at: time, hint: &hint)
    }

    /// As ``value(at:)``, starting from `hint`, the segment the previous read found (−1
    /// before the first), which it updates. Voices read at nearly the same times tick after
    /// tick, so the segment is mostly the same one or the next: two comparisons instead of a
    /// binary search over every element of a long pattern.
    @inline(__always)
    func value(at time: Double, hint: inout Int) -> (value: Double, since: Double)? {
        segments.withUnsafeBufferPointer { segments in
            // The last segment whose start ≤ time, or -1.
            let count = segments.count
            var found = hint
            func isLast(_ i: Int) -> Bool {
                (i < 0 || segments[i].start <= time) && (i + 1 == count || segments[i + 1].start > time)
            }
            if !(found >= -1 && found < count && isLast(found)) {
                if found >= -1 && found + 1 < count && isLast(found + 1) {
                    found += 1
                } else {
                    var low = 0
                    var high = count
                    while low < high {
                        let mid = (low + high) / 2
                        if segments[mid].start <= time { low = mid + 1 } else { high = mid }
                    }
                    found = low - 1
                }
            }
            hint = found
            guard found >= 0 else { return nil }
            let segment = segments[found]
            let value = times.withUnsafeBufferPointer { times in
                values.withUnsafeBufferPointer { values in
                    slopes.withUnsafeBufferPointer { slopes in
                        Self.interpolate(times: times, values: values, slopes: slopes, first: segment.firstPoint, count: segment.pointCount, at: time)
                    }
                }
            }
            return (value, segment.start)
        }
    }

    /// Linear interpolation over sorted points, holding the ends.
    @inline(__always)
    static func interpolate(
        times: UnsafeBufferPointer<Double>, values: UnsafeBufferPointer<Double>, slopes: UnsafeBufferPointer<Double>, first: Int, count: Int, at time: Double
    ) -> Double {
        if count == 1 || time <= times[first] { return values[first] }
        let last = first + count - 1
        if time >= times[last] { return values[last] }
        // times[i] ≤ time < times[i + 1]: a span greater than zero.
        var i = first
        while times[i + 1] <= time { i += 1 }
        return values[i] + slopes[i] * (time - times[i])
    }
}
