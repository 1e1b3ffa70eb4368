import Foundation
import HapticsCore
import HapticsFormats
import Testing

/// The published rules each format follows, checked on small hand-made inputs.
@Suite("Format rules")
struct FormatRuleTests {
    /// A v1 clip: 20 amplitude breakpoints over 45 s, one with an emphasis, and a frequency envelope.
    static let clip: String = {
        var points: [String] = []
        for i in 0..<20 {
            let t = Double(i) * 45 / 19
            if i == 5 {
                points.append("{ \"time\": \(t), \"amplitude\": 0.25, \"emphasis\": { \"amplitude\": 0.81, \"frequency\": 0.6 } }")
            } else {
                points.append("{ \"time\": \(t), \"amplitude\": \(i == 19 ? 0 : 0.25) }")
            }
        }
        return """
            { "version": { "major": 1, "minor": 0, "patch": 0 },
              "metadata": { "editor": "test", "author": "me", "source": "", "project": "p", "tags": [], "description": "d" },
              "signals": { "continuous": { "envelopes": {
                "amplitude": [ \(points.joined(separator: ", ")) ],
                "frequency": [ { "time": 0, "frequency": 0.49 }, { "time": 45, "frequency": 0.49 } ] } } } }
            """
    }()

    @Test(".haptic → AHAP: √amplitude, ducking, emphasis taps, √frequency, 30 s events, 16-point curves")
    func lofeltToAHAP() throws {
        var notes = ConversionNotes()
        let pattern = try LofeltHaptic.pattern(from: Data(Self.clip.utf8), notes: &notes)
        let continuous = pattern.events.filter { $0.kind == .continuous }
        #expect(continuous.map(\.duration).allSatisfy { $0 <= 30 })
        #expect(continuous.count == 2)
        #expect(abs(continuous.map(\.duration).reduce(0, +) - 45) < 0.01)
        let intensity = pattern.curves.filter { $0.id == .hapticIntensityControl }
        #expect(intensity.allSatisfy { $0.controlPoints.count <= 16 })
        #expect(intensity.count >= 2)
        // Chunks join: each starts where the previous ended, with the same value.
        for (a, b) in zip(intensity, intensity.dropFirst()) {
            #expect(abs(a.end - b.relativeTime) < 1e-9)
            #expect(abs(a.controlPoints.last!.value - b.controlPoints.first!.value) < 1e-9)
        }
        let first = try #require(intensity.first)
        #expect(abs(first.controlPoints[0].value - 0.5) < 1e-9)  // √0.25
        let t5 = 5 * 45 / 19.0
        var points: [(time: Double, value: Double)] = []
        for curve in intensity {
            for point in curve.controlPoints { points.append((curve.relativeTime + point.relativeTime, point.value)) }
        }
        let ducked = points.filter { abs($0.time - t5 + 0.00005) < 1e-6 }
        #expect(ducked.contains { abs($0.value - 0.4) < 1e-4 })  // 0.5 × 0.8, just before the tap's lift
        let tap = try #require(pattern.events.first { $0.kind == .transient })
        #expect(abs(tap.relativeTime - t5) < 1e-9)
        #expect(abs(tap.value(of: .hapticSharpness) - 0.6) < 1e-9)
        // √0.81 = 0.9, divided by the curve there (it is lifted to 0.9 for the tap's onset).
        #expect(abs(tap.value(of: .hapticIntensity) - 1) < 1e-9)
        let sharpness = try #require(pattern.curves.first { $0.id == .hapticSharpnessControl })
        #expect(abs(sharpness.controlPoints[0].value - 0.7) < 1e-9)  // √0.49
        #expect(pattern.metadata.project == "p")
        #expect(notes.notes.contains { $0.kind == "ducking" })
    }

    @Test("AHAP → .haptic: amplitude = intensity², frequency = sharpness², taps as emphasis")
    func ahapToLofelt() throws {
        let pattern = HapticPattern(events: [
            .continuous(at: 0, duration: 1, intensity: 0.5, sharpness: 0.6),
            .transient(at: 0.5, intensity: 0.9, sharpness: 0.3),
        ])
        var notes = ConversionNotes()
        let data = LofeltHaptic.encode(pattern, notes: &notes)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let envelopes = try #require(((root["signals"] as? [String: Any])?["continuous"] as? [String: Any])?["envelopes"] as? [String: Any])
        let amplitude = try #require(envelopes["amplitude"] as? [[String: Any]])
        let emphasised = amplitude.filter { $0["emphasis"] != nil }
        #expect(emphasised.count == 1)
        let emphasis = try #require(emphasised.first?["emphasis"] as? [String: Any])
        #expect(abs((emphasis["amplitude"] as! Double) - 0.81) < 1e-4)
        #expect(abs((emphasis["frequency"] as! Double) - 0.3) < 1e-4)
        #expect(amplitude.contains { abs(($0["amplitude"] as! Double) - 0.25) < 1e-3 })
        let frequency = try #require(envelopes["frequency"] as? [[String: Any]])
        #expect(frequency.allSatisfy { abs(($0["frequency"] as! Double) - 0.36) < 1e-3 })
        #expect((amplitude.last?["amplitude"] as? Double) == 0)
    }

