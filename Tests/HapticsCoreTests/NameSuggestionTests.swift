import Testing
@testable import HapticsCore

@Suite("Suggestions for misspelled keys and names")
struct NameSuggestionTests {
    @Test(
        "near misses find the intended name",
        arguments: [
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
        #expect(NameSuggestion.best(for: name, among: candidates) == expected)
    }

    @Test("unrelated names get no suggestion", arguments: ["Colour", "X", "Speed", ""])
    func unrelated(_ name: String) {
        #expect(NameSuggestion.best(for: name, among: AHAPKey.eventKeys) == nil)
    }

    @Test("edit distance counts insertions, deletions and substitutions")
    func editDistance() {
        func distance(_ a: String, _ b: String) -> Int {
            NameSuggestion.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
        }
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("", "abc") == 3)
        #expect(distance("Event", "Event") == 0)
        #expect(distance("Evnt", "Event") == 1)
        #expect(distance("impcat", "impact") == 1, "an adjacent transposition is one edit")
        #expect(distance("ca", "abc") == 3)
    }

    @Test(
        "preset names, settings keys and categories: case, '-' and '_' are ignored, swaps are one edit",
        arguments: [
            ("sucess", ["success", "error", "warning"], "success"),
            ("levle-change", ["levelChange", "impact"], "levelChange"),
            ("Level_Change", ["impact", "levelChange"], "levelChange"),
            ("impcat", ["impact", "selection"], "impact"),
            ("intesity", ["enabled", "intensity", "categories", "device", "profile"], "intensity"),
            ("notifications", ["impact", "notification", "selection"], "notification"),
            ("maxFrequncy", ["minFrequency", "maxFrequency", "gain"], "maxFrequency"),
        ])
    func names(_ name: String, _ candidates: [String], _ expected: String) {
        #expect(NameSuggestion.best(for: name, among: candidates) == expected)
    }

    @Test(
        "words unlike every candidate get no suggestion",
        arguments: [
            ("volume", ["enabled", "intensity", "categories", "device", "profile"]),
            ("xylophone", ["success", "warning", "error", "selection", "impact"]),
            ("colour", ["name", "minFrequency", "maxFrequency", "gain"]),
        ])
    func noNames(_ name: String, _ candidates: [String]) {
        #expect(NameSuggestion.best(for: name, among: candidates) == nil)
    }
}
