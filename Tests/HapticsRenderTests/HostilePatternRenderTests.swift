import HapticsCore
import Testing
@testable import HapticsRender

/// The renderers take whatever pattern they are given: a pattern built in code with times far
/// past an hour or non-finite numbers renders (bounded, finite) instead of trapping or
/// allocating for 10¹⁵ seconds (issue #24, item 4, beyond CoreHaptics).
@Suite("Rendering hostile patterns built in code")
struct HostilePatternRenderTests {
    @Test("an event at 1e15 s renders at most an hour and every sample is finite")
    func farEventRendersBounded() {
        let pattern = HapticPattern(events: [
            .transient(at: 0, intensity: 1, sharpness: 0.5),
            .transient(at: 1e15, intensity: 1, sharpness: 0.5),
        ])
        let renderer = HapticRenderer(pattern: pattern, profile: .lra)
        #expect(renderer.totalFrames <= 3601 * renderer.sampleRate)
        var buffer = [Float](repeating: 0, count: 4096 * renderer.channelCount)
        let frames = buffer.withUnsafeMutableBufferPointer { renderer.render(into: $0) }
        #expect(frames > 0)
        let finite = buffer.allSatisfy { $0.isFinite }
        #expect(finite)
        #expect(buffer.contains { $0 != 0 }, "the tap at 0 still sounds")
    }

    @Test("NaN and infinite values render as finite samples")
    func nonFiniteValuesRenderFinite() {
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 0.1, intensity: .nan, sharpness: .infinity)],
            parameters: [HapticDynamicParameter(.hapticIntensityControl, .nan, at: 0.05)])
        let signal = HapticRenderer.render(pattern, profile: .lra)
        let finite = signal.samples.allSatisfy { $0.isFinite }
        #expect(finite)
        #expect(signal.samples.count < 48_000)
    }

    @Test("the rumble timeline of NaN and infinite numbers is short and its levels finite")
    func rumbleTimelineBounded() {
        // (An event at 1e15 s is bounded to an hour by the same compile step the renderer
        // test above checks; an hour of timeline is too slow for a debug test.)
        let frames = RumbleRenderer.timeline(
            HapticPattern(events: [
                .transient(at: .nan, intensity: .infinity, sharpness: 1),
                .continuous(at: 0.1, duration: .nan, intensity: 1, sharpness: .nan),
            ]), intervalMilliseconds: 10)
        #expect(frames.count < 100)
        #expect(frames.contains { $0.strong > 0 || $0.weak > 0 }, "the tap at NaN (as 0) still rumbles")
    }
}
