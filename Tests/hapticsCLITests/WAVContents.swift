import Foundation
import HapticsTestSupport

/// A WAV file as the command (or ALSA's `file:` plugin) wrote it: the header fields that
/// matter and the `data` chunk, for comparing with what the library renders.
struct WAVContents {
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// 1 integer PCM, 3 IEEE float, 0xFFFE extensible.
    var formatTag: Int
    /// The tag opening an extensible file's sub-format GUID.
    var subFormatTag: Int?
    var channelCount: Int
    var sampleRate: Int
    var blockAlign: Int
    var bitsPerSample: Int
    /// The `data` chunk's size field as stored.
    var declaredDataSize: Int
    /// The RIFF chunk's size field as stored.
    var riffSize: Int
    /// The data chunk's bytes (all that follows its header, if the size field is short of it),
    /// or only the last of them when read with ``init(contentsOf:lastFrames:)``.
    var data: [UInt8]
    /// Bytes that follow the data chunk's header in the file.
    var dataBytesInFile: Int
    var fileSize: Int

    init(contentsOf url: URL) throws {
        try self.init(Data(contentsOf: url), name: url.path)
    }

    init(_ bytesData: Data, name: String = "WAV data") throws {
        let bytes = [UInt8](bytesData)
        func fail(_ problem: String) -> ReadError { ReadError(description: "\(name): \(problem)") }
        guard bytes.count >= 12, LittleEndian.tag(bytes, 0) == "RIFF", LittleEndian.tag(bytes, 8) == "WAVE" else {
            throw fail("not a RIFF/WAVE file")
        }
        fileSize = bytes.count
        riffSize = Int(LittleEndian.u32(bytes, 4))
        var fmtStart: Int?
        var dataChunk: (size: Int, start: Int)?
        var offset = 12
        while offset + 8 <= bytes.count, dataChunk == nil {
            let id = LittleEndian.tag(bytes, offset)
            let size = Int(LittleEndian.u32(bytes, offset + 4))
            let start = offset + 8
            if id == "fmt ", size >= 16, start + size <= bytes.count { fmtStart = start }
            if id == "data" { dataChunk = (size, start) }
            offset = start + size + (size & 1)
        }
        guard let fmt = fmtStart else { throw fail("no fmt chunk") }
        guard let dataChunk else { throw fail("no data chunk") }
        formatTag = Int(LittleEndian.u16(bytes, fmt))
        channelCount = Int(LittleEndian.u16(bytes, fmt + 2))
        sampleRate = Int(LittleEndian.u32(bytes, fmt + 4))
        blockAlign = Int(LittleEndian.u16(bytes, fmt + 12))
        bitsPerSample = Int(LittleEndian.u16(bytes, fmt + 14))
        subFormatTag = formatTag == 0xFFFE && fmt + 26 <= bytes.count ? Int(LittleEndian.u16(bytes, fmt + 24)) : nil
        declaredDataSize = dataChunk.size
        data = Array(bytes[dataChunk.start...])
        dataBytesInFile = data.count
    }

    /// Reads the header and only the last `lastFrames` frames, for captures too long to read
    /// whole in an unoptimised test.
    init(contentsOf url: URL, lastFrames: Int) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let head = try handle.read(upToCount: 4096) ?? Data()
        self = try WAVContents(head, name: url.path)
        let size = Int(try handle.seekToEnd())
        let dataStart = head.count - data.count
        let tailBytes = min(size - dataStart, lastFrames * blockAlign) / max(1, blockAlign) * blockAlign
        try handle.seek(toOffset: UInt64(size - tailBytes))
        data = [UInt8](try handle.read(upToCount: tailBytes) ?? Data())
        dataBytesInFile = size - dataStart
        fileSize = size
    }

    /// Frames in the data chunk.
    var frameCount: Int { blockAlign == 0 ? 0 : data.count / blockAlign }

    /// Samples as 16-bit integers, interleaved.
    var int16Samples: [Int16] {
        stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: LittleEndian.u16(data, $0)) }
    }

    /// Samples as 32-bit floats, interleaved, bit for bit.
    var float32Samples: [Float] {
        stride(from: 0, to: data.count - 3, by: 4).map { Float(bitPattern: LittleEndian.u32(data, $0)) }
    }

    /// Samples read as floats whatever the storage: 32-bit data is float (the tag says so since
    /// `ALSAOutput` corrects the file plugin's header), 16-bit data is scaled by 1/32767.
    var samplesAsFloat: [Float] {
        bitsPerSample == 32 ? float32Samples : int16Samples.map { Float($0) / 32767 }
    }

    /// One channel of interleaved samples.
    static func channel<T>(_ index: Int, of samples: [T], channels: Int) -> [T] {
        stride(from: index, to: samples.count, by: channels).map { samples[$0] }
    }
}
