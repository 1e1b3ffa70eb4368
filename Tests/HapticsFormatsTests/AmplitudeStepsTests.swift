import HapticsTestSupport
import Testing

@testable import HapticsFormats

/// The layers as constant-amplitude steps (`OnOffTimeline.swift`), what Android's waveform,
/// feedbackd's VibraPattern and navigator.vibrate are built from.
@Suite("AmplitudeSteps")
struct AmplitudeStepsTests {
    @Test("a constant layer is one step of intensity², on a 5 ms grid, quantised to 255 levels")
    func constantLayer() {
        let steps = AmplitudeSteps(HapticLayers(intensity: [.init(0, 0.7), .init(0.1, 0.7), .init(0.1, 0)])).steps
        let level: Double = (0.49 * 255).rounded() / 255
        #expect(steps == [AmplitudeSteps.Step(milliseconds: 100, amplitude: level)])
    }

    @Test("a tap is a 20 ms pulse of its intensity²; the louder of tap and layer wins; trailing silence is dropped")
    func tapPulse() {
        let layers = HapticLayers(
            intensity: [.init(0, 0.5), .init(0.05, 0.5), .init(0.05, 0)],
            transients: [.init(time: 0.03, intensity: 1, sharpness: 0.5), .init(time: 0.2, intensity: 0.5, sharpness: 0)])
        let steps = AmplitudeSteps(layers).steps
        let quarter: Double = (0.25 * 255).rounded() / 255
        let expected: [AmplitudeSteps.Step] = [
            .init(milliseconds: 30, amplitude: quarter), .init(milliseconds: 20, amplitude: 1), .init(milliseconds: 150, amplitude: 0),
            .init(milliseconds: 20, amplitude: quarter),
        ]
        #expect(steps == expected)
    }

    @Test("other grids and pulse lengths: 10 ms steps, 30 ms pulses")
    func otherGrid() {
        let steps = AmplitudeSteps(HapticLayers(transients: [.init(time: 0.1, intensity: 1, sharpness: 0.5)]), stepMilliseconds: 10, transientMilliseconds: 30)
            .steps
        #expect(steps == [.init(milliseconds: 100, amplitude: 0), .init(milliseconds: 30, amplitude: 1)])
    }

    @Test("nothing to play is no steps")
    func empty() {
        #expect(AmplitudeSteps(HapticLayers()).steps.isEmpty)
    }
}
