import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport
import Testing

@Suite("CoreHaptics pattern dictionaries")
struct PatternDictionaryTests {
    @Test("a Key-typed dictionary literal, as Apple's sample code writes it, becomes the same pattern as the events")
    func keyTypedDictionary() throws {
        // Nested keys are written in full, as in Apple's articles: a nested literal has no
        // contextual type for `.event` (on iOS neither).
        let dict: [CHHapticPattern.Key: Any] = [
            .version: 1.0,
            .pattern: [
                [
                    CHHapticPattern.Key.event: [
                        CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticTransient,
                        CHHapticPattern.Key.time: CHHapticTimeImmediate,
                        CHHapticPattern.Key.eventParameters: [
                            [CHHapticPattern.Key.parameterID: CHHapticEvent.ParameterID.hapticIntensity, CHHapticPattern.Key.parameterValue: Float(0.6)],
                            [CHHapticPattern.Key.parameterID: CHHapticEvent.ParameterID.hapticSharpness, CHHapticPattern.Key.parameterValue: 0.3],
                        ],
                    ]
                ],
                [
                    CHHapticPattern.Key.event: [
                        CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticContinuous,
                        CHHapticPattern.Key.time: 0.2, CHHapticPattern.Key.eventDuration: 0.5,
                        CHHapticPattern.Key.eventParameters: [
                            [CHHapticPattern.Key.parameterID: CHHapticEvent.ParameterID.sustained, CHHapticPattern.Key.parameterValue: NSNumber(value: 1)]
                        ],
                    ]
                ],
                [
                    CHHapticPattern.Key.parameter: [
                        CHHapticPattern.Key.parameterID: CHHapticDynamicParameter.ID.hapticIntensityControl, CHHapticPattern.Key.time: 0.3,
                        CHHapticPattern.Key.parameterValue: 0.5,
                    ]
                ],
                [
                    CHHapticPattern.Key.parameterCurve: [
                        CHHapticPattern.Key.parameterID: CHHapticDynamicParameter.ID.hapticSharpnessControl, CHHapticPattern.Key.time: 0.2,
                        CHHapticPattern.Key.parameterCurveControlPoints: [
                            [CHHapticPattern.Key.time: 0, CHHapticPattern.Key.parameterValue: 0],
                            [CHHapticPattern.Key.time: 0.3, CHHapticPattern.Key.parameterValue: -0.5],
                        ],
                    ]
                ],
            ],
        ]
        let pattern = try CHHapticPattern(dictionary: dict)
        let native = pattern.hapticPattern
        #expect(native.events.count == 2)
        #expect(native.events[0].kind == .transient)
        #expect(native.events[0].value(of: .hapticIntensity) == 0.6, "a Float 0.6 reads as 0.6, not 0.6000000238")
        #expect(native.events[1].duration == 0.5)
        #expect(native.parameters == [HapticDynamicParameter(.hapticIntensityControl, 0.5, at: 0.3)])
        #expect(native.curves.first?.controlPoints.map(\.value) == [0, -0.5])
        #expect(abs(pattern.duration - 0.705) < 1e-9, "the continuous event ends after its 5 ms release")
    }

