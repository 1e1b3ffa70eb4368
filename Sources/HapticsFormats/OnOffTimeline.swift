import FoundationEssentials

/// The layers as a sequence of constant-amplitude steps — what simple vibration APIs take
/// (Android's `createWaveform`, feedbackd's `VibraPattern`, and, thresholded, the Web's
/// `navigator.vibrate`).
///
/// The amplitude (0…1, linear drive: intensity²) is sampled on a grid of `stepMilliseconds`;
/// each transient becomes a pulse of `transientMilliseconds` at its intensity² (motors need
/// that long to be felt); where both sound, the larger wins. Equal neighbouring steps merge.
struct AmplitudeSteps {
    struct Step: Equatable {
        var milliseconds: Int
        var amplitude: Double
    }
    var steps: [Step]

    init(_ layers: HapticLayers, stepMilliseconds: Int = 5, transientMilliseconds: Int = 20, levels: Int = 255) {
        let end = layers.end + Double(transientMilliseconds) / 1000
        let count = max(1, Int((end * 1000 / Double(stepMilliseconds)).rounded(.up)))
        var values = [Double](repeating: 0, count: count)
        if layers.hasContinuous {
            for k in 0..<count {
                // The step's mean, from its middle.
                let t = (Double(k) + 0.5) * Double(stepMilliseconds) / 1000
                if let last = layers.intensity.last, t > last.time, last.value == 0 { continue }
                let i = HapticLayers.value(of: layers.intensity, at: t)
                values[k] = i * i
            }
        }
        for transient in layers.transients {
            let first = Int((transient.time * 1000 / Double(stepMilliseconds)).rounded())
            let span = max(1, transientMilliseconds / stepMilliseconds)
            for k in first..<min(count, first + span) { values[k] = max(values[k], transient.intensity * transient.intensity) }
        }
        var steps: [Step] = []
        for value in values {
            let quantised = (value * Double(levels)).rounded() / Double(levels)
            if let last = steps.last, last.amplitude == quantised {
                steps[steps.count - 1].milliseconds += stepMilliseconds
            } else {
                steps.append(Step(milliseconds: stepMilliseconds, amplitude: quantised))
            }
        }
        while let last = steps.last, last.amplitude == 0 { steps.removeLast() }
        self.steps = steps
    }
}
