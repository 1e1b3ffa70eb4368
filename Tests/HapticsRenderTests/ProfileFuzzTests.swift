import Foundation
import HapticsCore
import HapticsTestSupport
import Testing
@testable import HapticsRender

@Suite("Damaged profile files never crash the reader")
struct ProfileFuzzTests {
    static let seeds = [
        #"{"minFrequency": 60, "maxFrequency": 300}"#,
        """
        {
          "name": "my-lra", "minFrequency": 150, "maxFrequency": 210, "sampleRate": 96000,
          "channels": 2, "hapticChannels": [2], "gain": 0.8, "intensityExponent": 1.5
        }
        """,
        #"{"name": "ds", "minFrequency": 50, "maxFrequency": 300, "allowedSampleRates": [48000, 44100], "channels": 4, "hapticChannels": [3, 4]}"#,
    ]

    static let words = ActuatorProfile.fileKeys.map { "\"\($0.key)\": " } + [", ", "\"sampleRat\": 1, ", "[", "]"]

    @Test("every damaged profile either loads as a renderable profile or fails with one located line", .timeLimit(.minutes(1)))
    func damagedProfiles() {
        let run = FuzzRun(reader: "profile", defaultSeconds: 5, defaultSeed: 0x5EED_0F11_E5)
        let (loaded, refused) = run.mutate(seeds: Self.seeds, words: Self.words, check: Self.check)
        #expect(loaded > 0 && refused > 100, "the mutations both keep and break profiles (\(loaded) loaded, \(refused) refused)")
    }

    /// One input: it loads as something usable, or fails with one located line.
    static func check(_ bytes: [UInt8], label: String) -> FuzzOutcome {
        var outcome = FuzzOutcome.failed
        let lines = bytes.count { $0 == 0x0A } + 1
        do throws(ProfileError) {
            let profile = try ActuatorProfile(json: Data(bytes), source: "fuzz.json", defaultName: "fuzz")
            outcome = .loaded
            let renderable =
                profile.problem(withSampleRate: profile.sampleRate) == nil
                && ActuatorProfile.channelRange.contains(profile.channelCount)
                && !profile.hapticChannels.isEmpty
                && profile.hapticChannels.allSatisfy { (0..<profile.channelCount).contains($0) }
                && ActuatorProfile.gainRange.contains(profile.gain)
                && ActuatorProfile.intensityExponentRange.contains(profile.intensityExponent)
                && profile.minFrequency >= 1 && profile.minFrequency <= profile.maxFrequency
                && (profile.allowedSampleRates ?? []).allSatisfy { profile.problem(withSampleRate: $0) == nil }
            #expect(renderable, "\(label): \(String(decoding: bytes, as: UTF8.self)) loaded as \(profile)")
            if !renderable { return .failed }
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

    @Test("inputs that once broke the reader (Tests/FuzzCorpus/profile) load or fail with one located line")
    func corpus() {
        for (name, bytes) in FuzzRun.corpus("profile") {
            #expect(Self.check(bytes, label: name) != FuzzOutcome.failed, "\(name)")
        }
    }
}
