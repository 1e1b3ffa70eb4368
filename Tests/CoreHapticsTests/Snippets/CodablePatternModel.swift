// A Codable pattern model as iOS apps write them: coding keys typed by Core Haptics' own key
// type (`CHHapticPattern.Key.RawValue`), decoded from AHAP JSON and turned into a pattern
// through a dictionary of `CHHapticPattern.Key`s.
import CoreHaptics
import Foundation
import HapticsTestSupport
import Testing

struct HapticModel: Codable {
    struct Element: Codable {
        let event: Event?
        enum CodingKeys: CHHapticPattern.Key.RawValue, CodingKey {
            case event = "Event"
        }
    }

    struct Event: Codable {
        let time: Double
        let eventType: String
        let intensity: Float?
        enum CodingKeys: CHHapticPattern.Key.RawValue, CodingKey {
            case time = "Time"
            case eventType = "EventType"
            case intensity = "Intensity"
        }
    }

    let version: Double
    let pattern: [Element]
    enum CodingKeys: CHHapticPattern.Key.RawValue, CodingKey {
        case version = "Version"
        case pattern = "Pattern"
    }

    /// The model as Core Haptics' dictionary.
    var dictionary: [CHHapticPattern.Key: Any] {
        [
            .version: version,
            .pattern: pattern.compactMap(\.event).map { event -> [CHHapticPattern.Key: Any] in
                [
                    .event: [
                        .time: event.time, .eventType: event.eventType,
                        .eventParameters: [
                            [CHHapticPattern.Key.parameterID: CHHapticEvent.ParameterID.hapticIntensity.rawValue, .parameterValue: event.intensity ?? 1]
                        ],
                    ] as [CHHapticPattern.Key: Any]
                ]
            },
        ]
    }
}

@Suite("CoreHaptics snippet: a Codable pattern model with CHHapticPattern.Key.RawValue coding keys")
struct CodablePatternModelTests {
    @Test("the model decodes from JSON and plays its two taps, the second at its own intensity")
    func codableModelPlays() throws {
        let json = #"{"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "Intensity": 1}}, {"Event": {"Time": 0.1, "EventType": "HapticTransient", "Intensity": 0.5}}]}"#
        let model = try JSONDecoder().decode(HapticModel.self, from: Data(json.utf8))
        #expect(HapticModel.CodingKeys.pattern.rawValue == CHHapticPattern.Key.pattern.rawValue)
        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let engine = try CHHapticEngine()
            return try withExtendedLifetime(engine) {
                try engine.start()
                try playWithLocalPlayer(try CHHapticPattern(dictionary: model.dictionary), on: engine)
                return try output.samples(seconds: engine.currentTime + 0.3)
            }
        }
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 2, "onsets \(onsets)")
        #expect(onsets[1] - onsets[0] == 4_800)
        #expect(abs(Taps.peak(x, at: onsets[1]) - 0.25) < 0.02, "0.5², the second tap's own intensity")
    }

    @Test("JSONSerialization's dictionaries cast to [CHHapticPattern.Key: Any], and exported dictionaries are valid JSON")
    func jsonIdiomsWork() throws {
        let json = try JSONSerialization.jsonObject(with: Data(#"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}}]}"#.utf8))
        let dictionary = try #require(json as? [CHHapticPattern.Key: Any])
        let pattern = try CHHapticPattern(dictionary: dictionary)
        #expect(JSONSerialization.isValidJSONObject(try pattern.exportDictionary()))
    }
}
