import Foundation
import HapticsTestSupport

/// A WAV file taken apart for checking what ``WAVWriter`` wrote: every header field as stored,
/// and the `data` chunk's bytes. Reads RF64 (EBU Tech 3306) too: the sizes then come from the
/// `ds64` chunk, and the 32-bit fields as stored are in ``stored32``.
struct WAVHeader {
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The RIFF chunk's size field.
    var riffSize: Int
    /// The `fmt ` chunk's size field.
    var fmtSize: Int
    /// The format tag: 1 integer PCM, 3 IEEE float, 0xFFFE extensible.
    var formatTag: Int
    var channelCount: Int
    var sampleRate: Int
    var byteRate: Int
    var blockAlign: Int
    var bitsPerSample: Int
    /// For the extensible format: valid bits and the tag that opens the sub-format GUID.
    var validBits: Int?
    var subFormatTag: Int?
    /// The rest of the sub-format GUID after its tag (must be the KSDATAFORMAT suffix).
    var subFormatSuffix: [UInt8]?
    /// The `fact` chunk's frame count, when there is one.
    var factFrames: Int?
    /// The `data` chunk's size field.
    var dataSize: Int
    /// The bytes after the `data` chunk's header, up to the end of the file.
    var data: [UInt8]
    /// Bytes in the file.
    var fileSize: Int
    /// Whether the file is RF64, with a `ds64` chunk.
    var isRF64 = false
    /// The `ds64` chunk's sample count (RF64 only).
    var ds64SampleCount: Int?
    /// The 32-bit RIFF, data and fact fields as stored (0xFFFFFFFF in an RF64 file).
    var stored32: (riff: UInt32, data: UInt32, fact: UInt32?) = (0, 0, nil)

    /// The GUID suffix every WAVE_FORMAT_EXTENSIBLE sub-format shares.
    static let guidSuffix: [UInt8] = [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

    init(contentsOf url: URL) throws {
        try self.init(bytes: [UInt8](Data(contentsOf: url)))
    }

    init(bytes: [UInt8]) throws {
        func fail(_ problem: String) -> ReadError { ReadError(description: problem) }
        guard bytes.count >= 12, ["RIFF", "RF64"].contains(LittleEndian.tag(bytes, 0)), LittleEndian.tag(bytes, 8) == "WAVE" else {
            throw fail("not a RIFF/WAVE file")
        }
        fileSize = bytes.count
        isRF64 = LittleEndian.tag(bytes, 0) == "RF64"
        riffSize = Int(LittleEndian.u32(bytes, 4))
        stored32.riff = LittleEndian.u32(bytes, 4)
        var ds64: (riff: Int, data: Int, samples: Int)?
        var fmt: (size: Int, start: Int)?
        var fact: Int?
        var data: (size: Int, start: Int)?
        var offset = 12
        while offset + 8 <= bytes.count, data == nil {
            let id = LittleEndian.tag(bytes, offset)
            let stored = LittleEndian.u32(bytes, offset + 4)
            var size = Int(stored)
            let start = offset + 8
            switch id {
            case "ds64":
                guard isRF64, offset == 12, size >= 28 else { throw fail("a ds64 chunk outside an RF64 file's first chunk") }
                ds64 = (Int(LittleEndian.u64(bytes, start)), Int(LittleEndian.u64(bytes, start + 8)), Int(LittleEndian.u64(bytes, start + 16)))
            case "fmt ": fmt = (size, start)
            case "fact":
                stored32.fact = LittleEndian.u32(bytes, start)
                fact = Int(LittleEndian.u32(bytes, start))
            case "data":
                stored32.data = stored
                if stored == UInt32.max, let ds64 { size = ds64.data }
                data = (size, start)
            default: break
            }
            offset = start + size + (size & 1)
        }
        if isRF64 {
            guard let ds64 else { throw fail("an RF64 file without a ds64 chunk") }
            if stored32.riff == UInt32.max { riffSize = ds64.riff }
            if fact != nil, stored32.fact == UInt32.max { fact = ds64.samples }
            ds64SampleCount = ds64.samples
        }
        guard let fmt, fmt.size >= 16, fmt.start + fmt.size <= bytes.count else { throw fail("no complete fmt chunk") }
        guard let data else { throw fail("no data chunk") }
        fmtSize = fmt.size
        formatTag = Int(LittleEndian.u16(bytes, fmt.start))
        channelCount = Int(LittleEndian.u16(bytes, fmt.start + 2))
        sampleRate = Int(LittleEndian.u32(bytes, fmt.start + 4))
        byteRate = Int(LittleEndian.u32(bytes, fmt.start + 8))
        blockAlign = Int(LittleEndian.u16(bytes, fmt.start + 12))
        bitsPerSample = Int(LittleEndian.u16(bytes, fmt.start + 14))
        if formatTag == 0xFFFE {
            guard fmt.size >= 40 else { throw fail("extensible fmt chunk is \(fmt.size) bytes, expected 40") }
            validBits = Int(LittleEndian.u16(bytes, fmt.start + 18))
            subFormatTag = Int(LittleEndian.u16(bytes, fmt.start + 24))
            subFormatSuffix = Array(bytes[(fmt.start + 28)..<(fmt.start + 40)])
        }
        factFrames = fact
        dataSize = data.size
        self.data = Array(bytes[data.start...])
    }

    /// The 16-bit samples of the data chunk, interleaved.
    var int16Samples: [Int16] {
        stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: LittleEndian.u16(data, $0)) }
    }

    /// The 32-bit float samples of the data chunk, interleaved, bit for bit.
    var float32Samples: [Float] {
        stride(from: 0, to: data.count - 3, by: 4).map { Float(bitPattern: LittleEndian.u32(data, $0)) }
    }
}
