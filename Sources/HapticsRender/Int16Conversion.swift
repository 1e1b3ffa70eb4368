internal import CSystem

/// Float → 16-bit conversion used by every 16-bit output (files and devices), so that what a
/// device receives and what a file holds agree to the bit: clip to ±1, scale by 32767, round
/// half away from zero.
@inline(__always)
package func int16Sample(_ x: Float) -> Int16 {
    guard !x.isNaN else { return 0 }
    let scaled = min(max(x, -1), 1) * 32767
    // Truncating after adding ±½ is rounding half away from zero, without a libm call.
    return Int16(scaled + (scaled >= 0 ? 0.5 : -0.5))
}

/// Converts `count` samples as ``int16Sample(_:)`` does, bit for bit, into little-endian
/// 16-bit samples at `destination` (which need not be aligned).
///
/// With AVX2 (decided once, at load) C does the bulk eight samples to an instruction, a third of
/// the time of the portable form, which does the rest: a render's conversion had become as
/// costly as synthesising its continuous events.
@inline(__always)
package func convertToInt16(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutableRawPointer) {
    let done = haptics_convert_int16_avx2(source, count, destination)
    guard done < count else { return }
    convertToInt16Portably(source + done, count: count - done, into: destination + 2 * done)
}

/// ``convertToInt16(_:count:into:)`` for any processor.
///
/// Eight samples at a time in SIMD registers, with no test per sample: the scalar form spent
/// most of a render's time here. The standard library converts a float vector to integers lane
/// by lane through a generic path, so the rounding is done with float and bit arithmetic
/// instead: on the magnitude (NaN → 0, at most 1), adding 2²³ leaves the integer in the low
/// mantissa bits (rounded to nearest even), one comparison turns that into the truncation
/// `Int16(_:)` does, and the sign bit is put back. Checked against the scalar form for every
/// one of the 2³² floats.
package func convertToInt16Portably(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutableRawPointer) {
    var i = 0
    #if _endian(little)
        let magic = SIMD8<Float>(repeating: 8_388_608)
        while i + 8 <= count {
            let x = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<Float>.self)
            let bits = unsafeBitCast(x, to: SIMD8<Int32>.self)
            let ordered = unsafeBitCast(x .== x, to: SIMD8<Int32>.self)
            var magnitude = unsafeBitCast(bits & 0x7FFF_FFFF & ordered, to: SIMD8<Float>.self)
            magnitude.replace(with: 1, where: magnitude .> 1)
            let halfUp = magnitude * 32767 + 0.5
            let shifted = halfUp + magic
            // All ones (−1) in the lanes where rounding went up, which truncation must undo.
            let roundedUp = unsafeBitCast((shifted - magic) .> halfUp, to: SIMD8<Int32>.self)
            let n = unsafeBitCast(shifted, to: SIMD8<Int32>.self) &- 0x4B00_0000 &+ roundedUp
            let sign = bits &>> 31
            destination.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: (n ^ sign) &- sign), toByteOffset: 2 * i, as: SIMD8<Int16>.self)
            i += 8
        }
    #endif
    while i < count {
        destination.storeBytes(of: int16Sample(source[i]).littleEndian, toByteOffset: 2 * i, as: Int16.self)
        i += 1
    }
}

/// Copies `count` samples as little-endian 32-bit floats to `destination` (unaligned).
package func convertToFloat32LittleEndian(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutableRawPointer) {
    #if _endian(little)
        destination.copyMemory(from: source, byteCount: count * 4)
    #else
        for i in 0..<count { destination.storeBytes(of: source[i].bitPattern.littleEndian, toByteOffset: 4 * i, as: UInt32.self) }
    #endif
}
