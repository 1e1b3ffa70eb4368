import Foundation
import Testing
@testable import HapticsCore

@Suite("Canonical AHAP encoding")
struct AHAPEncoderTests {
    private let pattern = HapticPattern(
        events: [
            HapticEvent(.continuous, at: 0.5, duration: 0.25, parameters: [.init(.hapticSharpness, 0.1), .init(.hapticIntensity, 1)]),
            HapticEvent(.audioCustom, at: 0, parameters: [], audio: .init(path: "pop \"big\".wav", loopEnabled: false)),
        ],
        parameters: [HapticDynamicParameter(.hapticIntensityControl, 0.4, at: 1)],
        curves: [HapticParameterCurve(.hapticSharpnessControl, at: 0.125, points: [(0, -0.5), (1e-05, 0.3)])],
        metadata: HapticPattern.Metadata(project: "Demo", description: "line\nbreak", other: ["Zeta": "z", "Alpha": "a"])
    )

    @Test("the output has Core Haptics' key order, two-space indentation and a trailing newline")
    func canonicalText() {
        let expected = #"""
            {
              "Version": 1.0,
              "Metadata": {
                "Project": "Demo",
                "Description": "line\nbreak",
                "Alpha": "a",
                "Zeta": "z"
              },
              "Pattern": [
                {
                  "Event": {
                    "Time": 0.5,
                    "EventType": "HapticContinuous",
                    "EventDuration": 0.25,
                    "EventParameters": [
                      { "ParameterID": "HapticSharpness", "ParameterValue": 0.1 },
                      { "ParameterID": "HapticIntensity", "ParameterValue": 1.0 }
                    ]
                  }
                },
                {
                  "Event": {
                    "Time": 0.0,
                    "EventType": "AudioCustom",
                    "EventDuration": 0.0,
                    "EventParameters": [],
                    "EventWaveformPath": "pop \"big\".wav",
                    "EventWaveformLoopEnabled": false
                  }
                },
                {
                  "Parameter": {
                    "ParameterID": "HapticIntensityControl",
                    "Time": 1.0,
                    "ParameterValue": 0.4
                  }
                },
                {
                  "ParameterCurve": {
                    "ParameterID": "HapticSharpnessControl",
                    "Time": 0.125,
                    "ParameterCurveControlPoints": [
                      { "Time": 0.0, "ParameterValue": -0.5 },
                      { "Time": 1e-05, "ParameterValue": 0.3 }
                    ]
                  }
                }
              ]
            }

            """#
        #expect(AHAPEncoder().encodeText(pattern) == expected)
    }

    @Test("the output is strict JSON that decodes to the same pattern without a diagnostic")
    func roundTrip() throws {
        let document = try AHAPDecoder(mode: .strict).decode(AHAPEncoder().encode(pattern))
        #expect(document.diagnostics.isEmpty)
        #expect(document.pattern == pattern)
        let foundation = try JSONSerialization.jsonObject(with: pattern.ahapData)
        #expect(foundation is [String: Any])
    }

    @Test("empty metadata is left out")
    func emptyMetadata() {
        let text = AHAPEncoder().encodeText(HapticPattern(events: [.transient(at: 0)]))
        #expect(!text.contains("Metadata"))
        #expect(text.hasPrefix("{\n  \"Version\": 1.0,\n  \"Pattern\": [\n"))
    }

    @Test("audio keys appear only on AudioCustom events")
    func audioKeysOnlyForAudioCustom() {
        var event = HapticEvent.transient(at: 0)
        event.audio = .init(path: "stray.wav")
        let text = AHAPEncoder().encodeText(HapticPattern(events: [event]))
        #expect(!text.contains("EventWaveform"))
    }

    @Test("strings with quotes, backslashes, control characters and Unicode survive")
    func stringEscaping() throws {
        let awkward = "q\"b\\s/\u{01}\t\u{7F}é😀\u{2028}"
        #expect(JSONText.quoted(awkward) == "\"q\\\"b\\\\s/\\u0001\\t\u{7F}é😀\u{2028}\"")
        let pattern = HapticPattern(events: [.transient(at: 0)], metadata: .init(project: awkward, other: [awkward: awkward]))
        #expect(try HapticPattern(ahap: pattern.ahapData, mode: .strict) == pattern)
    }

    @Test("numbers are written in their shortest exact form")
    func numbers() {
        #expect(JSONText.number(1) == "1.0")
        #expect(JSONText.number(0.1) == "0.1")
        #expect(JSONText.number(0.20000000298023224) == "0.20000000298023224")
        #expect(JSONText.number(-0.0) == "0.0")
        #expect(JSONText.number(1e-7) == "1e-07")
        #expect(JSONText.number(.nan) == "0.0")
        #expect(JSONText.number(.infinity) == "0.0")
    }

    @Test("metadata keys of the dedicated fields are not written twice")
    func reservedMetadataKeys() throws {
        let pattern = HapticPattern(events: [.transient(at: 0)], metadata: .init(project: "Real", other: ["Project": "Shadow"]))
        let decoded = try HapticPattern(ahap: pattern.ahapData, mode: .strict)
        #expect(decoded.metadata == .init(project: "Real"))
    }
}
