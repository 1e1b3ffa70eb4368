import CoreHaptics
import Foundation
import Testing

// An app's own `String` members with Apple's key names, as a second module (or the app) may
// declare them. With `CHHapticPattern.Key` being `String`, `.event` in a pattern dictionary was
// this "my event" (or ambiguous, with two modules) and `rawValue` clashed.
extension String {
    fileprivate static let event = "my event"
    fileprivate static let time = "my time"
    fileprivate var rawValue: Int { utf8.count }
}

// Overloads on both dictionary types: one declaration (a redeclaration error) while `Key` was
// `String`.
private func keyKind(_ dictionary: [String: Any]) -> String { "String" }
private func keyKind(_ dictionary: [CHHapticPattern.Key: Any]) -> String { "Key" }

@Suite("CHHapticPattern.Key is a type of its own: String gains nothing, and both JSON idioms of iOS code work")
struct PatternKeyTests {
    /// A one-tap pattern dictionary written as Apple's samples write it (computed: a
    /// dictionary of `Any` is not `Sendable`, so it cannot be a stored static).
    static var tap: [CHHapticPattern.Key: Any] {
        [
            .pattern: [
                [
                    CHHapticPattern.Key.event: [CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticTransient, .time: 0.25]
                        as [CHHapticPattern.Key: Any]
                ]
            ]
        ]
    }

    @Test("an app's own String.event, String.time and String.rawValue neither change nor clash with the pattern keys")
    func stringMembersAreTheApps() throws {
        #expect(String.event == "my event" && String.time == "my time")
        let plain = "Event"
        #expect(plain.rawValue == 5, "String.rawValue is the app's, not the library's")
        #expect(CHHapticPattern.Key.event.rawValue == "Event" && CHHapticPattern.Key.time.rawValue == "Time")
        let pattern = try CHHapticPattern(dictionary: Self.tap)
        #expect(pattern.hapticPattern.events.map(\.relativeTime) == [0.25])
    }

    @Test("overloads on [String: Any] and [CHHapticPattern.Key: Any] are two functions, each chosen by its keys")
    func overloadsAreDistinct() {
        #expect(keyKind([.pattern: 1]) == "Key")
        #expect(keyKind(Self.tap) == "Key")
        #expect(keyKind(["Pattern": 1] as [String: Any]) == "String")
    }

    @Test("JSONSerialization's [String: Any] casts to [CHHapticPattern.Key: Any] (as? and as!) and goes straight into init(dictionary:)")
    func jsonSerializationResults() throws {
        let ahap = Data(#"{"Pattern": [{"Event": {"Time": 0.5, "EventType": "HapticContinuous", "EventDuration": 0.2}}]}"#.utf8)
        let json = try JSONSerialization.jsonObject(with: ahap)
        let keyed = try #require(json as? [CHHapticPattern.Key: Any])
        #expect(keyed[.pattern] != nil && keyed["Pattern"] != nil)
        let forced = json as! [CHHapticPattern.Key: Any]
        let stringKeyed = try #require(json as? [String: Any])
        for pattern in [try CHHapticPattern(dictionary: keyed), try CHHapticPattern(dictionary: forced), try CHHapticPattern(dictionary: stringKeyed)] {
            #expect(pattern.hapticPattern.events.map(\.relativeTime) == [0.5])
            #expect(pattern.hapticPattern.events.map(\.duration) == [0.2])
        }
    }

    @Test("exportDictionary's result is valid JSON for JSONSerialization and casts to [String: Any]")
    func exportedDictionaryIsJSON() throws {
        let exported = try CHHapticPattern(dictionary: Self.tap).exportDictionary()
        #expect(JSONSerialization.isValidJSONObject(exported))
        let data = try JSONSerialization.data(withJSONObject: exported, options: [.sortedKeys])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""EventType":"HapticTransient""#) && text.contains(#""Time":0.25"#), "\(text)")
        let strings = try #require(exported as Any as? [String: Any])
        #expect(Set(strings.keys) == ["Version", "Pattern"])
        let again = try CHHapticPattern(dictionary: try #require(try JSONSerialization.jsonObject(with: data) as? [CHHapticPattern.Key: Any]))
        #expect(again.hapticPattern.events.map(\.relativeTime) == [0.25])
    }

    @Test("keys made from strings equal Apple's constants, as literals and by init(rawValue:)")
    func keysFromStrings() {
        let literal: CHHapticPattern.Key = "EventDuration"
        #expect(literal == .eventDuration && CHHapticPattern.Key(rawValue: "EventDuration") == .eventDuration)
        #expect(Set<CHHapticPattern.Key>([.event, "Event", CHHapticPattern.Key(rawValue: "Event")]).count == 1)
        let dictionary: [CHHapticPattern.Key: Any] = ["ParameterCurve": 1]
        #expect(dictionary[.parameterCurve] as? Int == 1)
        #expect("\(CHHapticPattern.Key.parameterCurveControlPoints)" == "ParameterCurveControlPoints")
    }
}
