import HapticsRender
import Testing

@testable import HapticsRender

/// Issue #24, item 5: the last stage before a device never writes a sample that is not a
/// finite number, whatever reaches it.
@Suite("Output stage")
struct OutputStageTests {
    static let hostile: [Float] = [.nan, .infinity, -.infinity, 0.5, -.nan, 3, -0.25, .signalingNaN, .nan, 1]

    /// The samples `hostile` repeated to `frames`.
    func signal(_ frames: Int) -> [Float] { (0..<frames).map { Self.hostile[$0 % Self.hostile.count] } }

    @Test(
        "NaN becomes silence and infinities clip, on one channel, many channels and with audio; each is counted as clipped",
        arguments: [ActuatorProfile.wideband, .dualsense, ActuatorProfile(name: "stereo", minFrequency: 60, maxFrequency: 300, channelCount: 2)])
    func nothingNonFinite(profile: ActuatorProfile) {
        // 37 frames: the eight-lane loop and the scalar tail.
        let frames = 37
        let mono = signal(frames)
        var stage = OutputStage(profile: profile, gain: 1)
        var output = [Float](repeating: 7, count: frames * profile.channelCount)
        mono.withUnsafeBufferPointer { m in
            output.withUnsafeMutableBufferPointer { o in stage.write(mono: m.baseAddress!, frames: frames, into: o.baseAddress!) }
        }
        #expect(output.allSatisfy { $0.isFinite }, "\(output)")
        #expect(output.allSatisfy { abs($0) <= 1 })
        let changed = mono.filter { !$0.isFinite || abs($0) > 1 }.count
        #expect(stage.clippedSamples == changed)
        #expect(stage.peak.isFinite && stage.rms.isFinite)
        let haptic = profile.hapticChannels[0]
        #expect(output[haptic] == 0, "NaN is written as silence")
        #expect(output[profile.channelCount + haptic] == 1 && output[2 * profile.channelCount + haptic] == -1, "infinities clip")

        var withAudio = OutputStage(profile: profile, gain: 1)
        var audioOutput = [Float](repeating: 7, count: frames * profile.channelCount)
        let left = signal(frames + 3).suffix(frames).map { $0 }
        mono.withUnsafeBufferPointer { m in
            left.withUnsafeBufferPointer { l in
                audioOutput.withUnsafeMutableBufferPointer { o in
                    withAudio.write(mono: m.baseAddress!, audioLeft: l.baseAddress!, audioRight: m.baseAddress!, frames: frames, into: o.baseAddress!)
                }
            }
        }
        #expect(audioOutput.allSatisfy { $0.isFinite }, "\(audioOutput)")
        #expect(withAudio.audioPeak.isFinite)
    }

    @Test("a rumble level that is not a number stops the motor; infinities are full or off")
    func rumbleMagnitudes() {
        #expect(RumbleRenderer.magnitude(.nan) == 0)
        #expect(RumbleRenderer.magnitude(-.nan) == 0)
        #expect(RumbleRenderer.magnitude(.infinity) == 65535)
        #expect(RumbleRenderer.magnitude(-.infinity) == 0)
        #expect(RumbleRenderer.magnitude(0.5) == 32768)
    }

    @Test("a gain that is not a number writes silence, not NaN")
    func nanGain() {
        var stage = OutputStage(profile: .wideband, gain: .nan)
        let mono = [Float](repeating: 0.5, count: 16)
        var output = [Float](repeating: 7, count: 16)
        mono.withUnsafeBufferPointer { m in
            output.withUnsafeMutableBufferPointer { o in stage.write(mono: m.baseAddress!, frames: 16, into: o.baseAddress!) }
        }
        #expect(output == [Float](repeating: 0, count: 16))
    }
}
