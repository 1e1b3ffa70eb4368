import Foundation
import PropertyBased
import HapticsCore

/// Random valid patterns: every event kind, parameters, curves and metadata, with numbers
/// of every shape real files have (round decimals, float32 noise, integers, tiny values,
/// full-precision doubles) and strings that need escaping.
enum PatternGenerators {
    static let pattern = Generator<HapticPattern, Shrink.None<HapticPattern>> { rng in
        var random = RandomSource(rng: rng)
        let generated = random.pattern()
        rng = random.rng
        return generated
    }
}

/// Draws the parts of a pattern from the property checker's seeded generator.
private struct RandomSource {
    var rng: any SeededRandomNumberGenerator

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func bool() -> Bool { Bool.random(using: &rng) }

    /// A number in a range, in one of the shapes AHAP files carry.
    mutating func number(in range: ClosedRange<Double>) -> Double {
        let raw: Double
        switch int(0...5) {
        case 0: raw = (Double.random(in: range, using: &rng) * 100).rounded() / 100
        case 1: raw = Double(Float(Double.random(in: range, using: &rng)))
        case 2: raw = Double.random(in: range, using: &rng).rounded()
        case 3: raw = range.lowerBound + Double.random(in: 0...1e-4, using: &rng)
        case 4: raw = [range.lowerBound, range.upperBound, 0].randomElement(using: &rng) ?? 0
        default: raw = Double.random(in: range, using: &rng)
        }
        return range.clamp(raw)
    }

    mutating func text(maxLength: Int) -> String {
        let alphabet: [Character] = ["a", "Z", "7", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{1F}", "é", "中", "😀", "\u{7F}", "{", "]", ","]
        return String((0..<int(0...maxLength)).map { _ in alphabet[int(0...(alphabet.count - 1))] })
    }

    mutating func pattern() -> HapticPattern {
        var pattern = HapticPattern(events: [])
        let elementCount = int(1...12)
        for _ in 0..<elementCount {
            switch int(0...5) {
            case 0...3: pattern.events.append(event())
            case 4: pattern.parameters.append(parameter())
            default: pattern.curves.append(curve())
            }
        }
        if bool() { pattern.metadata = metadata() }
        pattern.version = [1.0, 1.1, 1.05].randomElement(using: &rng) ?? 1
        return pattern
    }

    /// The latest start generated: with a 30 s event, a pattern stays within the 90 s the
    /// decoder finds plausible (longer ones are warned about as milliseconds typed as seconds).
    let plausibleStart = 50.0

    mutating func event() -> HapticEvent {
        let kind = HapticEvent.Kind.allCases.randomElement(using: &rng) ?? .transient
        let maxDuration = kind == .continuous || kind == .audioContinuous ? CoreHapticsLimits.maxContinuousDuration : 5
        var ids = HapticEvent.ParameterID.allCases.shuffled(using: &rng)
        ids.removeFirst(int(0...ids.count))
        var parameters = ids.map { HapticEvent.Parameter($0, number(in: $0.range)) }
        // A DecayTime on a sustained continuous event does nothing and is warned about (an
        // error in strict mode): such an event, as authors write it, decays.
        let decays = parameters.contains { $0.id == .decayTime && $0.value > 0 }
        if decays, kind == .continuous || kind == .audioContinuous {
            parameters.removeAll { $0.id == .sustained }
            parameters.append(HapticEvent.Parameter(.sustained, 0))
        }
        var audio: HapticEvent.AudioResource?
        if kind == .audioCustom {
            audio = HapticEvent.AudioResource(
                path: "sounds/" + text(maxLength: 8) + ".wav",
                usesVolumeEnvelope: bool() ? bool() : nil,
                loopEnabled: bool() ? bool() : nil)
        }
        return HapticEvent(kind, at: number(in: 0...plausibleStart), duration: number(in: 0...maxDuration), parameters: parameters, audio: audio)
    }

    mutating func parameter() -> HapticDynamicParameter {
        let id = HapticDynamicParameter.ID.allCases.randomElement(using: &rng) ?? .hapticIntensityControl
        return HapticDynamicParameter(id, number(in: id.range), at: number(in: 0...plausibleStart))
    }

    mutating func curve() -> HapticParameterCurve {
        let id = HapticDynamicParameter.ID.allCases.randomElement(using: &rng) ?? .hapticIntensityControl
        let times = (0..<int(1...CoreHapticsLimits.maxControlPoints)).map { _ in number(in: 0...10) }.sorted()
        return HapticParameterCurve(
            id, at: number(in: 0...plausibleStart),
            controlPoints: times.map {
                HapticParameterCurve.ControlPoint(at: $0, number(in: id.range))
            })
    }

    mutating func metadata() -> HapticPattern.Metadata {
        var metadata = HapticPattern.Metadata()
        if bool() { metadata.project = text(maxLength: 12) }
        if bool() { metadata.created = text(maxLength: 12) }
        if bool() { metadata.description = text(maxLength: 40) }
        for _ in 0..<int(0...3) {
            let key = "X-" + text(maxLength: 6)
            metadata.other[key] = text(maxLength: 10)
        }
        return metadata
    }
}
