import Testing
import HapticsCore
import HapticsRender

/// The instruments the feel tests rely on, checked on patterns built in code.
@Suite("Measuring rendered feel")
struct MeasuringToolTests {
    @Test("separate taps are counted, with their strength and pitch")
    func countsTaps() {
        let pattern = HapticPattern(events: [
            .transient(at: 0, intensity: 0.5, sharpness: 0),
            .transient(at: 0.05, intensity: 1, sharpness: 1),
            .transient(at: 0.2, intensity: 0.8, sharpness: 0.5),
        ])
        let feel = Feel(pattern)
        #expect(feel.count == 3, "\(feel)")
        guard feel.count == 3 else { return }
        let profile = ActuatorProfile.wideband
        for (segment, event) in zip(feel.segments, pattern.events) {
            #expect(abs(segment.start - event.relativeTime) < 0.006, "\(segment)")
            let expected = profile.frequency(sharpness: event.value(of: .hapticSharpness))
            #expect(abs(segment.frequency / expected - 1) < 0.15, "\(segment) expected \(expected) Hz")
            #expect(abs(segment.peak - profile.amplitude(intensity: event.value(of: .hapticIntensity))) < 0.05, "\(segment)")
        }
    }

    @Test("a continuous sweep shows its direction")
    func sweepDirection() {
        let rising = HapticPattern(
            events: [.continuous(at: 0, duration: 0.1, intensity: 0.8, sharpness: 0.2)],
            curves: [HapticParameterCurve(.hapticSharpnessControl, at: 0, points: [(0, 0), (0.1, 0.6)])])
        let feel = Feel(rising)
        #expect(feel.count == 1)
        #expect(feel.segments.first.map { $0.endFrequency > $0.startFrequency * 1.5 } == true, "\(feel)")
        #expect(feel.segments.first.map { $0.duration > 0.09 } == true, "\(feel)")
    }

    @Test("silence has no segments and no energy")
    func silence() {
        let feel = Feel(HapticPattern(events: [.transient(at: 0, intensity: 0, sharpness: 0.5)]))
        #expect(feel.count == 0)
        #expect(feel.energy == 0)
    }
}
