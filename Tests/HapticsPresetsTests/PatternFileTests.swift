import Foundation
import Testing
import HapticsCore
@testable import HapticsPresets

@Suite("The authored pattern files")
struct PatternFileTests {
    static let names = embeddedPatterns.map(\.name)

    @Test("every pattern file decodes in strict mode without a single diagnostic", arguments: names)
    func decodesStrictly(name: String) throws {
        let source = try #require(PresetLibrary.source(named: name))
        do {
            let document = try AHAPDecoder(mode: .strict).decode(Data(source.utf8), source: "Patterns/\(name).ahap")
            #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
        } catch {
            Issue.record("Patterns/\(name).ahap: \(error)")
        }
    }

    @Test("the library decoded every embedded pattern")
    func libraryHasNoProblems() {
        #expect(PresetLibrary.problems.isEmpty, "\(PresetLibrary.problems)")
    }

    @Test("every pattern follows the authoring rules", arguments: names)
    func authoringRules(name: String) throws {
        let pattern = try #require(PresetLibrary.authoredPattern(named: name))
        #expect(pattern.version == 1.0)
        #expect(pattern.metadata.project == "haptics")
        #expect(pattern.metadata.created != nil)
        #expect(pattern.metadata.description?.isEmpty == false)
        #expect(!pattern.events.isEmpty)
        #expect(pattern.duration < 0.5, "\(name) lasts \(pattern.duration) s")
        for event in pattern.events {
            #expect(event.kind.isHaptic, "\(name): presets are haptic only")
            for id in [HapticEvent.ParameterID.hapticIntensity, .hapticSharpness] {
                let written = event.parameters.filter { $0.id == id }
                #expect(written.count == 1, "\(name) at \(event.relativeTime) s: \(id.rawValue) must be written once")
                #expect(written.allSatisfy { (0...1).contains($0.value) }, "\(name): \(id.rawValue) out of range")
            }
        }
    }
}

@Suite("Presets as patterns")
struct PresetPatternTests {
    func intensities(_ pattern: HapticPattern) -> [Double] {
        pattern.events.map { $0.value(of: .hapticIntensity) }
    }

    @Test("intensity scales every event's intensity, in the intensity domain")
    func intensityScales() throws {
        let authored = try #require(PresetLibrary.authoredPattern(named: "heavy"))
        let half = HapticPattern(feedback: .impact(weight: .heavy, intensity: 0.5), settings: .standard)
        #expect(intensities(half) == intensities(authored).map { $0 * 0.5 })
        #expect(half.events.map { $0.value(of: .hapticSharpness) } == authored.events.map { $0.value(of: .hapticSharpness) })
        let named = try #require(PresetLibrary.pattern(named: "success", intensity: 0.25, settings: .standard))
        let success = try #require(PresetLibrary.authoredPattern(named: "success"))
        #expect(intensities(named) == intensities(success).map { $0 * 0.25 })
    }

    @Test("settings multiply master and category strength into the preset")
    func settingsScale() throws {
        let settings = HapticSettings(intensity: 0.5, categoryIntensities: [.impact: 0.5])
        let success = try #require(PresetLibrary.authoredPattern(named: "success"))
        let impact = try #require(PresetLibrary.authoredPattern(named: "impact"))
        #expect(intensities(HapticPattern(feedback: .success, settings: settings)) == intensities(success).map { $0 * 0.5 })
        #expect(intensities(HapticPattern(feedback: .impact, settings: settings)) == intensities(impact).map { $0 * 0.25 })
    }

    @Test("turned off, a preset is silent but keeps its shape", arguments: HapticFeedback.presets)
    func mutedKeepsShape(feedback: HapticFeedback) throws {
        let authored = try #require(PresetLibrary.authoredPattern(named: feedback.presetName))
        let muted = HapticPattern(feedback: feedback, settings: HapticSettings(isEnabled: false))
        #expect(intensities(muted).allSatisfy { $0 == 0 })
        #expect(muted.events.count == authored.events.count)
        #expect(muted.duration == authored.duration)
        #expect(muted.curves == authored.curves)
    }

    @Test("scaling writes out a default intensity it multiplies")
    func scalingDefaultIntensity() {
        let pattern = HapticPattern(events: [HapticEvent(.transient, at: 0)]).scalingIntensity(by: 0.5)
        #expect(pattern.events[0].parameters == [HapticEvent.Parameter(.hapticIntensity, 0.375)])
    }

    @Test("aliases play their preset's pattern")
    func aliasesPlayTheSamePattern() {
        #expect(HapticPattern(feedback: .failure, settings: .standard) == HapticPattern(feedback: .error, settings: .standard))
        #expect(PresetLibrary.pattern(named: "solid", settings: .standard) == PresetLibrary.pattern(named: "impact", settings: .standard))
        #expect(HapticPattern(feedback: .impact(flexibility: .solid), settings: .standard) == HapticPattern(feedback: .impact, settings: .standard))
    }
}