    @Test("a [String: Any] dictionary cast with as! to [CHHapticPattern.Key: Any] works, as JSONSerialization output does")
    func stringKeyedDictionary() throws {
        let stringKeyed: [String: Any] = [
            "Pattern": [
                ["Event": ["EventType": "HapticTransient", "Time": 0, "EventParameters": [["ParameterID": "HapticIntensity", "ParameterValue": 1]]]]
            ]
        ]
        // iOS code casts with `as!`; the key is NSString, to which Swift on Linux bridges String.
        let anyDictionary: Any = stringKeyed
        let pattern = try CHHapticPattern(dictionary: anyDictionary as! [CHHapticPattern.Key: Any])
        #expect(pattern.hapticPattern.events.map(\.kind) == [.transient])

        let ahap = Data(#"{"Version": 1, "Pattern": [{"Event": {"Time": 0.1, "EventType": "HapticContinuous", "EventDuration": 0.2}}]}"#.utf8)
        let json = try JSONSerialization.jsonObject(with: ahap) as! [CHHapticPattern.Key: Any]
        let fromJSON = try CHHapticPattern(dictionary: json)
        #expect(fromJSON.hapticPattern.events.first?.duration == 0.2)
        #expect(abs(fromJSON.duration - 0.305) < 1e-9, "a sustained event ends after its 5 ms release")
    }

    @Test("exportDictionary round-trips through init(dictionary:) and JSONSerialization")
    func exportRoundTrip() throws {
        let events = [
            CHHapticEvent(
                eventType: .hapticTransient, parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.7)],
                relativeTime: 0),
            CHHapticEvent(
                eventType: .hapticContinuous,
                parameters: [
                    CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.1),
                    CHHapticEventParameter(parameterID: .releaseTime, value: 0.3),
                ], relativeTime: 0.1, duration: 0.25),
        ]
        let curve = CHHapticParameterCurve(
            parameterID: .hapticIntensityControl,
            controlPoints: [
                CHHapticParameterCurve.ControlPoint(relativeTime: 0, value: 1),
                CHHapticParameterCurve.ControlPoint(relativeTime: 0.2, value: 0.2),
            ], relativeTime: 0.1)
        let pattern = try CHHapticPattern(events: events, parameterCurves: [curve])
        let exported = try pattern.exportDictionary()
        let elements = try #require(exported[.pattern] as? [[CHHapticPattern.Key: Any]])
        #expect(elements.count == 3)
        let first = try #require(elements[0][.event] as? [CHHapticPattern.Key: Any])
        #expect(first[.eventType] as? String == CHHapticEvent.EventType.hapticTransient.rawValue)
        let parameters = try #require(first[.eventParameters] as? [[CHHapticPattern.Key: Any]])
        #expect(parameters[0][.parameterValue] as? Float == 0.7)
        #expect((elements[1][.event] as? [CHHapticPattern.Key: Any])?[.time] as? Double == 0.1)

        let again = try CHHapticPattern(dictionary: exported)
        #expect(again.hapticPattern.events == pattern.hapticPattern.events)
        #expect(again.hapticPattern.curves == pattern.hapticPattern.curves)

        let json = try JSONSerialization.data(withJSONObject: exported)
        let decoded = try JSONSerialization.jsonObject(with: json) as! [CHHapticPattern.Key: Any]
        #expect(try CHHapticPattern(dictionary: decoded).duration == pattern.duration)
    }

    @Test("malformed dictionaries throw the code naming what is wrong")
    func dictionaryErrors() {
        expectError(.invalidPatternDictionary) { _ = try CHHapticPattern(dictionary: [.pattern: [Any]()]) }
        expectError(.invalidPatternDictionary) { _ = try CHHapticPattern(dictionary: [.version: 1.0]) }
        expectError(.invalidEventType) {
            _ = try CHHapticPattern(dictionary: [
                .pattern: [[CHHapticPattern.Key.event: [CHHapticPattern.Key.eventType: "HapticSplash", CHHapticPattern.Key.time: 0.0]]]
            ])
        }
        expectError(.invalidEventTime) {
            _ = try CHHapticPattern(dictionary: [
                .pattern: [
                    [CHHapticPattern.Key.event: [CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticTransient, CHHapticPattern.Key.time: -1.0]]
                ]
            ])
        }
        expectError(.invalidEventTime) {
            _ = try CHHapticPattern(dictionary: [
                .pattern: [[CHHapticPattern.Key.event: [CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticTransient]]]
            ])
        }
        expectError(.badEventEntry) { _ = try CHHapticPattern(dictionary: [.pattern: [[CHHapticPattern.Key.event: 5]]]) }
        expectError(.invalidPatternDictionary) {
            _ = try CHHapticPattern(dictionary: [
                .pattern: [
                    [CHHapticPattern.Key.event: [CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticTransient, CHHapticPattern.Key.time: Double.nan]]
                ]
            ])
        }
        expectError(.invalidPatternDictionary) {
            _ = try CHHapticPattern(dictionary: [
                .pattern: [
                    [CHHapticPattern.Key.event: [CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticTransient, CHHapticPattern.Key.time: Date()]]
                ]
            ])
        }
    }

    /// Found by the fuzz run: the key was quoted raw, so a key holding a line break broke the
    /// error in two.
    @Test("a value refused under a key holding a line break is named in one line", arguments: [false, true])
    func refusedValueUnderAnEscapedKey(notANumber: Bool) {
        let value: Any = notANumber ? Double.nan : Date()
        do {
            _ = try CHHapticPattern(dictionary: ["Pattern": [["Event": ["Time": 0, "EventType": "HapticTransient", "Ev\ntDuration": value]]]])
            Issue.record("\(value) was taken")
        } catch let error as CHHapticError {
            #expect(error.code == .invalidPatternDictionary)
            #expect(!error.message.contains { $0.isNewline }, "\(error.message)")
            #expect(error.message.hasSuffix("for 'Ev\\ntDuration'"), "\(error.message)")
        } catch {
            Issue.record("not a CHHapticError: \(error)")
        }
    }

    @Test("init(contentsOf:) reads an AHAP file; a missing one throws fileNotFound")
    func contentsOfFile() throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.file("pattern.ahap")
        try Data(#"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient",}},]}"#.utf8).write(to: url)
        let pattern = try CHHapticPattern(contentsOf: url)
        #expect(pattern.hapticPattern.events.count == 1, "trailing commas are accepted, as Core Haptics does")
        expectError(.fileNotFound) { _ = try CHHapticPattern(contentsOf: url.deletingLastPathComponent().appendingPathComponent("missing.ahap")) }
    }
}