    @Test("Android envelope: starts at 0, steps become 1 ms ramps, ends at intensity 0")
    func androidEnvelope() throws {
        let pattern = HapticPattern(
            events: [.continuous(at: 0.1, duration: 0.2, intensity: 1, sharpness: 0.25)],
            parameters: [HapticDynamicParameter(.hapticIntensityControl, 0.5, at: 0.2)])
        var notes = ConversionNotes()
        let android = AndroidVibration(pattern, notes: &notes)
        #expect(android.envelope.last?.intensity == 0)
        #expect(android.envelope.allSatisfy { $0.durationMillis >= 1 })
        let total = android.envelope.map(\.durationMillis).reduce(0, +)
        #expect(total >= 300 && total <= 320)
        #expect(android.composition.isEmpty)
        #expect(android.timings.count == android.amplitudes.count)
        #expect(android.amplitudes.allSatisfy { (0...255).contains($0) })
        let back = try AndroidVibration.layers(fromJSON: android.json(), notes: &notes)
        #expect(abs(HapticLayers.value(of: back.intensity, at: 0.15) - 1) < 0.02)
        #expect(abs(HapticLayers.value(of: back.intensity, at: 0.25) - 0.5) < 0.02)
        #expect(abs(HapticLayers.value(of: back.sharpness, at: 0.15) - 0.25) < 0.01)
    }

    @Test("navigator.vibrate: a pattern past 99 entries is cut and the limit named")
    func webLimit() throws {
        let taps = (0..<80).map { HapticEvent.transient(at: Double($0) * 0.1, intensity: 1, sharpness: 0.5) }
        var notes = ConversionNotes()
        let web = WebVibration(HapticPattern(events: taps), notes: &notes)
        #expect(web.vibrate.count == 99)
        let limit = try #require(notes.notes.first { $0.kind == "vibrate-limit" })
        #expect(limit.message.contains("159 entries"))
        #expect(limit.message.contains("99"))
        #expect(web.rumble.allSatisfy { $0.duration <= 5000 })
    }

    @Test("navigator.vibrate entries above 10 s and rumble effects above 5 s are split, and said so")
    func webLongEntries() throws {
        var notes = ConversionNotes()
        let web = WebVibration(HapticPattern(events: [.continuous(at: 0, duration: 25, intensity: 1, sharpness: 0.5)]), notes: &notes)
        #expect(web.vibrate.allSatisfy { $0 <= 10_000 })
        #expect(abs(web.vibrate.reduce(0, +) - 25_005) <= 10)
        #expect(web.rumble.allSatisfy { $0.duration <= 5000 })
        #expect(notes.notes.contains { $0.kind == "vibrate-entry" })
        #expect(notes.notes.contains { $0.kind == "effect-length" })
    }

    @Test("feedbackd: magnitudes and durations of equal length")
    func feedbackd() throws {
        var notes = ConversionNotes()
        let entry = FeedbackdTheme.entry(eventName: "tap", pattern: HapticPattern(events: [.transient(at: 0.05, intensity: 1)]), notes: &notes)
        #expect(entry.magnitudes.count == entry.durations.count)
        #expect(entry.magnitudes.contains(1))
        let theme = try #require(try JSONSerialization.jsonObject(with: FeedbackdTheme.json(entries: [entry])) as? [String: Any])
        #expect(theme["parent-name"] as? String == "default")
    }

    @Test("formats from extensions")
    func extensions() {
        #expect(HapticFormat(path: "a/b.android.json") == .androidJSON)
        #expect(HapticFormat(path: "x.web.json") == .webJSON)
        #expect(HapticFormat(path: "x.feedbackd.json") == .feedbackd)
        #expect(HapticFormat(path: "x.json") == .ahap)
        #expect(HapticFormat(path: "X.KT") == .androidKotlin)
        #expect(HapticFormat(path: "x.haptic") == .haptic)
        #expect(HapticFormat(path: "x.wav") == nil)
    }
}
