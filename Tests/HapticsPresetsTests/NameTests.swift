import Testing
@testable import HapticsPresets

@Suite("Finding presets by name")
struct NameTests {
    /// Every kind the reference lists (SwiftUI, UIKit, watchOS, Android), with the preset that
    /// plays it; the library's aliases and the enum's cases must agree with this.
    static let platformNames: [(name: String, preset: String)] = [
        // SwiftUI SensoryFeedback
        ("success", "success"), ("warning", "warning"), ("error", "error"), ("selection", "selection"),
        ("increase", "increase"), ("decrease", "decrease"), ("start", "start"), ("stop", "stop"),
        ("alignment", "alignment"), ("levelChange", "levelChange"), ("pathComplete", "pathComplete"),
        ("impact", "impact"),
        // UIKit impact styles
        ("light", "light"), ("medium", "impact"), ("heavy", "heavy"), ("soft", "soft"), ("rigid", "rigid"),
        // SwiftUI flexibility
        ("solid", "impact"),
        // watchOS WKHapticType
        ("notification", "notification"), ("directionUp", "increase"), ("directionDown", "decrease"),
        ("failure", "error"), ("retry", "retry"), ("click", "selection"),
        // Android HapticFeedbackConstants
        ("confirm", "confirm"), ("reject", "reject"), ("tick", "selection"), ("textureTick", "textureTick"),
        ("longPress", "longPress"), ("toggleOn", "toggleOn"), ("toggleOff", "toggleOff"),
    ]

    @Test("every platform's kind resolves to its preset", arguments: platformNames)
    func platformNameResolves(name: String, preset: String) throws {
        let info = try #require(PresetLibrary.info(named: name))
        #expect(info.name == preset)
        let feedback = try #require(HapticFeedback(name: name))
        #expect(feedback.presetName == preset)
    }

    @Test(
        "names ignore case, hyphens and underscores",
        arguments: [
            ("level-change", "levelChange"), ("level_change", "levelChange"), ("LEVELCHANGE", "levelChange"),
            ("Path-Complete", "pathComplete"), ("texture_tick", "textureTick"), ("long-press", "longPress"),
            ("toggle_off", "toggleOff"), ("direction-up", "increase"), ("SUCCESS", "success"),
        ])
    func spellingVariants(name: String, preset: String) {
        #expect(PresetLibrary.info(named: name)?.name == preset)
        #expect(HapticFeedback(name: name)?.presetName == preset)
    }

    @Test("unknown names resolve to nothing, with a hint for near misses")
    func unknownNames() {
        for name in ["", "nosuch", "succes s", "impact(", "ahap", "Patterns/success.ahap"] {
            #expect(PresetLibrary.info(named: name) == nil, "\(name)")
            #expect(HapticFeedback(name: name) == nil, "\(name)")
        }
        #expect(PresetLibrary.suggestion(for: "sucess") == "success")
        #expect(PresetLibrary.suggestion(for: "levelchnage") == "levelChange")
        #expect(PresetLibrary.suggestion(for: "xylophone") == nil)
    }

    @Test("the list holds every preset once, and every name and alias is listed")
    func listIsComplete() {
        let all = PresetLibrary.all
        #expect(Set(all.map(\.name)).count == all.count)
        let listed = Set(all.flatMap { [$0.name] + $0.aliases })
        for (name, _) in Self.platformNames where !["light", "heavy", "soft", "rigid"].contains(name) {
            #expect(listed.contains(name), "\(name) is neither a preset nor an alias in `haptics list`")
        }
        #expect(all.count == HapticFeedback.presets.count)
    }

    @Test("the Swift cases and the pattern files are the same set")
    func casesMatchFiles() {
        let fromCases = HapticFeedback.presets.map(\.presetName)
        #expect(Set(fromCases).count == fromCases.count)
        #expect(Set(fromCases) == Set(PresetLibrary.all.map(\.name)))
        for info in PresetLibrary.all {
            #expect(HapticFeedback(name: info.name)?.presetName == info.name)
            for alias in info.aliases {
                #expect(HapticFeedback(name: alias)?.presetName == info.name, "\(alias)")
            }
        }
    }

