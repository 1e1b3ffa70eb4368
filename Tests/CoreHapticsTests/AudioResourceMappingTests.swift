@testable import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport
import Testing

@Suite("CoreHaptics audio resources map to native events")
struct AudioResourceMappingTests {
    @Test("a player's native AudioCustom event carries the registered file and its options")
    func mapping() throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let sound = folder.file("sound.wav")
        _ = try TestWAV.write(TestWAV.sine(frequency: 440, seconds: 0.1, sampleRate: 48_000), sampleRate: 48_000, to: sound)
        let engine = CHHapticEngine(hapticEngine: HapticEngine(device: "null"))
        let id = try engine.registerAudioResource(sound, options: [CHHapticAudioResourceKeyLoopEnabled: true])
        let event = CHHapticEvent(
            audioResourceID: id, parameters: [CHHapticEventParameter(parameterID: .audioVolume, value: 0.5)],
            relativeTime: 0.1, duration: 0.2)
        let pattern = try CHHapticPattern(events: [event], parameters: [])
        #expect(pattern.hapticPattern.events[0].audio?.path == "", "unresolved until an engine plays it")
        let player = try #require(try engine.makePlayer(with: pattern) as? NativePatternPlayer)
        let native = player.pattern.events[0]
        #expect(native.kind == .audioCustom)
        #expect(native.audio == HapticEvent.AudioResource(path: sound.path, usesVolumeEnvelope: nil, loopEnabled: true))
        #expect(native.value(of: .audioVolume) == 0.5)
        #expect(native.relativeTime == 0.1 && native.duration == 0.2)
    }
}
