import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsRender

/// WAV files whose data outgrows RIFF's 32-bit sizes are written as RF64 (EBU Tech 3306).
@Suite("WAV writer: RF64")
struct WAVWriterRF64Tests {
    func ramp(_ count: Int) -> [Float] {
        (0..<count).map { Float(sin(Double($0) * 0.021)) * 0.8 }
    }

    /// Writes `samples` with a RIFF limit of `riffLimit` bytes and reads the file back.
    func write(
        _ samples: [Float], channels: Int, format: SampleFormat, riffLimit: Int,
        declaredFrames: Int? = nil, in folder: TemporaryFolder
    ) throws -> (WAVFile, Bool) {
        let path = folder.path("big.wav")
        let writer = try WAVWriter(
            path: path, sampleRate: 48_000, channelCount: channels, format: format,
            frameCount: declaredFrames ?? samples.count / channels, riffLimit: riffLimit)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.finish()
        return (try WAVFile(contentsOf: URL(fileURLWithPath: path)), writer.isRF64)
    }

    @Test(
        "past the RIFF limit the file is RF64: ds64 holds the 64-bit sizes, the 32-bit fields are 0xFFFFFFFF",
        arguments: [(1, SampleFormat.s16), (2, .f32), (4, .s16), (4, .f32)])
    func rf64PastTheLimit(channels: Int, format: SampleFormat) throws {
        let folder = try TemporaryFolder()
        let frames = 3_001
        let samples = ramp(frames * channels)
        let (wav, isRF64) = try write(samples, channels: channels, format: format, riffLimit: 1_000, in: folder)
        #expect(isRF64)
        #expect(wav.isRF64)
        #expect(wav.stored32.riff == UInt32.max)
        #expect(wav.stored32.data == UInt32.max)
        if format == .f32 {
            #expect(wav.stored32.fact == UInt32.max)
            #expect(wav.factFrames == frames)
        }
        #expect(wav.ds64SampleCount == frames)
        #expect(wav.riffSize == wav.fileSize - 8)
        #expect(wav.dataSize == frames * channels * format.bytesPerSample)
        #expect(wav.data.count == wav.dataSize)
        #expect(wav.channelCount == channels)
        #expect(wav.bitsPerSample == format.bytesPerSample * 8)
        switch format {
        case .s16: #expect(wav.int16Samples == samples.map(int16Sample))
        case .f32: #expect(wav.float32Samples.map(\.bitPattern) == samples.map(\.bitPattern))
        }
    }

    @Test("at the limit exactly the file stays RIFF; one frame more makes it RF64")
    func switchesAtTheLimit() throws {
        let folder = try TemporaryFolder()
        let frames = 500
        let riffBytes = WAVWriter.riffSize(frames: frames, channelCount: 1, format: .s16, rf64: false)
        let (atLimit, atLimitIsRF64) = try write(ramp(frames), channels: 1, format: .s16, riffLimit: riffBytes, in: folder)
        #expect(!atLimitIsRF64)
        #expect(!atLimit.isRF64)
        #expect(atLimit.riffSize == riffBytes)
        #expect(atLimit.riffSize == atLimit.fileSize - 8)
        let (past, pastIsRF64) = try write(ramp(frames + 1), channels: 1, format: .s16, riffLimit: riffBytes, in: folder)
        #expect(pastIsRF64)
        #expect(past.isRF64)
        #expect(past.dataSize == (frames + 1) * 2)
    }

    @Test("the real limit: a RIFF size of 0xFFFFFFFF is RIFF, one byte-frame more is RF64 (header only, nothing written)")
    func realLimitIsFourGiB() {
        // 16-bit mono: the RIFF size is 36 + 2·frames; 4 GiB − 1 is odd, so the last RIFF frame
        // count leaves one byte to spare.
        let lastRIFF = (Int(UInt32.max) - 36) / 2
        #expect(WAVWriter.riffSize(frames: lastRIFF, channelCount: 1, format: .s16, rf64: false) <= Int(UInt32.max))
        let riff = WAVWriter.header(sampleRate: 48_000, channelCount: 1, format: .s16, frames: lastRIFF, riffLimit: WAVWriter.riffLimit)
        #expect(!riff.isRF64)
        #expect(Array(riff.bytes[0..<4]) == Array("RIFF".utf8))
        #expect(riff.bytes.count == 44)
        let rf64 = WAVWriter.header(sampleRate: 48_000, channelCount: 1, format: .s16, frames: lastRIFF + 1, riffLimit: WAVWriter.riffLimit)
        #expect(rf64.isRF64)
        #expect(Array(rf64.bytes[0..<4]) == Array("RF64".utf8))
        #expect(Array(rf64.bytes[12..<16]) == Array("ds64".utf8))
        #expect(rf64.bytes.count == 80)
        // ds64: RIFF size, data size, sample count as 64-bit little-endian values.
        func u64(_ offset: Int) -> Int { (0..<8).reduce(0) { $0 | Int(rf64.bytes[offset + $1]) << (8 * $1) } }
        #expect(u64(20) == 72 + 2 * (lastRIFF + 1))
        #expect(u64(28) == 2 * (lastRIFF + 1))
        #expect(u64(36) == lastRIFF + 1)
        #expect(WAVWriter.riffLimit == 0xFFFF_FFFF)
        // 48 kHz 4-channel float, an hour: about 2.6 GiB of data, still RIFF; two hours is RF64.
        #expect(!WAVWriter.header(sampleRate: 48_000, channelCount: 4, format: .f32, frames: 48_000 * 3600, riffLimit: WAVWriter.riffLimit).isRF64)
        #expect(WAVWriter.header(sampleRate: 48_000, channelCount: 4, format: .f32, frames: 48_000 * 7200, riffLimit: WAVWriter.riffLimit).isRF64)
    }

    @Test("more frames than a RIFF header declared and can describe: an error, and no file is left")
    func undeclaredGrowthIsRefused() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("grown.wav")
        let writer = try WAVWriter(path: path, sampleRate: 48_000, channelCount: 1, format: .s16, frameCount: 10, riffLimit: 1_000)
        let samples = ramp(2_000)
        let error = try #require(throws: WAVError.self) {
            try samples.withUnsafeBufferPointer { try writer.write($0) }
        }
        #expect(error.description.hasPrefix(path + ": cannot write the file ("))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("a file declared RF64 that ends short keeps an RF64 header with the true sizes")
    func shortRF64IsCorrected() throws {
        let folder = try TemporaryFolder()
        let (wav, isRF64) = try write(ramp(800), channels: 1, format: .f32, riffLimit: 1_000, declaredFrames: 5_000, in: folder)
        #expect(isRF64)
        #expect(wav.isRF64)
        #expect(wav.dataSize == 800 * 4)
        #expect(wav.ds64SampleCount == 800)
        #expect(wav.riffSize == wav.fileSize - 8)
    }
}
