import Foundation
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

    /// What `writeInt16` wrote for `mono` (as bytes) and the stage after it, next to what
    /// `write` then `convertToInt16` wrote and that stage: the two must agree bit for bit.
    func int16BothWays(_ mono: [Float], profile: ActuatorProfile = .wideband, gain: Double = 1, silent: Bool = false)
        -> (fused: [UInt8], fusedStage: OutputStage, reference: [UInt8], referenceStage: OutputStage)
    {
        let frames = mono.count
        let channels = profile.channelCount
        var fusedStage = OutputStage(profile: profile, gain: gain)
        var referenceStage = fusedStage
        var fused = [UInt8](repeating: 0xA5, count: 2 * frames * channels)
        var reference = [UInt8](repeating: 0x5A, count: 2 * frames * channels)
        var scratch = [Float](repeating: 7, count: frames * channels)
        var floats = [Float](repeating: 7, count: frames * channels)
        mono.withUnsafeBufferPointer { m in
            scratch.withUnsafeMutableBufferPointer { sc in
                fused.withUnsafeMutableBytes { f in
                    if silent {
                        fusedStage.writeSilenceInt16(zeros: m.baseAddress!, frames: frames, into: f.baseAddress!, scratch: sc.baseAddress!)
                    } else {
                        fusedStage.writeInt16(mono: m.baseAddress!, frames: frames, into: f.baseAddress!, scratch: sc.baseAddress!)
                    }
                }
            }
            floats.withUnsafeMutableBufferPointer { fl in
                if silent {
                    referenceStage.writeSilence(zeros: m.baseAddress!, frames: frames, into: fl.baseAddress!)
                } else {
                    referenceStage.write(mono: m.baseAddress!, frames: frames, into: fl.baseAddress!)
                }
                reference.withUnsafeMutableBytes { r in convertToInt16(fl.baseAddress!, count: frames * channels, into: r.baseAddress!) }
            }
        }
        return (fused, fusedStage, reference, referenceStage)
    }

    func expectSameFigures(_ a: OutputStage, _ b: OutputStage, _ comment: Comment) {
        #expect(a.peak.bitPattern == b.peak.bitPattern, comment)
        #expect(a.sumOfSquares.bitPattern == b.sumOfSquares.bitPattern, comment)
        #expect(a.clippedSamples == b.clippedSamples, comment)
        #expect(a.frames == b.frames, comment)
    }

    @Test("16-bit samples written in one pass equal the floats converted, bit for bit, for every rounding tie within full scale")
    func int16WithinFullScale() {
        // Every k/32767 and (k + ½)/32767 with their neighbours, ±0 and the smallest floats:
        // the one-pass form skips the clipping and NaN steps and rounds −0 with −½.
        var values: [Float] = [0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1, -1, Float(1).nextDown, Float(-1).nextUp]
        for k in -32767...32766 {
            let tie = (Float(k) + 0.5) / 32767
            values += [tie, tie.nextUp, tie.nextDown, Float(k) / 32767]
        }
        values = values.filter { abs($0) <= 1 }
        // 3 frames over whole groups of eight: the tail too.
        values += [0.25, -0.75, 0.125]
        let run = int16BothWays(values)
        #expect(RenderPipelineTests.firstDifference(run.fused, run.reference) == nil, "the first differing byte")
        expectSameFigures(run.fusedStage, run.referenceStage, "within full scale")
    }

    @Test(
        "16-bit samples written in one pass equal the floats converted where a block clips, holds NaN, or has several channels",
        arguments: [ActuatorProfile.wideband, .dualsense])
    func int16Clipping(profile: ActuatorProfile) {
        // 37 frames: whole groups and a tail; the hostile values, then a quiet block that a
        // gain of 3 pushes past full scale.
        let hostile = signal(37)
        let quiet = (0..<515).map { Float(sin(Double($0) * 0.1)) * 0.5 }
        for (mono, gain) in [(hostile, 1.0), (quiet, 1.0), (quiet, 3.0), (quiet, .nan)] {
            let run = int16BothWays(mono, profile: profile, gain: gain)
            #expect(RenderPipelineTests.firstDifference(run.fused, run.reference) == nil, "gain \(gain): the first differing byte")
            expectSameFigures(run.fusedStage, run.referenceStage, "gain \(gain)")
        }
    }

    @Test("silence written as 16-bit samples equals silence converted, whatever the gain", arguments: [1.0, 0, -1, .nan, .infinity])
    func int16Silence(gain: Double) {
        let run = int16BothWays([Float](repeating: 0, count: 77), gain: gain, silent: true)
        #expect(run.fused == run.reference)
        expectSameFigures(run.fusedStage, run.referenceStage, "gain \(gain)")
    }
}
