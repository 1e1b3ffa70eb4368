import CLinuxInput
import HapticsPlayback
import Testing

@Suite("Force-feedback capabilities")
struct ForceFeedbackCapabilitiesTests {
    @Test("sysfs's ff bitmap of an ff-memless pad reads as rumble, periodic, sine/triangle/square and gain")
    func memlessPadBitmap() throws {
        let capabilities = try #require(ForceFeedbackCapabilities(sysfsBitmap: "107030000 0\n", wordBits: 64))
        #expect(capabilities.codes == [FF_RUMBLE, FF_PERIODIC, FF_SQUARE, FF_TRIANGLE, FF_SINE, FF_GAIN].map { Int32($0) })
        #expect(capabilities.supportsRumble)
        #expect(capabilities.supportsPeriodic)
        #expect(capabilities.supportsGain)
        #expect(!capabilities.supports(Int32(FF_CONSTANT)))
        #expect(capabilities.periodicWaveform == UInt16(FF_SINE))
    }

    @Test("the same bits printed in 32-bit words parse the same")
    func thirtyTwoBitWords() throws {
        let wide = try #require(ForceFeedbackCapabilities(sysfsBitmap: "107030000 0", wordBits: 64))
        let narrow = try #require(ForceFeedbackCapabilities(sysfsBitmap: "1 7030000 0 0", wordBits: 32))
        #expect(wide.bits == narrow.bits)
    }

    @Test("a device without force feedback reads 0", arguments: ["0", "0\n"])
    func empty(text: String) throws {
        let capabilities = try #require(ForceFeedbackCapabilities(sysfsBitmap: text))
        #expect(!capabilities.hasForceFeedback)
        #expect(capabilities.codes.isEmpty)
    }

    @Test("text that is not a bitmap is rejected", arguments: ["", "xyz", "1 2 3 4 5", "-1"])
    func malformed(text: String) {
        #expect(ForceFeedbackCapabilities(sysfsBitmap: text, wordBits: 64) == nil)
    }

    @Test("codes round-trip through the bitmask, out-of-range codes are ignored")
    func codes() {
        let capabilities = ForceFeedbackCapabilities(codes: [0x50, 0x7F, 0x60, 200, -1], simultaneousEffects: 2)
        #expect(capabilities.codes == [0x50, 0x60, 0x7F])
        #expect(!capabilities.supports(200))
        #expect(capabilities.simultaneousEffects == 2)
    }

    @Test("periodic without any waveform bit is not usable for rumble")
    func periodicWithoutWaveform() {
        let capabilities = ForceFeedbackCapabilities(codes: [Int32(FF_PERIODIC)], simultaneousEffects: 1)
        #expect(!capabilities.supportsPeriodic)
        #expect(RumbleEffectKind(capabilities: capabilities) == nil)
    }

    @Test("rumble is preferred over periodic when both exist")
    func kindPreference() {
        #expect(
            RumbleEffectKind(
                capabilities: ForceFeedbackCapabilities(
                    codes: [FF_RUMBLE, FF_PERIODIC, FF_SINE].map { Int32($0) }, simultaneousEffects: 16)) == .rumble)
    }
}
