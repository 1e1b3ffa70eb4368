import Testing
@testable import HapticsCore

@Suite("Suggestions for misspelled keys and names")
struct KeySuggestionTests {
    @Test("near misses find the intended name", arguments: [
        ("ParameterCurves", AHAPKey.elementKeys, "ParameterCurve"),
        ("Evnt", AHAPKey.elementKeys, "Event"),
        ("parameter", AHAPKey.elementKeys, "Parameter"),
        ("EventDuratoin", AHAPKey.eventKeys, "EventDuration"),
        ("Patern", AHAPKey.topLevelKeys, "Pattern"),
        ("HapticIntensty", HapticEvent.ParameterID.allCases.map(\.rawValue), "HapticIntensity"),
        ("HapticIntensityControl", HapticEvent.ParameterID.allCases.map(\.rawValue), "HapticIntensity"),
        ("HapticSharpness", HapticDynamicParameter.ID.allCases.map(\.rawValue), "HapticSharpnessControl"),
    ])
    func nearMisses(_ name: String, _ candidates: [String], _ expected: String) {
        #expect(KeySuggestion.best(for: name, among: candidates) == expected)
    }

    @Test("unrelated names get no suggestion", arguments: ["Colour", "X", "Speed", ""])
    func unrelated(_ name: String) {
        #expect(KeySuggestion.best(for: name, among: AHAPKey.eventKeys) == nil)
    }

    @Test("edit distance counts insertions, deletions and substitutions")
    func editDistance() {
        func distance(_ a: String, _ b: String) -> Int {
            KeySuggestion.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
        }
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("", "abc") == 3)
        #expect(distance("Event", "Event") == 0)
        #expect(distance("Evnt", "Event") == 1)
    }
}
