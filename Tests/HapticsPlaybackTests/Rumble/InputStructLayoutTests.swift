import CLinuxInput
import HapticsPlayback
import Testing

/// The ioctl request numbers encode the size of the struct passed, and the kernel reads the
/// struct at fixed offsets: if Swift saw `ff_effect` or `input_event` with another layout,
/// every upload would fail (or worse, be misread). These pin the layout against the kernel ABI.
@Suite("Linux input struct layout and ioctl numbers")
struct InputStructLayoutTests {
    /// `_IOC(dir, type, nr, size)` for the generic encoding (x86, arm, arm64, riscv).
    private func ioc(_ direction: UInt, _ type: Character, _ number: UInt, size: Int) -> UInt {
        direction << 30 | UInt(size) << 16 | UInt(type.asciiValue!) << 8 | number
    }
    private let write: UInt = 1
    private let read: UInt = 2

    @Test("ff_effect is 48 bytes with its union at offset 16, in Swift as in C")
    func effectLayout() {
        #expect(MemoryLayout<ff_effect>.size == 48)
        #expect(Int(haptics_ff_effect_size()) == MemoryLayout<ff_effect>.size)
        #expect(MemoryLayout<ff_effect>.offset(of: \ff_effect.u) == 16)
        #expect(MemoryLayout<ff_effect>.offset(of: \ff_effect.replay) == 10)
    }

    @Test("input_event is 24 bytes, type/code/value at 16/18/20")
    func eventLayout() {
        #expect(MemoryLayout<input_event>.size == 24)
        #expect(Int(haptics_event_size()) == 24)
        let event = haptics_make_event(0x15, 0x0203, 0x0405_0607)
        withUnsafeBytes(of: event) { bytes in
            #expect(bytes.load(fromByteOffset: 0, as: UInt64.self) == 0)  // zero timestamp
            #expect(bytes.load(fromByteOffset: 16, as: UInt16.self) == 0x15)
            #expect(bytes.load(fromByteOffset: 18, as: UInt16.self) == 0x0203)
            #expect(bytes.load(fromByteOffset: 20, as: Int32.self) == 0x0405_0607)
        }
    }

    @Test("rumble magnitudes set through Swift's union accessor land where the kernel reads them")
    func rumbleUnionBytes() {
        let effect = RumbleEffectKind.rumble.makeEffect(strong: 0x1234, weak: 0xABCD)
        withUnsafeBytes(of: effect) { bytes in
            #expect(bytes.load(fromByteOffset: 0, as: UInt16.self) == UInt16(FF_RUMBLE))
            #expect(bytes.load(fromByteOffset: 2, as: Int16.self) == -1)  // id
            #expect(bytes.load(fromByteOffset: 10, as: UInt16.self) == 0)  // replay.length
            #expect(bytes.load(fromByteOffset: 16, as: UInt16.self) == 0x1234)  // strong_magnitude
            #expect(bytes.load(fromByteOffset: 18, as: UInt16.self) == 0xABCD)  // weak_magnitude
        }
    }

    @Test("periodic fields set through Swift land where the kernel reads them")
    func periodicUnionBytes() {
        let effect = RumbleEffectKind.periodic(waveform: UInt16(FF_SINE)).makeEffect(strong: 0x100, weak: 0xFFFF)
        withUnsafeBytes(of: effect) { bytes in
            #expect(bytes.load(fromByteOffset: 0, as: UInt16.self) == UInt16(FF_PERIODIC))
            #expect(bytes.load(fromByteOffset: 16, as: UInt16.self) == UInt16(FF_SINE))  // waveform
            #expect(bytes.load(fromByteOffset: 18, as: UInt16.self) == 50)  // period
            #expect(bytes.load(fromByteOffset: 20, as: Int16.self) == 0x7FFF)  // magnitude
        }
    }

    #if arch(x86_64) || arch(arm64)
        @Test("request numbers match _IOC computed from the struct sizes Swift sees")
        func requestNumbers() {
            #expect(haptics_request_eviocsff() == 0x4030_4580)
            #expect(haptics_request_eviocsff() == ioc(write, "E", 0x80, size: MemoryLayout<ff_effect>.size))
            #expect(haptics_request_eviocrmff() == 0x4004_4581)
            #expect(haptics_request_eviocrmff() == ioc(write, "E", 0x81, size: MemoryLayout<Int32>.size))
            #expect(haptics_request_eviocgeffects() == 0x8004_4584)
            #expect(haptics_request_eviocgversion() == 0x8004_4501)
            #expect(haptics_request_eviocgname(256) == 0x8100_4506)
            #expect(haptics_request_eviocgbit(UInt32(EV_FF), 16) == 0x8010_4535)
            #expect(haptics_request_eviocgbit(0, 8) == ioc(read, "E", 0x20, size: 8))
        }
    #endif
}
