import FoundationEssentials
import HapticsCore
import HapticsRender

/// A pattern as Meta's `.haptic` clips and Android's envelopes see it: **one continuous
/// layer** (intensity and sharpness moving linearly between points, silent where intensity
/// is 0) plus **transients** (taps with their own intensity and sharpness).
///
/// Every converter goes through this: ``init(pattern:resolution:tolerance:notes:)`` flattens
/// an AHAP pattern (envelopes, dynamic parameters and curves evaluated, overlapping continuous
/// events mixed), and ``pattern(metadata:)`` builds an AHAP pattern back.
public struct HapticLayers: Sendable, Hashable {
    /// A point of a piecewise-linear curve: seconds from the start, value 0…1.
    public struct Point: Sendable, Hashable {
        public var time: Double
        public var value: Double
        public init(_ time: Double, _ value: Double) {
            self.time = time
            self.value = value
        }
    }

    /// A tap.
    public struct Transient: Sendable, Hashable {
        public var time: Double
        public var intensity: Double
        public var sharpness: Double
        public init(time: Double, intensity: Double, sharpness: Double) {
            self.time = time
            self.intensity = intensity
            self.sharpness = sharpness
        }
    }

    /// The continuous layer's perceived intensity (AHAP intensity: amplitude = intensity²).
    public var intensity: [Point]
    /// The continuous layer's sharpness.
    public var sharpness: [Point]
    /// The taps, sorted by time.
    public var transients: [Transient]

    public init(intensity: [Point] = [], sharpness: [Point] = [], transients: [Transient] = []) {
        self.intensity = intensity
        self.sharpness = sharpness
        self.transients = transients.sorted { $0.time < $1.time }
    }

    /// Whether the continuous layer ever sounds.
    public var hasContinuous: Bool { intensity.contains { $0.value > 0 } }

    /// The last time anything happens.
    public var end: Double {
        max(intensity.last?.time ?? 0, sharpness.last?.time ?? 0, transients.last?.time ?? 0)
    }

    /// A curve's value at a time: linear between points, holding the ends.
    public static func value(of points: [Point], at time: Double, default fallback: Double = 0) -> Double {
        guard let first = points.first else { return fallback }
        if time <= first.time { return first.value }
        guard let last = points.last, time < last.time else { return points.last?.value ?? fallback }
        // Binary search for the segment.
        var low = 0
        var high = points.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if points[mid].time <= time { low = mid } else { high = mid }
        }
        let a = points[low]
        let b = points[high]
        let span = b.time - a.time
        return span > 0 ? a.value + (b.value - a.value) * (time - a.time) / span : b.value
    }
}

// MARK: - AHAP pattern → layers

