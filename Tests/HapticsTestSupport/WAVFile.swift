import Foundation

/// A WAV file taken apart, for checking what a writer, a device or a command wrote: every
/// header field as stored, and the bytes of the `data` chunk, read independently of the
/// library's own reader (which converts samples and would hide a wrong header).
///
/// Reads RIFF/WAVE and RF64 (EBU Tech 3306; the sizes then come from the `ds64` chunk and the
/// 32-bit fields as stored are in ``stored32``), any format tag and channel count. A file still
/// being written (alsa-lib's `file:` plugin leaves the sizes at 0 until it closes) reads too:
/// ``data`` is everything after the `data` chunk's header, whatever its size field says, so a
/// test compares ``dataSize`` with it to check the header.
public struct WAVFile: Sendable {
    public struct ReadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// How samples are stored, from the format tag (or an extensible file's sub-format).
    public enum Encoding: Equatable, Sendable {
        case integer(bits: Int)
        case float(bits: Int)
    }

    /// The RIFF chunk's size field (for RF64, from `ds64` when the field holds 0xFFFFFFFF).
    public var riffSize: Int
    /// The `fmt ` chunk's size field.
    public var fmtSize: Int
    /// The format tag: 1 integer PCM, 3 IEEE float, 0xFFFE extensible.
    public var formatTag: Int
    public var channelCount: Int
    public var sampleRate: Int
    public var byteRate: Int
    public var blockAlign: Int
    public var bitsPerSample: Int
    /// For the extensible format: valid bits and the tag that opens the sub-format GUID.
    public var validBits: Int?
    public var subFormatTag: Int?
    /// The rest of the sub-format GUID after its tag (must be ``guidSuffix``).
    public var subFormatSuffix: [UInt8]?
    /// The `fact` chunk's frame count, when there is one.
    public var factFrames: Int?
    /// The `data` chunk's size field (for RF64, from `ds64` when the field holds 0xFFFFFFFF).
    public var dataSize: Int
    /// The bytes after the `data` chunk's header, up to the end of the file; or only the last of
    /// them when read with ``init(contentsOf:lastFrames:)``.
    public var data: [UInt8]
    /// Bytes that follow the data chunk's header in the file (``data``'s count unless only the
    /// last frames were read).
    public var dataBytesInFile: Int
    /// Bytes in the file.
    public var fileSize: Int
    /// Whether the file is RF64, with a `ds64` chunk.
    public var isRF64 = false
    /// The `ds64` chunk's sample count (RF64 only).
    public var ds64SampleCount: Int?
    /// The 32-bit RIFF, data and fact fields as stored (0xFFFFFFFF in an RF64 file).
    public var stored32: (riff: UInt32, data: UInt32, fact: UInt32?) = (0, 0, nil)

    /// The GUID suffix every WAVE_FORMAT_EXTENSIBLE sub-format shares.
    public static let guidSuffix: [UInt8] = [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]

    public init(contentsOf url: URL) throws {
        try self.init(bytes: [UInt8](Data(contentsOf: url)), name: url.path)
    }

    public init(_ data: Data, name: String = "WAV data") throws {
        try self.init(bytes: [UInt8](data), name: name)
    }

    /// Takes `bytes` apart; errors start with `name`.
    public init(bytes: [UInt8], name: String = "WAV data") throws {
        func fail(_ problem: String) -> ReadError { ReadError(description: "\(name): \(problem)") }
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
        self.data = data.start < bytes.count ? Array(bytes[data.start...]) : []
        dataBytesInFile = self.data.count
    }

    /// Reads the header and only the last `lastFrames` frames, for captures too long to read
    /// whole in an unoptimised test.
    public init(contentsOf url: URL, lastFrames: Int) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let head = try handle.read(upToCount: 4096) ?? Data()
        self = try WAVFile(head, name: url.path)
        let size = Int(try handle.seekToEnd())
        let dataStart = head.count - data.count
        let tailBytes = min(size - dataStart, lastFrames * blockAlign) / max(1, blockAlign) * blockAlign
        try handle.seek(toOffset: UInt64(size - tailBytes))
        data = [UInt8](try handle.read(upToCount: tailBytes) ?? Data())
        dataBytesInFile = size - dataStart
        fileSize = size
    }

    /// How the samples are stored: the format tag, or an extensible file's sub-format tag, with
    /// the sample size; nil for tags other than integer PCM and IEEE float.
    public var encoding: Encoding? {
        switch subFormatTag ?? formatTag {
        case 1: .integer(bits: bitsPerSample)
        case 3: .float(bits: bitsPerSample)
        default: nil
        }
    }

    /// Frames in ``data``.
    public var frameCount: Int { blockAlign == 0 ? 0 : data.count / blockAlign }

    /// ``data`` as 16-bit integers, interleaved, whatever the header says.
    public var int16Samples: [Int16] {
        stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: LittleEndian.u16(data, $0)) }
    }

    /// ``data`` as 32-bit floats, interleaved, bit for bit, whatever the header says.
    public var float32Samples: [Float] {
        stride(from: 0, to: data.count - 3, by: 4).map { Float(bitPattern: LittleEndian.u32(data, $0)) }
    }

    /// Samples read as floats whatever the storage: 32-bit data is float, 16-bit data is scaled
    /// by 1/32767.
    public var samplesAsFloat: [Float] {
        bitsPerSample == 32 ? float32Samples : int16Samples.map { Float($0) / 32767 }
    }

    /// ``int16Samples``, after checking that the header says 16-bit integers.
    public func checkedInt16Samples() throws -> [Int16] {
        guard encoding == .integer(bits: 16) else { throw ReadError(description: "samples are \(String(describing: encoding)), not 16-bit integers") }
        return int16Samples
    }

    /// ``float32Samples``, after checking that the header says 32-bit floats.
    ///
    /// alsa-lib's file plugin labels FLOAT_LE data as 32-bit integer PCM (format tag 1);
    /// `ALSAOutput` corrects the tag when it closes a `file:` device (see
    /// `ALSAFileHeaderTests`). A caller reading a file the plugin wrote some other way passes
    /// `acceptingMislabelledInteger: true`.
    public func checkedFloat32Samples(acceptingMislabelledInteger: Bool = false) throws -> [Float] {
        let acceptable = encoding == .float(bits: 32) || (acceptingMislabelledInteger && encoding == .integer(bits: 32))
        guard acceptable else { throw ReadError(description: "samples are \(String(describing: encoding)), not 32-bit floats") }
        return float32Samples
    }

    /// One channel of interleaved samples.
    public static func channel<T>(_ index: Int, of samples: [T], channels: Int) -> [T] {
        stride(from: index, to: samples.count, by: channels).map { samples[$0] }
    }
}
