import Foundation
import HapticsCore
import HapticsRender
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// The engine through real ALSA devices that need no sound card.
@Suite("Engine on ALSA devices")
struct ALSAEngineTests {
    let pattern = HapticPattern(
        events: [
            .transient(at: 0, intensity: 0.9, sharpness: 0.2),
            .continuous(at: 0.04, duration: 0.15, intensity: 0.8, sharpness: 0.7, attack: 0.1, release: 0.2),
            .transient(at: 0.1, intensity: 1, sharpness: 1),
        ],
        parameters: [HapticDynamicParameter(.hapticSharpnessControl, 0.2, at: 0.12)],
        curves: [HapticParameterCurve(.hapticIntensityControl, at: 0.05, points: [(0, 1), (0.08, 0.4)])])

    /// Plays `pattern` to ALSA's file plugin and returns the captured file.
    func playToFile(profile: ActuatorProfile) throws -> WAVFile {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.file("capture.wav")
        let engine = HapticEngine(configuration: .init(device: "file:'\(url.path)',wav", profile: profile))
        try engine.start()
        let done = DispatchSemaphore(value: 0)
        let player = try engine.makeAdvancedPlayer(with: pattern)
        player.completionHandler = { _ in done.signal() }
        try player.start()
        #expect(done.wait(timeout: .now() + 10) == .success)
        engine.stop()
        return try WAVFile(contentsOf: url)
    }

    @Test("what plays through ALSA's file device equals the offline render, mono")
    func fileDeviceEqualsRender() throws {
        let file = try playToFile(profile: .wideband)
        #expect(file.sampleRate == 48_000 && file.channelCount == 1)
        let captured = try file.checkedFloat32Samples(acceptingMislabelledInteger: true)
        let offline = HapticRenderer.render(pattern, profile: .wideband).samples
        let start = try #require(captured.firstIndex { $0 != 0 }, "something was played")
        #expect(captured.count >= start + offline.count)
        let played = Array(captured[start..<min(captured.count, start + offline.count)])
        let mismatch = zip(played, offline).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(mismatch == nil, "first difference at sample \(mismatch ?? -1) of \(offline.count)")
        #expect(captured[(start + offline.count)...].allSatisfy { $0 == 0 }, "silence after the pattern")
    }

    @Test("the dualsense profile opens 4 channels and drives only 3 and 4, as rendering does")
    func dualsenseChannels() throws {
        let file = try playToFile(profile: .dualsense)
        #expect(file.channelCount == 4)
        let captured = try file.checkedFloat32Samples(acceptingMislabelledInteger: true)
        let offline = HapticRenderer.render(pattern, profile: .dualsense).samples
        let start = try #require(captured.firstIndex { $0 != 0 })
        // Frame-aligned: the first non-zero sample is on channel 3 of its frame.
        #expect(start % 4 == 2)
        let frameStart = start - 2
        let played = Array(captured[frameStart..<min(captured.count, frameStart + offline.count)])
        #expect(played == offline)
        for frame in stride(from: 0, to: captured.count, by: 4) {
            if captured[frame] != 0 || captured[frame + 1] != 0 {
                Issue.record("channel 1 or 2 sounds at frame \(frame / 4)")
                break
            }
        }
    }

    @Test("a missing device is reported by name without delay")
    func missingDevice() throws {
        let engine = HapticEngine(configuration: .init(device: "hw:CARD=NoSuchCard,DEV=0"))
        #expect {
            try engine.start()
        } throws: { error in
            guard case .output(.deviceUnavailable(let device, _)) = error as? HapticError else { return false }
            return device == "hw:CARD=NoSuchCard,DEV=0"
        }
        #expect(!engine.isRunning)
    }
}
