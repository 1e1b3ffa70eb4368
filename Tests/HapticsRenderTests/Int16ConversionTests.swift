import CSystem
import Testing
@testable import HapticsRender

/// The SIMD 16-bit conversion every 16-bit output uses, held to the scalar rule bit for bit:
/// as the program runs it (AVX2 where the processor has it) and in its portable form.
@Suite("16-bit conversion")
struct Int16ConversionTests {
    /// The two forms: what `convertToInt16` runs here, and the one for any processor.
    enum Form: String, CaseIterable, CustomTestStringConvertible {
        case dispatched, portable
        var testDescription: String { rawValue }
        func convert(_ source: UnsafePointer<Float>, count: Int, into destination: UnsafeMutableRawPointer) {
            switch self {
            case .dispatched: convertToInt16(source, count: count, into: destination)
            case .portable: convertToInt16Portably(source, count: count, into: destination)
            }
        }
    }

    /// Converts with the bulk function into a buffer offset by `misalignment` bytes.
    func bulk(_ samples: [Float], misalignment: Int = 0, form: Form = .dispatched) -> [Int16] {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: samples.count * 2 + 16, alignment: 16)
        defer { bytes.deallocate() }
        samples.withUnsafeBufferPointer { form.convert($0.baseAddress!, count: $0.count, into: bytes + misalignment) }
        return (0..<samples.count).map { Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: misalignment + 2 * $0, as: Int16.self)) }
    }

    /// Values where a conversion goes wrong if it does: ±0, NaNs with either sign, infinities,
    /// full scale and beyond, the rounding ties k + ½ and their neighbours, the smallest floats.
    var edges: [Float] {
        var values: [Float] = [
            0, -0.0, .nan, -.nan, .infinity, -.infinity, 1, -1, 1.5, -1.5, 2, -2, 1e30, -1e30,
            .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, Float(1).nextUp, Float(-1).nextDown,
            Float(1).nextDown, Float(-1).nextUp, 0.49999997 / 32767, 0.5 / 32767, -0.5 / 32767,
        ]
        for k in stride(from: -32768, through: 32767, by: 1) {
            let tie = (Float(k) + 0.5) / 32767
            values += [tie, tie.nextUp, tie.nextDown, Float(k) / 32767]
        }
        return values
    }

    @Test("every edge value converts as int16Sample does, whatever the alignment and the tail", arguments: Form.allCases)
    func edgeValues(form: Form) {
        let values = edges
        let expected = values.map(int16Sample)
        for misalignment in [0, 1, 2, 6] {
            #expect(bulk(values, misalignment: misalignment, form: form) == expected, "misaligned by \(misalignment)")
        }
        for count in 0..<20 {
            #expect(bulk(Array(values.prefix(count)), form: form) == Array(expected.prefix(count)), "\(count) samples")
        }
    }

    @Test("a sweep of bit patterns across ±1.01 converts as int16Sample does", arguments: Form.allCases)
    func sweep(form: Form) {
        let low = (-1.01 as Float).bitPattern
        let high = (1.01 as Float).bitPattern
        // Negative floats count down from 0x8000_0000; positive ones up from 0.
        var values: [Float] = []
        for bits in stride(from: UInt32(0), to: high, by: 4099) { values.append(Float(bitPattern: bits)) }
        for bits in stride(from: UInt32(0x8000_0000), to: low, by: 4099) { values.append(Float(bitPattern: bits)) }
        #expect(bulk(values, form: form) == values.map(int16Sample))
    }

    #if arch(x86_64)
        @Test("the AVX2 form runs where the processor has AVX2 and converts nothing where it has not")
        func avx2WhereAvailable() {
            let values: [Float] = (0..<20).map { Float($0) / 20 }
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: 40, alignment: 16)
            defer { bytes.deallocate() }
            let converted = values.withUnsafeBufferPointer { haptics_convert_int16_avx2($0.baseAddress!, $0.count, bytes) }
            #expect(converted == (haptics_has_avx2() != 0 ? 16 : 0))
        }
    #endif

    @Test("int16Sample: 1 → 32767, −1 → −32767, ½ → 16384, −½ → −16384, NaN → 0")
    func scalarRule() {
        #expect(bulk([1, -1, 0.5, -0.5, .nan, 3]) == [32767, -32767, 16384, -16384, 0, 32767])
    }
}
