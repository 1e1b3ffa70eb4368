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

    static let words = [
        "\"enabled\": ", "\"intensity\": ", "\"categories\": ", "\"device\": ", "\"profile\": ",
        "\"impact\": ", "\"selection\": ", "\"notification\": ", ", ", "{", "}", "true", "\"x\"",
    ]

    @Test("every damaged settings file either loads with in-range strengths or fails with one located line", .timeLimit(.minutes(1)))
    func damagedSettings() {
        let run = FuzzRun(reader: "settings", defaultSeconds: 5, defaultSeed: 0x5E77_1265)
        let (loaded, refused) = run.mutate(seeds: Self.seeds, words: Self.words, check: Self.check)
        #expect(loaded > 0 && refused > 100, "the mutations both keep and break settings (\(loaded) loaded, \(refused) refused)")
    }

    /// One input: it loads as something usable, or fails with one located line.
    static func check(_ bytes: [UInt8], label: String) -> FuzzOutcome {
        var outcome = FuzzOutcome.failed
        let lines = bytes.count { $0 == 0x0A } + 1
        do throws(HapticSettingsError) {
            let settings = try HapticSettings.decode(Data(bytes), source: "fuzz.json")
            outcome = .loaded
            let valid =
                (0...1).contains(settings.intensity)
                && settings.categoryIntensities.values.allSatisfy { (0...1).contains($0) }
                && settings.device.map { !$0.isEmpty } ?? true
                && settings.profile.map { !$0.isEmpty } ?? true
            #expect(valid, "\(label): \(String(decoding: bytes, as: UTF8.self)) loaded as \(settings)")
            if !valid { return .failed }
        } catch {
            outcome = .refused
            guard case .file(let failure) = error else {
                Issue.record("\(label): not a file error: \(error)")
                return .failed
            }
            let place = FuzzRun.Place.located(
                source: "fuzz.json", isLocated: failure.isLocated, line: failure.line, column: failure.column, inputLines: lines)
            if FuzzRun.refusal(error.description, place, label: label) == .failed { return .failed }
        }
        return outcome
    }

    @Test("inputs that once broke the reader (Tests/FuzzCorpus/settings) load or fail with one located line")
    func corpus() {
        for (name, bytes) in FuzzRun.corpus("settings") {
            #expect(Self.check(bytes, label: name) != FuzzOutcome.failed, "\(name)")
        }
    }
}
