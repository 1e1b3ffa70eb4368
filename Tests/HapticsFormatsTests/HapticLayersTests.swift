import Foundation
import HapticsCore
import HapticsTestSupport
import Testing

@testable import HapticsFormats

/// A pattern flattened into one continuous layer and taps (what every other format holds), the
/// notes of what that loses, and layers built back into a pattern by Meta's rules.
@Suite("HapticLayers")
struct HapticLayersTests {
    @Test("a continuous event's intensity and sharpness, and a tap scaled by the intensity control at its onset")
    func flattensPattern() {
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 0.2, intensity: 0.5, sharpness: 0.3), .transient(at: 0.3, intensity: 0.8, sharpness: 0.6)],
            parameters: [HapticDynamicParameter(.hapticIntensityControl, 0.5, at: 0.25)])
        var notes = ConversionNotes()
        let layers = HapticLayers(pattern: pattern, notes: &notes)
        #expect(close(HapticLayers.value(of: layers.intensity, at: 0.1), 0.5, within: 0.01))
        #expect(close(HapticLayers.value(of: layers.sharpness, at: 0.1), 0.3, within: 0.01))
        #expect(layers.hasContinuous)
        #expect(layers.transients.count == 1)
        #expect(layers.transients.first.map { $0.time == 0.3 && close($0.intensity, 0.4) && $0.sharpness == 0.6 } == true, "\(layers.transients)")
        #expect(layers.end >= 0.3)
        #expect(notes.isEmpty, "\(notes)")
    }

    @Test("overlapping events add their amplitudes (intensity √(a₁+a₂)), counted in their note; above full scale clipped, and said so")
    func overlapAndClip() {
        var notes = ConversionNotes()
        let overlapping = HapticPattern(events: [
            .continuous(at: 0, duration: 0.4, intensity: 0.6, sharpness: 0.5), .continuous(at: 0.1, duration: 0.2, intensity: 0.6, sharpness: 0.5),
        ])
        let layers = HapticLayers(pattern: overlapping, notes: &notes)
        #expect(close(HapticLayers.value(of: layers.intensity, at: 0.2), (0.36 + 0.36).squareRoot(), within: 0.01))
        #expect(notes.notes.map(\.kind) == ["overlap"])
        #expect(notes.notes.first?.count == 1)

        var loudNotes = ConversionNotes()
        let loud = HapticPattern(events: [.continuous(at: 0, duration: 0.4, intensity: 0.8), .continuous(at: 0, duration: 0.4, intensity: 0.8)])
        let clipped = HapticLayers(pattern: loud, notes: &loudNotes)
        #expect(clipped.intensity.allSatisfy { $0.value <= 1 })
        #expect(close(HapticLayers.value(of: clipped.intensity, at: 0.2), 1))
        #expect(loudNotes.notes.map(\.kind) == ["overlap", "clip"])
    }

    @Test("audio events are left out, counted in their note")
    func audioLeftOut() {
        var notes = ConversionNotes()
        let pattern = HapticPattern(events: [
            HapticEvent(.audioContinuous, at: 0, duration: 0.5), HapticEvent(.audioContinuous, at: 0.5, duration: 0.5), .transient(at: 0.1),
        ])
        let layers = HapticLayers(pattern: pattern, notes: &notes)
        #expect(!layers.hasContinuous && layers.transients.count == 1)
        #expect(notes.notes.map(\.kind) == ["audio-events"])
        #expect(notes.notes.first?.count == 2)
    }

    @Test("a curve's value: linear between points, the ends held, the default for no points")
    func curveValue() {
        let points: [HapticLayers.Point] = [.init(0.1, 0.2), .init(0.3, 0.6)]
        #expect(HapticLayers.value(of: points, at: 0) == 0.2)
        #expect(close(HapticLayers.value(of: points, at: 0.2), 0.4))
        #expect(HapticLayers.value(of: points, at: 1) == 0.6)
        #expect(HapticLayers.value(of: [], at: 1, default: 0.5) == 0.5)
    }

    @Test("back to a pattern: continuous events split at Apple's 30 s, control curves of at most 16 points, taps kept")
    func buildsPattern() {
        let ramp = (0...40).map { HapticLayers.Point(Double($0) * 70 / 40, $0 % 2 == 0 ? 1 : 0.5) }
        let layers = HapticLayers(intensity: ramp, sharpness: [.init(0, 0.5)], transients: [.init(time: 1, intensity: 0.7, sharpness: 0.2)])
        let pattern = layers.pattern()
        let continuous = pattern.events.filter { $0.kind == .continuous }
        #expect(continuous.count == 3, "70 s in events of 30 s at most")
        #expect(continuous.allSatisfy { $0.duration <= HapticLayers.maxContinuousDuration })
        #expect(close(continuous.map(\.duration).reduce(0, +), 70, within: 0.01))
        let intensityCurves = pattern.curves.filter { $0.id == .hapticIntensityControl }
        #expect(intensityCurves.allSatisfy { $0.controlPoints.count <= HapticLayers.maxCurvePoints })
        #expect(intensityCurves.map(\.controlPoints.count).reduce(0, +) >= ramp.count, "every point is kept, chunks sharing their ends")
        #expect(pattern.events.filter { $0.kind == .transient }.map(\.relativeTime) == [1])
    }
}
