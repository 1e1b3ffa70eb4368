import HapticsCore

/// Control changes that arrive while a pattern plays (a player's `sendParameters` and
/// `scheduleParameterCurve`), kept in fixed storage so the audio thread never allocates.
///
/// Each control holds the last few elements sent; when full, the earliest-starting one is
/// dropped, which is the one the newer elements are most likely to have superseded.
package final class RuntimeControls {
    /// The most points a runtime curve keeps (Core Haptics' limit).
    package static let maximumPoints = 16
    /// Elements kept per control.
    static let slots = 8

    package struct Element: Sendable {
        /// Pattern time the element starts at.
        var start = 0.0
        /// Absolute pattern times and values of its points; one point for a step.
        var times = InlineArray<16, Double>(repeating: 0)
        var values = InlineArray<16, Double>(repeating: 0)
        var count = 0
        /// Arrival order, to let the later of two equal starts win.
        var sequence = 0

        /// A step to `value` at `start`.
        package init(step value: Double, at start: Double) {
            self.start = start
            times[0] = start
            values[0] = value
            count = 1
        }

        /// A curve starting at `start` (point times relative to it); points past 16 are dropped.
        package init(curve points: [HapticParameterCurve.ControlPoint], at start: Double) {
            self.start = start
            for point in points.prefix(Self.capacity).sorted(by: { $0.relativeTime < $1.relativeTime }) {
                times[count] = start + point.relativeTime
                values[count] = point.value
                count += 1
            }
        }

        static var capacity: Int { RuntimeControls.maximumPoints }

        /// Moves the element and its points later by `time` (elements are built relative to
        /// when they apply, then placed on the pattern's timeline).
        package mutating func shift(by time: Double) {
            start += time
            for i in 0..<count { times[i] += time }
        }

        /// Value at `time` (≥ start): linear between points, holding the ends.
        @inline(__always)
        package func value(at time: Double) -> Double {
            if count <= 1 || time <= times[0] { return values[0] }
            if time >= times[count - 1] { return values[count - 1] }
            var i = 0
            while times[i + 1] <= time { i += 1 }
            let span = times[i + 1] - times[i]
            guard span > 0 else { return values[i + 1] }
            return values[i] + (values[i + 1] - values[i]) * (time - times[i]) / span
        }
    }

    /// `slots` elements per control, in one preallocated block: a struct holding them inline
    /// would be copied on every read, and reads happen every control tick.
    private let elements: UnsafeMutablePointer<Element>
    private let used: UnsafeMutablePointer<Int>
    private var nextSequence = 1

    package init() {
        let count = HapticControl.allCases.count
        elements = .allocate(capacity: count * Self.slots)
        elements.initialize(repeating: Element(step: 0, at: 0), count: count * Self.slots)
        used = .allocate(capacity: count)
        used.initialize(repeating: 0, count: count)
    }

    deinit {
        elements.deallocate()
        used.deallocate()
    }

    /// Carries sent values across a jump in pattern time (a loop wrapping, a seek): each
    /// control's value in effect at `old` holds, as a step, from `new` on (a curve in progress
    /// holds the value it had reached). Without this a value sent at 0.5 s would stop applying
    /// when a loop went back to 0.
    package func rebase(from old: Double, to new: Double) {
        // Resuming in place is not a jump: curves in progress keep running.
        guard old != new else { return }
        for control in HapticControl.allCases {
            guard let current = value(of: control, at: old) else { continue }
            used[control.rawValue] = 0
            add(Element(step: current.value, at: new), to: control)
        }
    }

    /// Forgets every element (a player restarting).
    package func removeAll() {
        for c in 0..<HapticControl.allCases.count { used[c] = 0 }
    }

    /// Adds an element for a control.
    package func add(_ element: Element, to control: HapticControl) {
        guard element.count > 0 else { return }
        var element = element
        element.sequence = nextSequence
        nextSequence += 1
        let base = control.rawValue * Self.slots
        if used[control.rawValue] < Self.slots {
            elements[base + used[control.rawValue]] = element
            used[control.rawValue] += 1
            return
        }
        var earliest = base
        for i in base..<(base + Self.slots) where elements[i].start < elements[earliest].start { earliest = i }
        elements[earliest] = element
    }

    /// The latest-starting element in effect at `time`, as (value, start, sequence).
    @inline(__always)
    package func value(of control: HapticControl, at time: Double) -> (value: Double, since: Double)? {
        let n = used[control.rawValue]
        guard n > 0 else { return nil }
        let base = control.rawValue * Self.slots
        var best = -1
        for i in base..<(base + n) where elements[i].start <= time {
            if best < 0 || elements[i].start > elements[best].start
                || (elements[i].start == elements[best].start && elements[i].sequence > elements[best].sequence) {
                best = i
            }
        }
        guard best >= 0 else { return nil }
        return (elements[best].value(at: time), elements[best].start)
    }
}