    @Test("the list is grouped by category, notifications first")
    func listOrder() {
        let categories = PresetLibrary.all.map(\.category)
        let positions = categories.map { PresetCategory.allCases.firstIndex(of: $0) ?? -1 }
        #expect(positions == positions.sorted())
        #expect(PresetLibrary.all.first?.name == "success")
    }

    @Test(
        "the textual impact forms parse",
        arguments: [
            ("impact(weight: heavy, intensity: 0.7)", HapticFeedback.impact(weight: .heavy, intensity: 0.7)),
            (".impact(weight: .light)", .impact(weight: .light)),
            ("impact(flexibility: soft, intensity: 0.25)", .impact(flexibility: .soft, intensity: 0.25)),
            ("impact(intensity: 0.5)", .impact(intensity: 0.5)),
            ("impact()", .impact),
            ("heavy(intensity: 0.5)", .impact(weight: .heavy, intensity: 0.5)),
            ("rigid", .impact(flexibility: .rigid)),
            ("solid", .impact(flexibility: .solid)),
            ("medium", .impact(weight: .medium)),
        ])
    func textualForms(text: String, expected: HapticFeedback) {
        #expect(HapticFeedback(name: text) == expected)
    }

    @Test(
        "malformed textual forms are rejected",
        arguments: [
            "impact(weight: huge)", "impact(intensity: 2)", "impact(intensity: -0.1)", "impact(intensity: x)",
            "success(intensity: 0.5)", "impact(weight: heavy, flexibility: soft)", "impact(weight: heavy",
            "heavy(weight: light)", "impact(weight: heavy, weight: light)", "impact(colour: red)", "nosuch(intensity: 1)",
        ])
    func malformedTextualForms(text: String) {
        #expect(HapticFeedback(name: text) == nil)
    }

    @Test("every feedback's description reads back as the same feedback")
    func descriptionRoundTrips() {
        var values = HapticFeedback.presets
        for intensity in [0, 0.1, 0.25, 1.0 / 3, 0.7, 1] {
            values += HapticFeedback.Weight.allCases.map { .impact(weight: $0, intensity: intensity) }
            values += HapticFeedback.Flexibility.allCases.map { .impact(flexibility: $0, intensity: intensity) }
        }
        for value in values {
            #expect(HapticFeedback(name: value.description) == value, "\(value.description)")
        }
        #expect(HapticFeedback.impact(weight: .heavy, intensity: 0.7).description == "impact(weight: heavy, intensity: 0.7)")
        #expect(HapticFeedback.impact.description == "impact")
    }

    @Test("static aliases are the same feedback as the name lookup")
    func staticAliases() {
        #expect(HapticFeedback.failure == HapticFeedback(name: "failure"))
        #expect(HapticFeedback.directionUp == HapticFeedback(name: "directionUp"))
        #expect(HapticFeedback.directionDown == HapticFeedback(name: "directionDown"))
        #expect(HapticFeedback.click == HapticFeedback(name: "click"))
        #expect(HapticFeedback.tick == HapticFeedback(name: "tick"))
        #expect(HapticFeedback.light == HapticFeedback(name: "light"))
        #expect(HapticFeedback.heavy == HapticFeedback(name: "heavy"))
        #expect(HapticFeedback.rigid == HapticFeedback(name: "rigid"))
        #expect(HapticFeedback.soft == HapticFeedback(name: "soft"))
        #expect(HapticFeedback.medium.presetName == "impact")
    }

    @Test("weight and flexibility apply only to the plain impact")
    func parameterRules() {
        #expect(HapticFeedback.impact.with(weight: .heavy) == .impact(weight: .heavy))
        #expect(HapticFeedback.impact.with(flexibility: .soft, intensity: 0.5) == .impact(flexibility: .soft, intensity: 0.5))
        #expect(HapticFeedback.heavy.with(weight: .light) == nil)
        #expect(HapticFeedback.rigid.with(weight: .light) == nil)
        #expect(HapticFeedback.impact.with(weight: .light, flexibility: .soft) == nil)
        #expect(HapticFeedback.success.with(weight: .light) == nil)
        #expect(HapticFeedback.success.with(intensity: 0.5) == nil)
        #expect(HapticFeedback.heavy.with(intensity: 0.5) == .impact(weight: .heavy, intensity: 0.5))
    }
}
