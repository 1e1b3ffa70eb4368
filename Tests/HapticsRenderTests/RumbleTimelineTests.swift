import HapticsCore
import Testing
@testable import HapticsRender

/// The dual-motor timeline (the rumble mapping, docs/ARCHITECTURE.md), measured frame by frame.
@Suite("Rumble timeline")
struct RumbleTimelineTests {
    func level(_ frame: RumbleFrame) -> Int { Int(frame.strong) + Int(frame.weak) }

    @Test("every transient becomes a pulse of at least 40 ms")
    func transientPulses() {
        let times = [0.0, 0.2, 0.5]
        let frames = RumbleRenderer.timeline(HapticPattern(events: times.map { .transient(at: $0, intensity: 1, sharpness: 1) }), intervalMilliseconds: 1)
        for time in times {
            let start = Int(time * 1000)
            let pulse = frames.filter { $0.timeMilliseconds >= start && $0.timeMilliseconds < start + 100 && level($0) > 0 }
            #expect(pulse.first?.timeMilliseconds == start, "pulse starts at its time")
            #expect(pulse.count >= 40, "pulse at \(time) s lasts \(pulse.count) ms")
            #expect(pulse.count <= 42)
        }
    }

    @Test("sharpness moves energy from the strong motor to the weak one")
    func sharpnessSplitsMotors() {
        var previousWeak = -1
        var previousStrong = Int.max
        for sharpness in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let frames = RumbleRenderer.timeline(HapticPattern(events: [.continuous(at: 0, duration: 0.5, intensity: 1, sharpness: sharpness)]))
            let middle = frames[25]
            #expect(Int(middle.weak) > previousWeak && Int(middle.strong) < previousStrong)
            #expect(abs(Double(middle.weak) / 65535 - sharpness) < 0.001)
            #expect(abs(Double(middle.strong) / 65535 - (1 - sharpness)) < 0.001)
            previousWeak = Int(middle.weak)
            previousStrong = Int(middle.strong)
        }
    }

    @Test("continuous intensity orders the motor level, as amplitude = intensity²")
    func intensityOrdersLevel() {
        let levels = [0.25, 0.5, 0.75, 1.0].map { intensity in
            let frames = RumbleRenderer.timeline(HapticPattern(events: [.continuous(at: 0, duration: 0.5, intensity: intensity, sharpness: 0)]))
            return Double(frames[25].strong) / 65535
        }
        #expect(levels == levels.sorted() && Set(levels).count == 4)
        for (level, intensity) in zip(levels, [0.25, 0.5, 0.75, 1.0]) {
            #expect(abs(level - intensity * intensity) < 0.001)
        }
    }

    @Test("motors are at zero between events and at the end")
    func zeroBetweenAndAtEnd() throws {
        let frames = RumbleRenderer.timeline(
            HapticPattern(events: [
                .transient(at: 0, intensity: 1, sharpness: 0.3),
                .continuous(at: 0.3, duration: 0.2, intensity: 0.8, sharpness: 0.6),
            ]))
        #expect(frames.filter { $0.timeMilliseconds >= 60 && $0.timeMilliseconds < 300 }.allSatisfy { level($0) == 0 })
        let last = try #require(frames.last)
        #expect(level(last) == 0)
        #expect(frames.filter { $0.timeMilliseconds > 520 }.allSatisfy { level($0) == 0 })
        #expect(frames.map(\.timeMilliseconds) == Array(stride(from: 0, to: frames.count * 10, by: 10)))
    }

    @Test("parameters and curves apply to the motors as to the signal")
    func controlsApply() {
        let frames = RumbleRenderer.timeline(
            HapticPattern(
                events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0)],
                parameters: [HapticDynamicParameter(.hapticIntensityControl, 0.5, at: 0.3)],
                curves: [HapticParameterCurve(.hapticSharpnessControl, at: 0.6, points: [(0, 0), (0.2, 1)])]))
        #expect(frames[20].strong == 65535)
        #expect(abs(Double(frames[40].strong) / 65535 - 0.25) < 0.001, "intensity 0.5 → amplitude 0.25")
        #expect(frames[70].weak > 0 && frames[70].strong > 0, "sharpness halfway through the curve")
        #expect(frames[90].strong == 0 && abs(Double(frames[90].weak) / 65535 - 0.25) < 0.001)
    }

    @Test("gain scales and the levels clamp at full scale")
    func gainAndClamp() {
        let pattern = HapticPattern(events: [.continuous(at: 0, duration: 0.5, intensity: 0.5, sharpness: 0)])
        #expect(RumbleRenderer.timeline(pattern, gain: 2)[25].strong == 32768)
        let loud = HapticPattern(events: [
            .continuous(at: 0, duration: 0.5, intensity: 1, sharpness: 0),
            .continuous(at: 0, duration: 0.5, intensity: 1, sharpness: 0),
        ])
        #expect(RumbleRenderer.timeline(loud)[25].strong == 65535)
    }
}
