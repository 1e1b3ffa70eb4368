import HapticsCore

/// Points of a runtime curve too long to keep inline. Core Haptics honours every point of a
/// curve sent to a player, as it does for curves in a pattern; the first 16 fit in the
/// element, and longer curves keep their points here, allocated by the sender. The audio thread
/// never frees one: an element it drops hands its points back (``RuntimeControls/takeRetired()``)
/// for another thread to release.
package final class CurvePoints: @unchecked Sendable {
    let times: UnsafeMutableBufferPointer<Double>
    let values: UnsafeMutableBufferPointer<Double>

    init(times: [Double], values: [Double]) {
        self.times = .allocate(capacity: times.count)
        _ = self.times.initialize(from: times)
        self.values = .allocate(capacity: values.count)
        _ = self.values.initialize(from: values)
    }

    deinit {
        times.deallocate()
        values.deallocate()
    }
}

/// Control changes that arrive while a pattern plays (a player's `sendParameters` and
/// `scheduleParameterCurve`), kept in fixed storage so the audio thread never allocates.
///
/// Each control holds the last few elements sent; when full, the earliest-starting one is
/// dropped, which is the one the newer elements are most likely to have superseded.
package final class RuntimeControls {
    /// The most points a runtime curve keeps inside its element; longer curves keep theirs in
    /// a ``CurvePoints`` buffer.
    package static let inlinePoints = 16
    /// Elements kept per control.
    static let slots = 8

    package struct Element: @unchecked Sendable {
        /// Pattern time the element starts at.
        var start = 0.0
        /// Point times relative to `start`, and values; one point for a step.
        var times = InlineArray<16, Double>(repeating: 0)
        var values = InlineArray<16, Double>(repeating: 0)
        var count = 0
        /// The points of a curve longer than 16 (then `times`/`values` are unused).
        package private(set) var overflow: Unmanaged<CurvePoints>?
        /// Arrival order, to let the later of two equal starts win.
        var sequence = 0

        /// A step to `value` at `start`.
        package init(step value: Double, at start: Double) {
            self.start = start
            values[0] = value
            count = 1
        }

        /// A curve starting at `start` (point times relative to it), in time order. Curves
        /// longer than 16 points allocate: build them off the audio thread.
        package init(curve points: [HapticParameterCurve.ControlPoint], at start: Double) {
            self.start = start
            let sorted = points.sorted { $0.relativeTime < $1.relativeTime }
            count = sorted.count
            if sorted.count > Self.capacity {
                overflow = .passRetained(CurvePoints(times: sorted.map(\.relativeTime), values: sorted.map(\.value)))
                return
            }
            for (i, point) in sorted.enumerated() {
                times[i] = point.relativeTime
                values[i] = point.value
            }
        }

        static var capacity: Int { RuntimeControls.inlinePoints }

        /// Moves the element later by `time` (elements are built relative to when they apply,
        /// then placed on the pattern's timeline).
        package mutating func shift(by time: Double) {
            start += time
        }

        /// Value at `time` (≥ start): linear between points, holding the ends.
        @inline(__always)
        package func value(at time: Double) -> Double {
            if let overflow {
                let points = overflow._withUnsafeGuaranteedRef { ($0.times, $0.values) }
                return Self.interpolate(times: points.0.baseAddress!, values: points.1.baseAddress!, count: count, at: time - start)
            }
            return withUnsafePointer(to: times) { t in
                withUnsafePointer(to: values) { v in
                    Self.interpolate(
                        times: UnsafeRawPointer(t).assumingMemoryBound(to: Double.self),
                        values: UnsafeRawPointer(v).assumingMemoryBound(to: Double.self), count: count, at: time - start)
                }
            }
        }

        @inline(__always)
        private static func interpolate(times: UnsafePointer<Double>, values: UnsafePointer<Double>, count: Int, at t: Double) -> Double {
            if count <= 1 || t <= times[0] { return values[0] }
            if t >= times[count - 1] { return values[count - 1] }
            // Binary search: a long curve is read every control tick.
            var low = 0
            var high = count - 1
            while high - low > 1 {
                let mid = (low + high) / 2
                if times[mid] <= t { low = mid } else { high = mid }
            }
            let span = times[high] - times[low]
            guard span > 0 else { return values[high] }
            return values[low] + (values[high] - values[low]) * (t - times[low]) / span
        }

        /// Hands the overflow buffer to the caller (the element no longer owns it).
        package mutating func takeOverflow() -> Unmanaged<CurvePoints>? {
            defer { overflow = nil }
            return overflow
        }
    }

    /// `slots` elements per control, in one preallocated block: a struct holding them inline
    /// would be copied on every read, and reads happen every control tick.
    private let elements: UnsafeMutablePointer<Element>
    private let used: UnsafeMutablePointer<Int>
    private var nextSequence = 1
    /// Overflow buffers of dropped elements, for another thread to release.
    private let retired: UnsafeMutablePointer<Unmanaged<CurvePoints>>
    private static let retiredCapacity = 256
    private var retiredCount = 0

    package init() {
        let count = HapticControl.allCases.count
        elements = .allocate(capacity: count * Self.slots)
        elements.initialize(repeating: Element(step: 0, at: 0), count: count * Self.slots)
        used = .allocate(capacity: count)
        used.initialize(repeating: 0, count: count)
        retired = .allocate(capacity: Self.retiredCapacity)
    }

    deinit {
        // Not on the audio thread: whoever drops the last reference to the synth frees these.
        for c in 0..<HapticControl.allCases.count {
            for i in 0..<used[c] { elements[c * Self.slots + i].takeOverflow()?.release() }
        }
        while let buffer = takeRetired() { buffer.release() }
        elements.deinitialize(count: HapticControl.allCases.count * Self.slots)
        elements.deallocate()
        used.deallocate()
        retired.deallocate()
    }

    /// The next overflow buffer an element dropped, to be released off the audio thread.
    package func takeRetired() -> Unmanaged<CurvePoints>? {
        guard retiredCount > 0 else { return nil }
        retiredCount -= 1
        return retired[retiredCount]
    }

    /// Drops an element's overflow buffer into the retired list (never frees here). When
    /// the list is full — over 256 long curves dropped between two blocks — the buffer is
    /// leaked rather than freed on the audio thread.
    private func retire(_ element: inout Element) {
        guard let buffer = element.takeOverflow(), retiredCount < Self.retiredCapacity else { return }
        retired[retiredCount] = buffer
        retiredCount += 1
    }

    private func clear(_ control: Int) {
        let base = control * Self.slots
        for i in base..<(base + used[control]) { retire(&elements[i]) }
        used[control] = 0
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
            clear(control.rawValue)
            add(Element(step: current.value, at: new), to: control)
        }
    }

    /// Forgets every element (a player restarting).
    package func removeAll() {
        for c in 0..<HapticControl.allCases.count { clear(c) }
    }

    /// Adds an element for a control (taking over its overflow buffer, if any).
    package func add(_ element: Element, to control: HapticControl) {
        var element = element
        guard element.count > 0 else {
            retire(&element)
            return
        }
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
        retire(&elements[earliest])
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
                || (elements[i].start == elements[best].start && elements[i].sequence > elements[best].sequence)
            {
                best = i
            }
        }
        guard best >= 0 else { return nil }
        return (elements[best].value(at: time), elements[best].start)
    }
}
