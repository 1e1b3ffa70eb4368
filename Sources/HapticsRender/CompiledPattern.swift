import HapticsCore

/// A pattern prepared for synthesis: haptic events sorted by time with every parameter
/// resolved, and one timeline per haptic dynamic parameter. Immutable and shareable between
/// threads; compile once, play many times.
public struct CompiledPattern: Sendable {
    /// A haptic event with its parameters resolved (event values, not yet dynamic controls).
    struct Event: Sendable {
        var isTransient: Bool
        var time: Double
        var duration: Double
        var intensity: Double
        var sharpness: Double
        /// Envelope parameters, 0…1 (dynamic controls are added at the event's start).
        var attack: Double
        var decay: Double
        var release: Double
        var sustained: Bool
    }

    /// The pattern's duration as Core Haptics computes it.
    public let duration: Double
    /// Haptic events sorted by time (stable); audio events are not part of the haptic signal.
    let events: [Event]
    /// One timeline per ``HapticControl``.
    let controls: [ControlTimeline]
    /// Audio events the pattern holds, which the renderer leaves out.
    public let audioEventCount: Int

    /// Prepares a pattern for synthesis.
    public init(_ pattern: HapticPattern) {
        duration = pattern.duration
        var events: [Event] = []
        var audio = 0
        for event in pattern.events {
            guard event.kind.isHaptic else { audio += 1; continue }
            events.append(Event(
                isTransient: event.kind == .transient,
                time: max(0, event.relativeTime),
                duration: max(0, event.duration),
                intensity: event.value(of: .hapticIntensity),
                sharpness: event.value(of: .hapticSharpness),
                attack: event.value(of: .attackTime),
                decay: event.value(of: .decayTime),
                release: event.value(of: .releaseTime),
                sustained: event.isSustained))
        }
        // Stable: equal times keep pattern order.
        self.events = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        audioEventCount = audio

        var controls = Array(repeating: ControlTimeline(), count: HapticControl.allCases.count)
        for parameter in pattern.parameters {
            guard let control = HapticControl(parameter.id) else { continue }
            controls[control.rawValue].addStep(at: parameter.relativeTime, value: parameter.value)
        }
        for curve in pattern.curves {
            guard let control = HapticControl(curve.id) else { continue }
            controls[control.rawValue].addCurve(at: curve.relativeTime, points: curve.controlPoints)
        }
        for index in controls.indices { controls[index].finish() }
        self.controls = controls
    }

    /// The value of a control at a pattern time, from the pattern's own elements.
    public func control(_ control: HapticControl, at time: Double) -> Double {
        controls[control.rawValue].value(at: time)?.value ?? control.defaultValue
    }

    /// Number of haptic events.
    public var hapticEventCount: Int { events.count }

    /// When the last haptic event falls silent, in pattern time, for a profile: transients
    /// last their burst, continuous events their envelope.
    public func soundingEnd(profile: ActuatorProfile) -> Double {
        var end = 0.0
        for event in events {
            if event.isTransient {
                end = max(end, event.time + TransientShape.length(frequency: profile.frequency(sharpness: event.sharpness)))
            } else {
                let envelope = ContinuousEnvelope(event,
                                                  attackControl: control(.attack, at: event.time),
                                                  decayControl: control(.decay, at: event.time),
                                                  releaseControl: control(.release, at: event.time))
                end = max(end, event.time + envelope.end)
            }
        }
        return end
    }
}
