import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsRender

/// The WAV files ``WAVWriter`` produces, read back byte by byte.
@Suite("WAV writer")
struct WAVWriterTests {
    /// Writes `samples` (interleaved) in blocks of `block` samples and reads the file back.
    func write(
        _ samples: [Float], channels: Int, format: SampleFormat, rate: Int = 48_000,
        declaredFrames: Int? = nil, block: Int = 1000, in folder: TemporaryFolder
    ) throws -> WAVFile {
        let path = folder.path("out.wav")
        let writer = try WAVWriter(
            path: path, sampleRate: rate, channelCount: channels, format: format,
            frameCount: declaredFrames ?? samples.count / channels)
        try samples.withUnsafeBufferPointer { all throws(WAVError) in
            var start = 0
            while start < all.count {
                let end = min(start + block, all.count)
                try writer.write(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        #expect(writer.framesWritten == samples.count / channels)
        try writer.finish()
        return try WAVFile(contentsOf: URL(fileURLWithPath: path))
    }

    /// An independent statement of the 16-bit rule: clip, scale by 32767 in single precision,
    /// round half away from zero; NaN is silence.
    func expectedInt16(_ x: Float) -> Int16 {
        if x.isNaN { return 0 }
        return Int16((min(max(x, -1), 1) * 32767).rounded(.toNearestOrAwayFromZero))
    }

    func ramp(_ count: Int) -> [Float] {
        (0..<count).map { Float(sin(Double($0) * 0.013)) * 0.9 }
    }

    @Test("16-bit mono: PCM tag 1, 16-byte fmt, byte rate and block align for 2-byte frames, no fact chunk")
    func s16MonoHeader() throws {
        let folder = try TemporaryFolder()
        let frames = 1234
        let wav = try write(ramp(frames), channels: 1, format: .s16, rate: 44_100, in: folder)
        #expect(wav.formatTag == 1)
        #expect(wav.fmtSize == 16)
        #expect(wav.channelCount == 1)
        #expect(wav.sampleRate == 44_100)
        #expect(wav.byteRate == 44_100 * 2)
        #expect(wav.blockAlign == 2)
        #expect(wav.bitsPerSample == 16)
        #expect(wav.factFrames == nil)
        #expect(wav.dataSize == frames * 2)
        #expect(wav.data.count == wav.dataSize)
        #expect(wav.riffSize == wav.fileSize - 8)
        #expect(wav.fileSize == 44 + frames * 2)
    }

    @Test("32-bit float stereo: IEEE float tag 3, 18-byte fmt, a fact chunk with the frame count")
    func f32StereoHeader() throws {
        let folder = try TemporaryFolder()
        let frames = 777
        let wav = try write(ramp(frames * 2), channels: 2, format: .f32, in: folder)
        #expect(wav.formatTag == 3)
        #expect(wav.fmtSize == 18)
        #expect(wav.channelCount == 2)
        #expect(wav.sampleRate == 48_000)
        #expect(wav.byteRate == 48_000 * 8)
        #expect(wav.blockAlign == 8)
        #expect(wav.bitsPerSample == 32)
        #expect(wav.factFrames == frames)
        #expect(wav.dataSize == frames * 8)
        #expect(wav.data.count == wav.dataSize)
        #expect(wav.riffSize == wav.fileSize - 8)
    }

    @Test("16-bit 4-channel uses WAVE_FORMAT_EXTENSIBLE with a PCM sub-format and 16 valid bits")
    func s16FourChannelHeader() throws {
        let folder = try TemporaryFolder()
        let frames = 500
        let wav = try write(ramp(frames * 4), channels: 4, format: .s16, in: folder)
        #expect(wav.formatTag == 0xFFFE)
        #expect(wav.fmtSize == 40)
        #expect(wav.channelCount == 4)
        #expect(wav.byteRate == 48_000 * 8)
        #expect(wav.blockAlign == 8)
        #expect(wav.bitsPerSample == 16)
        #expect(wav.validBits == 16)
        #expect(wav.subFormatTag == 1)
        #expect(wav.subFormatSuffix == WAVFile.guidSuffix)
        #expect(wav.factFrames == nil)
        #expect(wav.dataSize == frames * 8)
        #expect(wav.riffSize == wav.fileSize - 8)
    }

    @Test("32-bit float 4-channel uses WAVE_FORMAT_EXTENSIBLE with a float sub-format and a fact chunk")
    func f32FourChannelHeader() throws {
        let folder = try TemporaryFolder()
        let frames = 300
        let wav = try write(ramp(frames * 4), channels: 4, format: .f32, in: folder)
        #expect(wav.formatTag == 0xFFFE)
        #expect(wav.fmtSize == 40)
        #expect(wav.blockAlign == 16)
        #expect(wav.bitsPerSample == 32)
        #expect(wav.validBits == 32)
        #expect(wav.subFormatTag == 3)
        #expect(wav.subFormatSuffix == WAVFile.guidSuffix)
        #expect(wav.factFrames == frames)
        #expect(wav.dataSize == frames * 16)
        #expect(wav.riffSize == wav.fileSize - 8)
    }

    @Test("16-bit samples are clipped, scaled by 32767 and rounded half away from zero, across buffer flushes")
    func s16SamplesRoundTrip() throws {
        let folder = try TemporaryFolder()
        let probes: [Float] = [
            0, -0.0, 1, -1, 1.5, -1.5, .infinity, -.infinity, .nan, 0.5, -0.5,
            0.5 / 32767, -0.5 / 32767, 1.5 / 32767, -1.5 / 32767, 0.49 / 32767, 1e-30,
        ]
        // Enough samples to pass the writer's internal flush threshold several times.
        let samples = probes + ramp(100_000)
        let wav = try write(samples, channels: 1, format: .s16, block: 4097, in: folder)
        let read = wav.int16Samples
        #expect(read.count == samples.count)
        #expect(Array(read.prefix(probes.count)) == probes.map(expectedInt16))
        #expect(Array(read.prefix(11)) == [0, 0, 32767, -32767, 32767, -32767, 32767, -32767, 0, 16384, -16384])
        #expect(read == samples.map(int16Sample))
        #expect(read == samples.map(expectedInt16))
    }

    @Test("32-bit float samples are stored bit for bit, including NaN, infinities, -0 and subnormals")
    func f32SamplesAreBitExact() throws {
        let folder = try TemporaryFolder()
        let probes: [Float] = [0, -0.0, 1, -1, 1.5, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, -.leastNormalMagnitude, .pi]
        let samples = probes + ramp(60_001)
        let wav = try write(samples, channels: 1, format: .f32, block: 333, in: folder)
        let read = wav.float32Samples
        #expect(read.map(\.bitPattern) == samples.map(\.bitPattern))
    }

    @Test("finish() rewrites the header of a regular file when fewer frames arrived than were declared")
    func finishCorrectsShortFile() throws {
        let folder = try TemporaryFolder()
        for format in SampleFormat.allCases {
            let wav = try write(ramp(600 * 2), channels: 2, format: format, declaredFrames: 1000, in: folder)
            let frameBytes = 2 * format.bytesPerSample
            #expect(wav.dataSize == 600 * frameBytes, "\(format)")
            #expect(wav.data.count == 600 * frameBytes, "\(format)")
            #expect(wav.riffSize == wav.fileSize - 8, "\(format)")
            if format == .f32 { #expect(wav.factFrames == 600) }
        }
    }

    @Test("finish() also corrects the header when more frames arrived than were declared")
    func finishCorrectsLongFile() throws {
        let folder = try TemporaryFolder()
        let wav = try write(ramp(900), channels: 1, format: .f32, declaredFrames: 100, in: folder)
        #expect(wav.dataSize == 900 * 4)
        #expect(wav.factFrames == 900)
        #expect(wav.riffSize == wav.fileSize - 8)
    }

    @Test("a path that cannot be created throws a WAVError naming the path")
    func unwritablePath() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("missing-folder/out.wav")
        let error = try #require(throws: WAVError.self) {
            try WAVWriter(path: path, sampleRate: 48_000, channelCount: 1, format: .s16, frameCount: 10)
        }
        #expect(error.description.hasPrefix(path + ": "))
        #expect(error.path == path)
        guard case .cannotCreate = error else {
            Issue.record("not cannotCreate: \(error)")
            return
        }
        #expect(error.description.contains("No such file or directory"))
        #expect(!error.description.contains("\n"))
    }
}

@Suite("WAV writer format checks")
struct WAVWriterFormatTests {
    @Test(
        "a rate or channel count a header cannot hold is refused before the file is created",
        arguments: [
            (-1, 1), (0, 1), (1_000_001, 1), (48_000, 0), (48_000, -2), (48_000, 257),
        ])
    func unsupportedFormat(rate: Int, channels: Int) throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let path = folder.path("out.wav")
        let error = try #require(throws: WAVError.self) {
            try WAVWriter(path: path, sampleRate: rate, channelCount: channels, format: .s16, frameCount: 10)
        }
        #expect(error == .unsupportedFormat(path: path, sampleRate: rate, channelCount: channels))
        #expect(error.description.hasPrefix("\(path): cannot write a WAV file at \(rate) Hz"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a profile made in code with a rate outside 8000…192000 Hz is refused even when it allows that rate")
    func allowedButImpossibleRate() {
        for rate in [-1, 0, 1, 999_999_999] {
            let profile = ActuatorProfile(name: "odd", minFrequency: 60, maxFrequency: 300, sampleRate: rate, allowedSampleRates: [rate])
            #expect(profile.problem(withSampleRate: rate) == "sample rate must be between 8000 and 192000 Hz")
        }
    }
}
