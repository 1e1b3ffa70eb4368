import CLinuxInput

/// What a force-feedback device can do: its `EV_FF` bits (`FF_RUMBLE`, `FF_PERIODIC`, the
/// waveforms, `FF_GAIN`, …) and how many effects it holds at once (`EVIOCGEFFECTS`).
package struct ForceFeedbackCapabilities: Sendable, Hashable {
    /// Bit `n` set when the device supports code `n` (`FF_RUMBLE` = 0x50 … `FF_MAX` = 0x7f).
    /// `FF_CNT` is 128, so one 128-bit word holds them all.
    package var bits: UInt128
    /// Effects the device holds at once; 16 on ff-memless drivers. 0 when unknown.
    package var simultaneousEffects: Int

    /// Creates capabilities from the `EV_FF` bitmask and the effect count.
    package init(bits: UInt128, simultaneousEffects: Int) {
        self.bits = bits
        self.simultaneousEffects = simultaneousEffects
    }

    /// Creates capabilities from a list of `FF_*` codes.
    package init(codes: [Int32], simultaneousEffects: Int) {
        var bits: UInt128 = 0
        for code in codes where (0..<Int32(FF_CNT)).contains(code) {
            bits |= 1 << UInt128(code)
        }
        self.init(bits: bits, simultaneousEffects: simultaneousEffects)
    }

    /// Creates capabilities from the kernel's `unsigned long` bitmap words, lowest first, as
    /// `EVIOCGBIT(EV_FF, …)` fills them.
    init(bitmapWords words: [UInt], simultaneousEffects: Int) {
        var bits: UInt128 = 0
        for (index, word) in words.enumerated() where index * UInt.bitWidth < 128 {
            bits |= UInt128(word) << UInt128(index * UInt.bitWidth)
        }
        self.init(bits: bits, simultaneousEffects: simultaneousEffects)
    }

    /// Parses sysfs's `capabilities/ff`: hexadecimal `unsigned long` words, most significant
    /// first, separated by spaces, leading zero words omitted (an Xbox pad reads
    /// `107030000 0`). Nil when the text is not such a bitmap.
    package init?(sysfsBitmap text: String, wordBits: Int = UInt.bitWidth, simultaneousEffects: Int = 0) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard !words.isEmpty, wordBits == 32 || wordBits == 64 else { return nil }
        var bits: UInt128 = 0
        for (index, word) in words.reversed().enumerated() {
            guard let value = UInt64(word, radix: 16) else { return nil }
            guard value == 0 || index * wordBits < 128 else { return nil }
            if value != 0 { bits |= UInt128(value) << UInt128(index * wordBits) }
        }
        self.init(bits: bits, simultaneousEffects: simultaneousEffects)
    }

    /// Whether the device supports `FF_*` code `code`.
    package func supports(_ code: Int32) -> Bool {
        (0..<Int32(FF_CNT)).contains(code) && bits & (1 << UInt128(code)) != 0
    }

    /// The device has force feedback at all.
    package var hasForceFeedback: Bool { bits != 0 }
    /// `FF_RUMBLE`: two motor magnitudes, what game pads offer.
    package var supportsRumble: Bool { supports(Int32(FF_RUMBLE)) }
    /// `FF_PERIODIC` with at least one waveform the kernel would accept.
    package var supportsPeriodic: Bool { supports(Int32(FF_PERIODIC)) && periodicWaveform != nil }
    /// `FF_GAIN`: a device-wide gain.
    package var supportsGain: Bool { supports(Int32(FF_GAIN)) }

    /// The waveform to emulate rumble with: sine if offered (what the kernel itself uses),
    /// else the first other one the device has. The kernel rejects a periodic effect whose
    /// waveform bit is not set.
    package var periodicWaveform: UInt16? {
        let preferred = [FF_SINE, FF_TRIANGLE, FF_SQUARE, FF_SAW_UP, FF_SAW_DOWN]
        return preferred.first(where: { supports(Int32($0)) }).map { UInt16($0) }
    }

    /// The `FF_*` codes that are set, ascending.
    package var codes: [Int32] {
        (0..<Int32(FF_CNT)).filter { supports($0) }
    }
}
