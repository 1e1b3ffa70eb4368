import Foundation
import Testing
import HapticsCore

@Suite("A decoded pattern's duration is what Core Haptics computes")
struct PatternDurationTests {
    @Test("the latest of event ends, parameter times and curve ends")
    func latestElementWins() throws {
        let base = """
            { "Event": { "Time": 0.5, "EventType": "HapticTransient", "EventDuration": 0.1 } },
            { "Parameter": { "ParameterID": "HapticIntensityControl", "Time": 0.7, "ParameterValue": 1 } },
            { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0.2,
                "ParameterCurveControlPoints": [ { "Time": 0, "ParameterValue": 1 }, { "Time": 0.6, "ParameterValue": 0 } ] } }
            """
        // Curve: 0.2 + 0.6.
        #expect(try decode(document(base)).pattern.duration == 0.2 + 0.6)
        // A later parameter.
        let parameter = ", { \"Parameter\": { \"ParameterID\": \"HapticSharpnessControl\", \"Time\": 0.9, \"ParameterValue\": 0 } }"
        #expect(try decode(document(base + parameter)).pattern.duration == 0.9)
        // A transient's duration pads the pattern.
        #expect(try decode(document(base + ", " + transient(at: "0.95", extra: "\"EventDuration\": 0.1"))).pattern.duration == 0.95 + 0.1)
    }

    @Test("a sustained continuous event ends after its duration plus its release")
    func sustainedRelease() throws {
        let json = document(
            """
            { "Event": { "Time": 1, "EventType": "HapticContinuous", "EventDuration": 0.5,
                         "EventParameters": [ { "ParameterID": "ReleaseTime", "ParameterValue": 0.5 } ] } }
            """)
        // Release 0.5 lasts 5 ms × 1000^0.5.
        let release = 0.005 * pow(1000, 0.5)
        #expect(abs(try decode(json).pattern.duration - (1.5 + release)) < 1e-12)
    }

    @Test("a non-sustained continuous event ends after attack and decay when they come first")
    func nonSustainedDecay() throws {
        let json = document(
            """
            { "Event": { "Time": 0, "EventType": "HapticContinuous", "EventDuration": 2,
                         "EventParameters": [ { "ParameterID": "Sustained", "ParameterValue": 0 },
                                              { "ParameterID": "AttackTime", "ParameterValue": 0 },
                                              { "ParameterID": "DecayTime", "ParameterValue": 0 } ] } }
            """)
        #expect(try decode(json).pattern.duration == 0.005 + 0.005)
    }

    @Test("the order of elements in the file does not matter")
    func orderDoesNotMatter() throws {
        let late = transient(at: "2")
        let early = transient(at: "0.5", extra: "\"EventDuration\": 0.25")
        #expect(try decode(document(late + ", " + early)).pattern.duration == 2)
        #expect(try decode(document(early + ", " + late)).pattern.duration == 2)
    }
}
