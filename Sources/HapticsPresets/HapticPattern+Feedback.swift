import HapticsCore

extension HapticPattern {
    /// The preset pattern for a kind of feedback, with its intensity and the user's settings
    /// applied.
    ///
    /// Every haptic event's `HapticIntensity` is multiplied by the feedback's intensity and by
    /// ``HapticSettings/scale(for:)`` of its category: intensities live in the perceptual
    /// domain (a renderer maps them to amplitude), so 0.5 feels half as strong, not a quarter.
    /// With haptics turned off the scale is 0 and the pattern is silent but keeps its events,
    /// timing and duration, so code that waits for it or lays out around it behaves the same
    /// whether or not the user wants haptics; check ``HapticSettings/isEnabled`` to skip
    /// playing altogether.
    public init(feedback: HapticFeedback, settings: HapticSettings = .current) {
        self =
            PresetLibrary.pattern(named: feedback.presetName, intensity: feedback.intensity, settings: settings)
            ?? HapticPattern(events: [])
    }

    /// The pattern with every haptic event's intensity multiplied by `factor` (clamped to
    /// 0…1). Events without an intensity get their default times the factor, written out.
    /// Dynamic parameters and curves are left alone: they multiply or add to the event values,
    /// so the whole pattern scales with its events.
    public func scalingIntensity(by factor: Double) -> HapticPattern {
        let factor = (0.0...1.0).clamp(factor)
        var scaled = self
        for index in scaled.events.indices where scaled.events[index].kind.isHaptic {
            let event = scaled.events[index]
            let intensity = HapticEvent.Parameter(.hapticIntensity, event.value(of: .hapticIntensity) * factor)
            if event.parameters.contains(where: { $0.id == .hapticIntensity }) {
                scaled.events[index].parameters = event.parameters.map { $0.id == .hapticIntensity ? intensity : $0 }
            } else {
                scaled.events[index].parameters.insert(intensity, at: 0)
            }
        }
        return scaled
    }
}
