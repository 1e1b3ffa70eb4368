import Haptics

/// What a pattern feels like over time, for pictures: the strongest sounding event's effective
/// intensity (through the intensity control and its envelope) and its sharpness (through the
/// sharpness control). `plot` draws it; `show` prints it as a sparkline.
struct PatternEnvelope {
    var pattern: HapticPattern
    var compiled: CompiledPattern

    init(pattern: HapticPattern, compiled: CompiledPattern? = nil) {
        self.pattern = pattern
        self.compiled = compiled ?? CompiledPattern(pattern)
    }

    /// The strongest event sounding within `resolution` of `t`: its intensity through the
    /// intensity control and its envelope, and its sharpness through the sharpness control.
    func value(at t: Double, resolution: Double) -> (intensity: Double, sharpness: Double?) {
        var best = 0.0
        var sharpness: Double?
        for event in pattern.events where event.kind.isHaptic {
            let start = event.relativeTime
            var level: Double
            var eventSharpness = event.value(of: .hapticSharpness)
            if event.kind == .transient {
                // A transient is a spike one column wide.
                guard abs(t - start) <= resolution / 2 + 0.002 else { continue }
                level = HapticControl.intensity.apply(compiled.control(.intensity, at: start), to: event.value(of: .hapticIntensity))
            } else {
                guard t >= start, t <= event.end else { continue }
                let attack = HapticEnvelope.seconds(for: event.value(of: .attackTime))
                var gain = attack > 0 ? min(1, (t - start) / attack) : 1
                if event.isSustained {
                    let release = HapticEnvelope.seconds(for: event.value(of: .releaseTime))
                    if t > start + event.duration { gain *= max(0, 1 - (t - start - event.duration) / release) }
                } else if t > start + attack {
                    let decay = HapticEnvelope.seconds(for: event.value(of: .decayTime))
                    gain *= max(0, 1 - (t - start - attack) / decay)
                }
                level = HapticControl.intensity.apply(compiled.control(.intensity, at: t), to: event.value(of: .hapticIntensity)) * gain
                eventSharpness = HapticControl.sharpness.apply(compiled.control(.sharpness, at: t), to: eventSharpness)
            }
            if level > best || sharpness == nil {
                if level >= best {
                    best = level
                    sharpness = eventSharpness
                }
            }
        }
        return (best, sharpness)
    }

}
