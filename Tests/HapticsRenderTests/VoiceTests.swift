import Foundation
import Testing

@testable import HapticsRender

/// The voices' group loops as the program runs them (in C with AVX2 where the processor has
/// it) against their portable Swift form: the same samples and the same oscillator state, bit
/// for bit, so that a render is the same file on any x86-64.
@Suite("Voice group loops")
struct VoiceTests {
    typealias Lanes = Voice.Lanes

    /// A carrier's eight lanes at a phase, as a tick starts them, and its rotation by a group.
    static func carrier(frequency: Double, phase: Double) -> (sin: Lanes, cos: Lanes, rotationSin: Float, rotationCos: Float) {
        Voice.group(sin: sin(phase), cos: cos(phase), step: Voice.sinCos(2 * Double.pi * frequency / 48_000))
    }

    /// An output block with something in it already (the loops add).
    static func block(_ groups: Int, offset: Int) -> [Float] {
        (0..<(8 * groups + offset)).map { Float(sin(Double($0) * 0.37)) * 0.25 }
    }

    @Test("a continuous voice's groups: the dispatched loop adds what the portable one adds", arguments: [1, 6, 64])
    func continuousGroups(groups: Int) {
        for (frequency, base, step, first) in [(80.0, Float(0.2), Float(0.001), 0), (300, 0.9, -0.0004, 16), (1_000, 0, 0.01, 40)] {
            let start = Self.carrier(frequency: frequency, phase: 0.3)
            // Offset by 3 floats: unaligned, as a block's later frames are.
            var dispatched = Self.block(groups, offset: 3)
            var portable = dispatched
            var (s1, c1, s2, c2) = (start.sin, start.cos, start.sin, start.cos)
            dispatched.withUnsafeMutableBufferPointer { out in
                Voice.continuousGroups(
                    into: out.baseAddress! + 3, groups, base: base, step: step, first: first, &s1, &c1, start.rotationSin, start.rotationCos)
            }
            portable.withUnsafeMutableBufferPointer { out in
                Voice.continuousGroupsPortably(
                    into: out.baseAddress! + 3, groups, base: base, step: step, first: first, &s2, &c2, start.rotationSin, start.rotationCos)
            }
            #expect(dispatched.map(\.bitPattern) == portable.map(\.bitPattern), "\(frequency) Hz")
            #expect(Self.bits(s1) == Self.bits(s2) && Self.bits(c1) == Self.bits(c2), "the carrier's state, \(frequency) Hz")
            #expect(dispatched != Self.block(groups, offset: 3), "the voice added something")
        }
    }

    @Test("a transient's groups: the dispatched loop adds what the portable one adds, rising and falling", arguments: [1, 5, 48])
    func transientGroups(groups: Int) {
        for (frequency, sign, peak) in [(80.0, Float(-1), Float(0.8)), (250, 1, 0.33), (600, 1, 1)] {
            let start = Self.carrier(frequency: frequency, phase: 1.1)
            let envelope = Voice.group(sin: sin(0.01), cos: cos(0.01), step: Voice.sinCos(Double.pi / 480))
            var dispatched = Self.block(groups, offset: 5)
            var portable = dispatched
            var (s1, c1, es1, ec1) = (start.sin, start.cos, envelope.sin, envelope.cos)
            var (s2, c2, es2, ec2) = (s1, c1, es1, ec1)
            dispatched.withUnsafeMutableBufferPointer { out in
                Voice.transientGroups(
                    into: out.baseAddress! + 5, groups, peak: peak, sign: sign, &s1, &c1, start.rotationSin, start.rotationCos, &es1, &ec1,
                    envelope.rotationSin, envelope.rotationCos)
            }
            portable.withUnsafeMutableBufferPointer { out in
                Voice.transientGroupsPortably(
                    into: out.baseAddress! + 5, groups, peak: peak, sign: sign, &s2, &c2, start.rotationSin, start.rotationCos, &es2, &ec2,
                    envelope.rotationSin, envelope.rotationCos)
            }
            #expect(dispatched.map(\.bitPattern) == portable.map(\.bitPattern), "\(frequency) Hz")
            #expect(Self.bits(s1) == Self.bits(s2) && Self.bits(c1) == Self.bits(c2), "the carrier's state, \(frequency) Hz")
            #expect(Self.bits(es1) == Self.bits(es2) && Self.bits(ec1) == Self.bits(ec2), "the envelope's state, \(frequency) Hz")
            #expect(dispatched != Self.block(groups, offset: 5), "the voice added something")
        }
    }

    @Test("a tick's lanes from phase zero are the general group's, bit for bit, across the carrier's frequencies")
    func groupFromZero() {
        for hertz in stride(from: 1.0, through: 23_999, by: 7.3) {
            let step = Voice.sinCos(2 * Double.pi * hertz / 48_000)
            let general = Voice.group(sin: 0, cos: 1, step: step)
            let fromZero = Voice.groupFromZero(step: step)
            #expect(Self.bits(general.sin) == Self.bits(fromZero.sin) && Self.bits(general.cos) == Self.bits(fromZero.cos), "\(hertz) Hz")
            #expect(general.rotationSin.bitPattern == fromZero.rotationSin.bitPattern && general.rotationCos.bitPattern == fromZero.rotationCos.bitPattern)
        }
    }

    static func bits(_ lanes: Lanes) -> [UInt32] { (0..<Lanes.scalarCount).map { lanes[$0].bitPattern } }
}
