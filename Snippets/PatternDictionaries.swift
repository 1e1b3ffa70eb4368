import CoreHaptics

// A pattern dictionary as iOS code writes it, keyed by CHHapticPattern.Key.
let tap: [CHHapticPattern.Key: Any] = [
    .pattern: [
        [CHHapticPattern.Key.event: [
            CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticTransient,
            CHHapticPattern.Key.time: 0.0,
        ]],
    ],
]
let pattern = try CHHapticPattern(dictionary: tap)

// AHAP JSON through JSONSerialization, both ways, as on iOS.
let data = try JSONSerialization.data(withJSONObject: try pattern.exportDictionary())
let json = try JSONSerialization.jsonObject(with: data)
let again = try CHHapticPattern(dictionary: json as! [CHHapticPattern.Key: Any])
let same = try CHHapticPattern(dictionary: json as! [String: Any])

// Codable models name their keys with the key's raw value.
enum CodingKeys: CHHapticPattern.Key.RawValue, CodingKey {
    case pattern = "Pattern"
}
print(again.duration == pattern.duration && same.duration == pattern.duration)
