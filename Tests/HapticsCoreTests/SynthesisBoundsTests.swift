import HapticsCore
import Testing

/// Patterns built in code reach synthesis without the AHAP reader's checks: what synthesis
/// can take is checked once, in the model (issue #24: one event at 1.9·10¹⁴ s trapped the audio
/// thread; NaN reached the device).
@Suite("Synthesis bounds of a pattern built in code")
struct SynthesisBoundsTests {
    static let hostile: [(String, HapticPattern)] = [
        ("event at 1e15 s", HapticPattern(events: [.transient(at: 1e15, intensity: 1, sharpness: 0.5)])),
        ("event at NaN", HapticPattern(events: [.transient(at: .nan, intensity: 1, sharpness: 0.5)])),
        ("infinite duration", HapticPattern(events: [.continuous(at: 0, duration: .infinity, intensity: 1, sharpness: 0.5)])),
        ("NaN intensity", HapticPattern(events: [.transient(at: 0, intensity: .nan, sharpness: 0.5)])),
        ("parameter at 1e300 s", HapticPattern(events: [], parameters: [HapticDynamicParameter(.hapticIntensityControl, 0.5, at: 1e300)])),
        ("infinite parameter value", HapticPattern(events: [], parameters: [HapticDynamicParameter(.hapticSharpnessControl, -.infinity, at: 0)])),
        ("curve point at NaN", HapticPattern(events: [], curves: [HapticParameterCurve(.hapticIntensityControl, at: 0, points: [(0, 1), (.nan, 0)])])),
    ]

    @Test("each non-finite or past-an-hour number is named with its element", arguments: hostile.map(\.0))
    func problemsAreNamed(name: String) throws {
        let pattern = try #require(Self.hostile.first { $0.0 == name }?.1)
        let problem = try #require(pattern.synthesisProblem)
        #expect(problem.hasPrefix("events[0]") || problem.hasPrefix("parameters[0]") || problem.hasPrefix("curves[0]"), "\(problem)")
    }

    @Test("a bounded copy has no problem left, and an ordinary pattern is returned unchanged", arguments: hostile.map(\.0))
    func boundedCopyIsPlayable(name: String) throws {
        let pattern = try #require(Self.hostile.first { $0.0 == name }?.1)
        #expect(pattern.boundedForSynthesis().synthesisProblem == nil)
        let ordinary = HapticPattern(events: [.continuous(at: 3599, duration: 1, intensity: 0.5, sharpness: 0.5)])
        #expect(ordinary.synthesisProblem == nil)
        #expect(ordinary.boundedForSynthesis() == ordinary)
    }
}
