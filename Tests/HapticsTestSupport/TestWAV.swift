import Foundation

/// Sound files for tests to play: WAV bytes built here, independently of the library's writer,
/// in every encoding the library reads.
public enum TestWAV {
    public enum Encoding: Sendable, CaseIterable {
        case s16, s24, s32, f32
        var bytes: Int { self == .s16 ? 2 : self == .s24 ? 3 : 4 }
    }

    /// `frames` samples of a sine, amplitude `amplitude`, at `sampleRate`.
    public static func sine(frequency: Double, seconds: Double, sampleRate: Double, amplitude: Double = 0.5) -> [Float] {
        (0..<Int((seconds * sampleRate).rounded())).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    /// A WAV file's bytes for interleaved samples in −1…1. `extensible` writes the
    /// `WAVE_FORMAT_EXTENSIBLE` header.
    public static func bytes(_ samples: [Float], channels: Int, sampleRate: Int, encoding: Encoding = .s16, extensible: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        func u16(_ v: Int) { out += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: Int) { out += (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let tag = encoding == .f32 ? 3 : 1
        let blockAlign = channels * encoding.bytes
        let dataBytes = samples.count * encoding.bytes
        let fmtSize = extensible ? 40 : 16
        out += Array("RIFF".utf8)
        u32(4 + 8 + fmtSize + 8 + dataBytes)
        out += Array("WAVE".utf8)
        out += Array("fmt ".utf8)
        u32(fmtSize)
        u16(extensible ? 0xFFFE : tag)
        u16(channels)
        u32(sampleRate)
        u32(sampleRate * blockAlign)
        u16(blockAlign)
        u16(encoding.bytes * 8)
        if extensible {
            u16(22)
            u16(encoding.bytes * 8)
            u32(0)
            u16(tag)
            u16(0)
            out += [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        }
        out += Array("data".utf8)
        u32(dataBytes)
        for x in samples {
            let v = Double(min(max(x, -1), 1))
            switch encoding {
            case .s16: u16(Int((v * 32767).rounded()))
            case .s24:
                let i = Int((v * 8_388_607).rounded())
                out += [UInt8(i & 0xFF), UInt8((i >> 8) & 0xFF), UInt8((i >> 16) & 0xFF)]
            case .s32: u32(Int((v * 2_147_483_647).rounded()))
            case .f32: u32(Int(Float(v).bitPattern))
            }
        }
        return out
    }

    /// Writes a WAV file and returns its path.
    @discardableResult
    public static func write(_ samples: [Float], channels: Int = 1, sampleRate: Int, encoding: Encoding = .s16, to url: URL) throws -> String {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes(samples, channels: channels, sampleRate: sampleRate, encoding: encoding)).write(to: url)
        return url.path
    }
}
