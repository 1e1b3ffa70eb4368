import Foundation
import HapticsCore
import HapticsTestSupport
import Testing

/// The AHAP reader under seeded mutational fuzzing (time-bounded; `scripts/fuzz.sh` runs it for
/// longer with fresh seeds), and the inputs that once broke it, replayed on every run.
@Suite("Damaged AHAP files never crash the reader")
struct AHAPFuzzTests {
    static let seeds = [
        #"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.4}]}}]}"#,
        """
        {
          "Version": 1.0,
          "Metadata": { "Project": "fuzz", "Description": "two events, a parameter, a curve" },
          "Pattern": [
            { "Event": { "Time": 0.2, "EventType": "HapticContinuous", "EventDuration": 0.5,
                         "EventParameters": [ { "ParameterID": "AttackTime", "ParameterValue": 0.2 },
                                              { "ParameterID": "Sustained", "ParameterValue": 0 }, ] } },
            { "Event": { "Time": 0.1, "EventType": "AudioCustom", "EventWaveformPath": "pop.wav",
                         "EventWaveformUseVolumeEnvelope": true, "EventWaveformLoopEnabled": false } },
            { "Parameter": { "ParameterID": "HapticIntensityControl", "Time": 0.5, "ParameterValue": 0.5 } },
            { "ParameterCurve": { "ParameterID": "HapticSharpnessControl", "Time": 0.2,
                                  "ParameterCurveControlPoints": [ { "Time": 0, "ParameterValue": 0 },
                                                                   { "Time": 0.3, "ParameterValue": 0.5 } ] } }
          ]
        }
        """,
        #"{"Pattern": [{"Event": {"EventTime": 1e-3, "EventType": "AudioContinuous", "EventDuration": 30, "EventWaveformPath": null}}]}"#,
    ]

    static let words = [
        "\"Pattern\": ", "\"Event\": ", "\"Time\": ", "\"EventType\": ", "\"EventDuration\": ", "\"EventParameters\": ",
        "\"ParameterID\": ", "\"ParameterValue\": ", "\"ParameterCurve\": ", "\"ParameterCurveControlPoints\": ",
        "\"HapticTransient\"", "\"HapticContinuous\"", "\"AudioCustom\"", "\"HapticIntensityControl\"",
        "\"Parameter\": ", "\"Version\": ", ", ", "[", "]", "{", "}",
    ]

    /// One input, in both modes: it decodes with warnings of one line each, or fails with
    /// errors of one line each, the first an error naming the source.
    static func check(_ bytes: [UInt8], label: String) -> FuzzOutcome {
        var outcome = FuzzOutcome.failed
        for mode in ValidationMode.allCases {
            do throws(AHAPError) {
                let document = try AHAPDecoder(mode: mode).decode(Data(bytes), source: "fuzz.ahap")
                outcome = .loaded
                let clean =
                    !document.pattern.isEmpty
                    && document.diagnostics.allSatisfy { $0.severity == .warning && !$0.description.contains(where: \.isNewline) }
                #expect(clean, "\(label): \(document.diagnostics)")
                if !clean { return .failed }
            } catch {
                outcome = .refused
                #expect(error.diagnostics.first?.severity == .error, "\(label): \(error.diagnostics)")
                let clean =
                    error.diagnostics.first?.severity == .error && !error.diagnostics.map(\.message).contains("")
                    && error.diagnostics.allSatisfy { FuzzRun.refusal($0.description, .source("fuzz.ahap"), label: label) == .refused }
                if !clean { return .failed }
            }
        }
        return outcome
    }

    @Test("every damaged AHAP file decodes or fails with located one-line diagnostics", .timeLimit(.minutes(2)))
    func damagedFiles() {
        let run = FuzzRun(reader: "ahap", defaultSeconds: 5, defaultSeed: 0xA4A9_F022)
        let (loaded, refused) = run.mutate(seeds: Self.seeds, words: Self.words, check: Self.check)
        #expect(loaded > 0 && refused > 0, "the mutations both keep and break files (\(loaded) loaded, \(refused) refused)")
    }

    @Test("inputs that once broke the reader (Tests/FuzzCorpus/ahap) decode or fail with one-line diagnostics")
    func corpus() {
        let inputs = FuzzRun.corpus("ahap")
        #expect(!inputs.isEmpty, "the corpus folder is missing")
        for (name, bytes) in inputs {
            #expect(Self.check(bytes, label: name) != FuzzOutcome.failed, "\(name)")
        }
    }
}