extension HapticLayers {
    /// Flattens a pattern into one continuous layer and transients.
    ///
    /// The continuous layer is evaluated as the renderer does: each continuous event's
    /// amplitude is `(intensity × intensity control)² × envelope`, amplitudes of overlapping
    /// events add, and the layer's intensity is `√amplitude`; its sharpness is the
    /// amplitude-weighted mean of the events' `sharpness + sharpness control`. It is sampled
    /// every `resolution` seconds and at every time something changes (event starts and ends,
    /// envelope corners, parameter steps, curve points), then simplified (Ramer–Douglas–Peucker)
    /// to within `tolerance`. Transients take the intensity control at their onset (as the
    /// renderer does) and ignore the sharpness control.
    public init(pattern: HapticPattern, resolution: Double = 0.005, tolerance: Double = 0.004, notes: inout ConversionNotes) {
        let compiled = CompiledPattern(pattern)
        struct Continuous {
            var start, duration, intensity, sharpness, attack, decay, release: Double
            var sustained: Bool
            var end: Double { sustained ? start + duration + release : start + min(duration, attack + decay) }
            func level(at time: Double) -> Double {
                let t = time - start
                guard t > 0 else { return 0 }
                if sustained {
                    if t <= duration { return min(1, t / attack) }
                    return max(0, min(1, duration / attack) * (1 - (t - duration) / release))
                }
                guard t < min(duration, attack + decay) else { return 0 }
                return t < attack ? t / attack : max(0, 1 - (t - attack) / decay)
            }
        }
        var continuous: [Continuous] = []
        var transients: [Transient] = []
        var audio = 0
        for event in pattern.events {
            switch event.kind {
            case .transient:
                let control = compiled.control(.intensity, at: event.relativeTime)
                transients.append(
                    Transient(
                        time: max(0, event.relativeTime),
                        intensity: (0...1).clamp(event.value(of: .hapticIntensity) * control),
                        sharpness: event.value(of: .hapticSharpness)))
            case .continuous:
                let t = max(0, event.relativeTime)
                continuous.append(
                    Continuous(
                        start: t, duration: max(0, event.duration),
                        intensity: event.value(of: .hapticIntensity), sharpness: event.value(of: .hapticSharpness),
                        attack: HapticEnvelope.seconds(for: event.value(of: .attackTime) + compiled.control(.attack, at: t)),
                        decay: HapticEnvelope.seconds(for: event.value(of: .decayTime) + compiled.control(.decay, at: t)),
                        release: HapticEnvelope.seconds(for: event.value(of: .releaseTime) + compiled.control(.release, at: t)),
                        sustained: event.isSustained))
            case .audioContinuous, .audioCustom:
                audio += 1
            }
        }
        if audio > 0 { notes.add("audio-events", "audio events left out (the format has no sound)", count: audio) }
        continuous.sort { $0.start < $1.start }
        var overlaps = 0
        // A release tail running into the next event is a hand-over, not an overlap.
        for (a, b) in zip(continuous, continuous.dropFirst()) where b.start < min(a.end, a.start + a.duration) - 1e-9 { overlaps += 1 }
        if overlaps > 0 { notes.add("overlap", "overlapping continuous events mixed into one continuous layer (their amplitudes add)", count: overlaps) }

        var intensity: [Point] = []
        var sharpness: [Point] = []
        if !continuous.isEmpty {
            let end = continuous.map(\.end).max() ?? 0
            var times: [Double] = []
            var t = 0.0
            var step = 0
            while t < end {
                times.append(t)
                step += 1
                t = Double(step) * resolution
            }
            times.append(end)
            for event in continuous {
                times += [event.start, event.start + min(event.attack, event.duration), event.start + event.duration, event.end]
                if !event.sustained { times.append(event.start + min(event.duration, event.attack)) }
            }
            for parameter in pattern.parameters where parameter.id == .hapticIntensityControl || parameter.id == .hapticSharpnessControl {
                times += [parameter.relativeTime - 0.0001, parameter.relativeTime]
            }
            for curve in pattern.curves where curve.id == .hapticIntensityControl || curve.id == .hapticSharpnessControl {
                times.append(curve.relativeTime - 0.0001)
                times += curve.controlPoints.map { curve.relativeTime + $0.relativeTime }
            }
            times = Array(Set(times.filter { $0 >= 0 && $0 <= end })).sorted()
            var values: [Double] = []
            var sharpValues: [Double] = []
            var clipped = 0
            var lastSharpness = continuous[0].sharpness
            var first = 0
            for time in times {
                while first < continuous.count, continuous[first].end < time - 1 { first += 1 }
                let intensityControl = compiled.control(.intensity, at: time)
                let sharpnessControl = compiled.control(.sharpness, at: time)
                var amplitude = 0.0
                var weighted = 0.0
                for event in continuous[first...] {
                    if event.start > time { break }
                    let level = event.level(at: time)
                    guard level > 0 else { continue }
                    let i = (0...1).clamp(event.intensity * intensityControl)
                    let a = i * i * level
                    amplitude += a
                    weighted += a * (0...1).clamp(event.sharpness + sharpnessControl)
                }
                if amplitude > 1 {
                    clipped += 1
                    amplitude = 1
                }
                if amplitude > 0 { lastSharpness = min(1, weighted / amplitude) }
                values.append(amplitude.squareRoot())
                sharpValues.append(lastSharpness)
            }
            if clipped > 0 { notes.add("clip", "overlapping continuous events louder than full scale clipped to intensity 1") }
            let keepI = CurveSimplifier.keep(times: times, values: [values], tolerance: tolerance)
            let keepS = CurveSimplifier.keep(times: times, values: [sharpValues], tolerance: tolerance * 2)
            intensity = keepI.map { Point(times[$0], values[$0]) }
            sharpness = keepS.map { Point(times[$0], sharpValues[$0]) }
        }
        self.init(intensity: intensity, sharpness: sharpness, transients: transients)
    }
}

// MARK: - layers → AHAP pattern

extension HapticLayers {
    /// Apple's limit on one continuous event's duration, in seconds.
    public static let maxContinuousDuration = 30.0
    /// How late the continuous events start after the layer's first point (see ``pattern(metadata:)``).
    static let gridOffset = 0.0005
    /// Points per parameter curve (what Meta's converter and Apple's samples obey).
    public static let maxCurvePoints = 16

