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
        var mutator = JSONMutator(seeds: Self.seeds, words: Self.words, seed: 0x5EED_0F11_E5)
        let deadline = ContinuousClock.now + .seconds(5)
        var loaded = 0
        var refused = 0
        for iteration in 0..<200_000 where ContinuousClock.now < deadline {
            let bytes = mutator.next()
            let lines = bytes.count { $0 == 0x0A } + 1
            do throws(ProfileError) {
                let profile = try ActuatorProfile(json: Data(bytes), source: "fuzz.json", defaultName: "fuzz")
                loaded += 1
                let renderable = profile.problem(withSampleRate: profile.sampleRate) == nil
                    && ActuatorProfile.channelRange.contains(profile.channelCount)
                    && !profile.hapticChannels.isEmpty
                    && profile.hapticChannels.allSatisfy { (0..<profile.channelCount).contains($0) }
                    && ActuatorProfile.gainRange.contains(profile.gain)
                    && ActuatorProfile.intensityExponentRange.contains(profile.intensityExponent)
                    && profile.minFrequency >= 1 && profile.minFrequency <= profile.maxFrequency
                    && (profile.allowedSampleRates ?? []).allSatisfy { profile.problem(withSampleRate: $0) == nil }
                #expect(renderable, "iteration \(iteration): \(String(decoding: bytes, as: UTF8.self)) loaded as \(profile)")
                if !renderable { return }
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
        #expect(loaded > 0 && refused > 100, "the mutations both keep and break profiles (\(loaded) loaded, \(refused) refused)")
    }
}
