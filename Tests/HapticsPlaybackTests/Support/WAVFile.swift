import Foundation
import HapticsTestSupport

/// A WAV file read back for checking what a device or renderer wrote: RIFF/WAVE with integer
/// PCM (16 or 32 bits) or IEEE float (32 bits), any channel count, samples interleaved.
struct WAVFile {
    enum Encoding: Equatable {
        case integer(bits: Int)
        case float(bits: Int)
    }

    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    let encoding: Encoding
    let channelCount: Int
    let sampleRate: Int
    /// The bytes of the `data` chunk.
    let data: [UInt8]

    var frameCount: Int {
        let bytesPerFrame = channelCount * bitsPerSample / 8
        return bytesPerFrame == 0 ? 0 : data.count / bytesPerFrame
    }

    var bitsPerSample: Int {
        switch encoding {
        case .integer(let bits), .float(let bits): bits
        }
    }

    init(contentsOf url: URL) throws {
        try self.init(bytes: [UInt8](Data(contentsOf: url)), name: url.path)
    }

    init(bytes: [UInt8], name: String = "WAV data") throws {
        func fail(_ problem: String) -> ReadError { ReadError(description: "\(name): \(problem)") }
        guard bytes.count >= 12, LittleEndian.tag(bytes, 0) == "RIFF", LittleEndian.tag(bytes, 8) == "WAVE" else {
            throw fail("not a RIFF/WAVE file")
        }
        var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
        var data: [UInt8]?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = LittleEndian.tag(bytes, offset)
            let declared = Int(LittleEndian.u32(bytes, offset + 4))
            let start = offset + 8
            // A writer killed mid-stream leaves sizes of 0 or 0xFFFFFFFF: take what is there.
            let size = min(declared, bytes.count - start)
            switch id {
            case "fmt ":
                guard size >= 16 else { throw fail("fmt chunk is \(size) bytes, expected at least 16") }
                var tag = Int(LittleEndian.u16(bytes, start))
                if tag == 0xFFFE, size >= 26 {
                    // WAVE_FORMAT_EXTENSIBLE: the real tag opens the sub-format GUID.
                    tag = Int(LittleEndian.u16(bytes, start + 24))
                }
                format = (tag, Int(LittleEndian.u16(bytes, start + 2)), Int(LittleEndian.u32(bytes, start + 4)), Int(LittleEndian.u16(bytes, start + 14)))
            case "data":
                data = Array(bytes[start..<start + size])
            default:
                break
            }
            offset = start + size + (size & 1)
        }
        guard let format else { throw fail("no fmt chunk") }
        guard let data else { throw fail("no data chunk") }
        guard format.channels > 0 else { throw fail("0 channels") }
        switch (format.tag, format.bits) {
        case (1, 16), (1, 32): encoding = .integer(bits: format.bits)
        case (3, 32): encoding = .float(bits: 32)
        default: throw fail("unsupported format tag \(format.tag) with \(format.bits) bits")
        }
        channelCount = format.channels
        sampleRate = format.rate
        self.data = data
    }

    /// The samples of a 16-bit integer file, interleaved.
    func int16Samples() throws -> [Int16] {
        guard encoding == .integer(bits: 16) else { throw ReadError(description: "samples are \(encoding), not 16-bit integers") }
        return stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: LittleEndian.u16(data, $0)) }
    }

    /// The samples of a 32-bit float file, interleaved.
    ///
    /// alsa-lib's file plugin labels FLOAT_LE data as 32-bit integer PCM (format tag 1);
    /// ``ALSAOutput`` corrects the tag when it closes a `file:` device (see
    /// `ALSAFileHeaderTests`). A caller reading a file the plugin wrote some other way passes
    /// `acceptingMislabelledInteger: true`.
    func float32Samples(acceptingMislabelledInteger: Bool = false) throws -> [Float] {
        let acceptable = encoding == .float(bits: 32) || (acceptingMislabelledInteger && encoding == .integer(bits: 32))
        guard acceptable else { throw ReadError(description: "samples are \(encoding), not 32-bit floats") }
        return stride(from: 0, to: data.count - 3, by: 4).map { Float(bitPattern: LittleEndian.u32(data, $0)) }
    }
}
