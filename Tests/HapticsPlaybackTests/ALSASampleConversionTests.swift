import Testing
@testable import HapticsPlayback

@Suite("Sample conversion and the fade-in after a recovery")
struct ALSASampleConversionTests {
    @Test("The fade-in ramps linearly from 0 over its length, then leaves samples alone")
    func fadeRamp() {
        var fade = ALSAFadeIn(length: 4)
        #expect(!fade.isActive)
        #expect(fade.nextGain() == 1)
        fade.arm()
        #expect(fade.isActive)
        let gains = (0..<6).map { _ in fade.nextGain() }
        #expect(gains == [0, 0.25, 0.5, 0.75, 1, 1])
        #expect(!fade.isActive)
    }

    @Test("A fade applies one gain per frame to every channel of it")
    func fadePerFrame() {
        var fade = ALSAFadeIn(length: 2)
        fade.arm()
        let source: [Float] = [1, -1, 0.5, -0.5, 0.8, 0.6]
        var destination = [Float](repeating: 9, count: 6)
        source.withUnsafeBufferPointer { input in
            destination.withUnsafeMutableBufferPointer { output in
                ALSASampleConversion.copy(input.baseAddress!, frames: 3, channels: 2, into: output.baseAddress!, fade: &fade)
            }
        }
        #expect(destination == [0, 0, 0.25, -0.25, 0.8, 0.6])
    }

    @Test("16-bit conversion with a fade scales before converting")
    func fadeThenConvert() {
        var fade = ALSAFadeIn(length: 2)
        fade.arm()
        let source: [Float] = [1, 1, 1, 2]
        var destination = [Int16](repeating: 9, count: 4)
        source.withUnsafeBufferPointer { input in
            destination.withUnsafeMutableBufferPointer { output in
                ALSASampleConversion.convertToS16(input.baseAddress!, frames: 4, channels: 1, into: output.baseAddress!, fade: &fade)
            }
        }
        #expect(destination == [0, 16384, 32767, 32767])
    }

    @Test("An output fades in over 1 ms of its own rate, rounded up", arguments: [(48_000, 48), (44_100, 45), (8_000, 8)])
    func fadeLength(sampleRate: Int, frames: Int) throws {
        let output = try ALSAOutput(device: "null", sampleRate: sampleRate, channelCount: 1)
        defer { output.close() }
        #expect(output.fadeInFrames == frames)
    }
}