    /// Builds an AHAP pattern, by the rules of Meta's `.haptic` → AHAP converter: the
    /// continuous layer becomes continuous events of intensity 1 and sharpness 0, split at
    /// Apple's 30 s limit, driven by `HapticIntensityControl` and `HapticSharpnessControl`
    /// curves chunked at 16 points (each chunk starts with the previous one's last point);
    /// transients stay transients.
    ///
    /// One addition: Core Haptics (and this toolkit) scale a transient by the intensity control
    /// at its onset. Meta plays the transients on a second player to avoid that; a single
    /// pattern cannot, so each transient's intensity is divided by the curve's value there, and
    /// where the continuous layer is quieter than the tap the curve is lifted to the tap's
    /// intensity for 0.1 ms around its onset, so the tap keeps its strength; the continuous
    /// events start 0.5 ms after the layer so their 1 ms control grid misses lifts at whole
    /// milliseconds.
    public func pattern(metadata: HapticPattern.Metadata = .init()) -> HapticPattern {
        var events: [HapticEvent] = []
        var curves: [HapticParameterCurve] = []
        var transientEvents: [HapticEvent] = []
        if hasContinuous {
            let start = intensity.first?.time ?? 0
            let end = max(intensity.last?.time ?? 0, sharpness.last?.time ?? 0)
            // Continuous voices update their level on a 1 ms grid from their start; starting
            // 0.5 ms late keeps that grid away from taps on whole milliseconds, whose lifts
            // (below) then never reach the continuous layer.
            var t = start + Self.gridOffset
            while t < end - 1e-9 {
                let length = min(Self.maxContinuousDuration, end - t)
                events.append(.continuous(at: t, duration: length, intensity: 1, sharpness: 0))
                t += length
            }
            var lifted = intensity
            var lifts: [Point] = []
            for transient in transients where transient.intensity > 0 {
                let control = transient.time < start ? 1 : Self.value(of: intensity, at: transient.time)
                if control >= transient.intensity, control > 0 {
                    transientEvents.append(.transient(at: transient.time, intensity: min(1, transient.intensity / control), sharpness: transient.sharpness))
                } else {
                    let e = 0.00005
                    lifts += [
                        Point(max(0, transient.time - e), Self.value(of: intensity, at: transient.time - e)),
                        Point(transient.time, transient.intensity),
                        Point(transient.time + e, Self.value(of: intensity, at: transient.time + e)),
                    ]
                    transientEvents.append(.transient(at: transient.time, intensity: 1, sharpness: transient.sharpness))
                }
            }
            if !lifts.isEmpty {
                // Lifts win over layer points within their 0.1 ms window (both sorted: one pass).
                let windows = lifts.map(\.time).sorted()
                var next = 0
                lifted =
                    lifted.filter { point in
                        while next < windows.count, windows[next] < point.time - 0.00005 { next += 1 }
                        return !(next < windows.count && abs(windows[next] - point.time) < 0.00005 - 1e-9)
                    } + lifts
                lifted.sort { $0.time < $1.time }
                lifted = Self.dropDuplicateTimes(lifted)
            }
            curves += Self.chunked(lifted, id: .hapticIntensityControl)
            if !sharpness.isEmpty { curves += Self.chunked(sharpness, id: .hapticSharpnessControl) }
        } else {
            transientEvents = transients.filter { $0.intensity > 0 }.map { .transient(at: $0.time, intensity: $0.intensity, sharpness: $0.sharpness) }
        }
        return HapticPattern(events: events + transientEvents, curves: curves, metadata: metadata)
    }

    /// Keeps the last point of each run of equal times (points sorted).
    static func dropDuplicateTimes(_ points: [Point]) -> [Point] {
        var out: [Point] = []
        for point in points {
            if let last = out.last, abs(last.time - point.time) < 1e-9 { out[out.count - 1] = point } else { out.append(point) }
        }
        return out
    }

    /// Curves of at most 16 points; each chunk after the first starts with the previous
    /// chunk's last point, so the control never jumps between chunks.
    static func chunked(_ points: [Point], id: HapticDynamicParameter.ID) -> [HapticParameterCurve] {
        guard !points.isEmpty else { return [] }
        var curves: [HapticParameterCurve] = []
        var index = 0
        while true {
            let slice = points[index..<min(points.count, index + maxCurvePoints)]
            let start = slice.first!.time
            curves.append(
                HapticParameterCurve(
                    id, at: start,
                    controlPoints: slice.map {
                        .init(at: $0.time - start, id.range.clamp($0.value))
                    }))
            if index + maxCurvePoints >= points.count { break }
            index += maxCurvePoints - 1
        }
        return curves
    }
}
