import HapticsPlayback
import HapticsRender
import HapticsTestSupport

/// An engine on a manual output, started, with the output held at frame 0.
func makeManualEngine(profile: ActuatorProfile = .wideband) throws -> (HapticEngine, TestOutput) {
    let output = TestOutput.manual(sampleRate: profile.sampleRate, channelCount: profile.channelCount)
    let engine = HapticEngine(configuration: .init(profile: profile)) { _, _, _ throws(AudioOutputError) in output }
    try engine.start()
    return (engine, output)
}
