/// Reading RIFF/WAV fields from bytes, for the tests' WAV readers.
public enum LittleEndian {
    /// The four-character chunk tag at `offset` (`RIFF`, `fmt `, `data`, …).
    public static func tag(_ bytes: [UInt8], _ offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    /// The little-endian 16-bit value at `offset`.
    public static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    /// The little-endian 32-bit value at `offset`.
    public static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    /// The little-endian 64-bit value at `offset`.
    public static func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }
}
