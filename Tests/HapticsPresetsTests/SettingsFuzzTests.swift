import Foundation
import HapticsCore
import HapticsPresets
import HapticsTestSupport
import Testing

@Suite("Damaged settings files never crash the reader")
struct SettingsFuzzTests {
    static let seeds = [
        #"{ "enabled": true, "intensity": 0.8, "categories": { "impact": 0.5, "selection": 0.25 } }"#,
        """
        {
          "enabled": false,
          "intensity": 1,
          "categories": { "notification": 0, "impact": 1 },
          "device": "plughw:CARD=Device,DEV=0",
          "profile": "lra"
        }
        """,
        "{}",
    ]

    static let words = ["\"enabled\": ", "\"intensity\": ", "\"categories\": ", "\"device\": ", "\"profile\": ",
                        "\"impact\": ", "\"selection\": ", "\"notification\": ", ", ", "{", "}", "true", "\"x\""]

    @Test("every damaged settings file either loads with in-range strengths or fails with one located line", .timeLimit(.minutes(1)))
    func damagedSettings() {
        var mutator = JSONMutator(seeds: Self.seeds, words: Self.words, seed: 0x5E77_1265)
        let deadline = ContinuousClock.now + .seconds(5)
        var loaded = 0
        var refused = 0
        for iteration in 0..<200_000 where ContinuousClock.now < deadline {
            let bytes = mutator.next()
            let lines = bytes.count { $0 == 0x0A } + 1
            do throws(HapticSettingsError) {
                let settings = try HapticSettings.decode(Data(bytes), source: "fuzz.json")
                loaded += 1
                let valid = (0...1).contains(settings.intensity)
                    && settings.categoryIntensities.values.allSatisfy { (0...1).contains($0) }
                    && settings.device.map { !$0.isEmpty } ?? true
                    && settings.profile.map { !$0.isEmpty } ?? true
                #expect(valid, "iteration \(iteration): \(String(decoding: bytes, as: UTF8.self)) loaded as \(settings)")
                if !valid { return }
            } catch {
                refused += 1
                guard case .file(let failure) = error else {
                    Issue.record("iteration \(iteration): not a file error: \(error)")
                    return
                }
                let located = failure.isLocated && (1...lines).contains(failure.line ?? 0) && (failure.column ?? 0) >= 1
                #expect(located, "iteration \(iteration): \(error)")
                let line = error.description
                let prefixed = line.hasPrefix("fuzz.json:\(failure.line ?? 0):\(failure.column ?? 0): ")
                let oneLine = !line.contains(where: \.isNewline)
                #expect(prefixed && oneLine, "iteration \(iteration): \(line)")
                if !located { return }
            }
        }
        #expect(loaded > 0 && refused > 100, "the mutations both keep and break settings (\(loaded) loaded, \(refused) refused)")
    }
}
