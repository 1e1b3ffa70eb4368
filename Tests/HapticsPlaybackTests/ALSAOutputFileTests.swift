import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// Playing through alsa-lib's file plugin, which writes what the device was sent to a WAV file.
@Suite("ALSA output through the file plugin")
struct ALSAOutputFileTests {
    private func play(_ samples: [Float], to url: URL, channelCount: Int, formats: [ALSASampleFormat]) throws -> ALSASampleFormat {
        let output = try ALSAOutput(device: "file:'\(url.path)',wav", sampleRate: 48_000, channelCount: channelCount, formats: formats)
        // Uneven chunks, to cross period boundaries the way an engine's writes might not.
        var offset = 0
        for frames in [1, 100, 333, 1000, 7] where offset < samples.count {
            let end = min(samples.count, offset + frames * channelCount)
            try samples[offset..<end].withUnsafeBufferPointer { try output.write($0) }
            offset = end
        }
        try samples[offset...].withUnsafeBufferPointer { try output.write($0) }
        output.drain()
        output.close()
        return output.negotiatedFormat
    }

    @Test("Float32 samples reach the file bit for bit, in channel order")
    func floatSamplesAreExact() throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.file("capture.wav")
        let frames = 4_801
        let channels: [[Float]] = [
            TestSignals.sine(frequency: 200, amplitude: 0.9, frames: frames, sampleRate: 48_000),
            TestSignals.sine(frequency: 31, amplitude: 0.3, frames: frames, sampleRate: 48_000, phase: 1),
            (0..<frames).map { Float($0) / Float(frames) },
            (0..<frames).map { $0.isMultiple(of: 2) ? -1 : 1 },
        ]
        let samples = TestSignals.interleave(channels)

        let format = try play(samples, to: url, channelCount: 4, formats: [.float32, .s16])

        #expect(format == .float32)
        let wav = try WAVFile(contentsOf: url)
        #expect(wav.channelCount == 4)
        #expect(wav.sampleRate == 48_000)
        let read = try wav.checkedFloat32Samples(acceptingMislabelledInteger: true)
        #expect(read.count == samples.count)
        #expect(read.map(\.bitPattern) == samples.map(\.bitPattern))
    }

    @Test("16-bit output is clipped to ±1, scaled by 32767 and rounded half away from zero")
    func s16ConversionIsTheDocumentedOne() throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.file("capture.wav")
        let probes: [Float] = [0, 1, -1, 1.5, -1.5, 0.5, -0.5, .nan, .infinity, -.infinity, 1 / 32767, 0.25 / 32767, 0.5 / 32767, -0.75 / 32767]
        let expected: [Int16] = [0, 32767, -32767, 32767, -32767, 16384, -16384, 0, 32767, -32767, 1, 0, 1, -1]
        let ramp = TestSignals.sine(frequency: 150, amplitude: 1.2, frames: 2_000, sampleRate: 48_000)

        let format = try play(probes + ramp, to: url, channelCount: 1, formats: [.s16])

        #expect(format == .s16)
        let wav = try WAVFile(contentsOf: url)
        #expect(wav.encoding == .integer(bits: 16))
        let read = try wav.checkedInt16Samples()
        #expect(read.count == probes.count + ramp.count)
        #expect(Array(read.prefix(probes.count)) == expected)
        #expect(Array(read.dropFirst(probes.count)) == ramp.map(ALSASampleConversion.s16))
    }

    @Test("A 4-channel 48 kHz 16-bit device (DualSense-like) gets each channel where it was written")
    func fourChannelMapping() throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.file("capture.wav")
        let frames = 2_400
        let left = TestSignals.sine(frequency: 80, amplitude: 0.7, frames: frames, sampleRate: 48_000)
        let right = TestSignals.sine(frequency: 250, amplitude: 0.4, frames: frames, sampleRate: 48_000)
        let silence = [Float](repeating: 0, count: frames)
        let samples = TestSignals.interleave([silence, silence, left, right])

        _ = try play(samples, to: url, channelCount: 4, formats: [.s16])

        let wav = try WAVFile(contentsOf: url)
        #expect(wav.channelCount == 4)
        #expect(wav.frameCount == frames)
        let read = try wav.checkedInt16Samples()
        func channel(_ index: Int) -> [Int16] { stride(from: index, to: read.count, by: 4).map { read[$0] } }
        #expect(channel(0).allSatisfy { $0 == 0 })
        #expect(channel(1).allSatisfy { $0 == 0 })
        #expect(channel(2) == left.map(ALSASampleConversion.s16))
        #expect(channel(3) == right.map(ALSASampleConversion.s16))
    }
}
