import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// alsa-lib's file plugin labels Float32 data as integer PCM; the output corrects the header
/// after closing, so the file says what its samples are.
@Suite("WAV headers of the file plugin")
struct ALSAFileHeaderTests {
    private func play(_ samples: [Float], device: String, channelCount: Int, formats: [ALSASampleFormat]) throws -> ALSASampleFormat {
        let output = try ALSAOutput(device: device, sampleRate: 48_000, channelCount: channelCount, formats: formats)
        try samples.withUnsafeBufferPointer { try output.write($0) }
        output.drain()
        output.close()
        return output.negotiatedFormat
    }

    @Test(
        "Float32 through file:'PATH',wav, file:FILE=PATH,FORMAT=wav and file:\"PATH\",wav: IEEE float tag 3, 32 bits, samples bit for bit",
        arguments: ["file:'%@',wav", "file:FILE=%@,FORMAT=wav", "file:\"%@\",wav"], [1, 4])
    func floatHeader(form: String, channels: Int) throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.file("capture.wav")
        let frames = 2_000
        let samples = TestSignals.interleave(
            (0..<channels).map {
                TestSignals.sine(frequency: 100 + 50 * Double($0), amplitude: 0.8, frames: frames, sampleRate: 48_000)
            })
        let format = try play(samples, device: form.replacingOccurrences(of: "%@", with: url.path), channelCount: channels, formats: [.float32, .s16])
        #expect(format == .float32)
        let wav = try WAVFile(contentsOf: url)
        #expect(wav.encoding == .float(bits: 32))
        #expect(wav.channelCount == channels)
        #expect(try wav.checkedFloat32Samples().map(\.bitPattern) == samples.map(\.bitPattern))
    }

    @Test("16-bit output keeps the plugin's header: integer PCM, 16 bits")
    func integerHeader() throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.file("capture.wav")
        let samples = TestSignals.sine(frequency: 150, amplitude: 0.5, frames: 1_000, sampleRate: 48_000)
        let format = try play(samples, device: "file:'\(url.path)',wav", channelCount: 1, formats: [.s16])
        #expect(format == .s16)
        let wav = try WAVFile(contentsOf: url)
        #expect(wav.encoding == .integer(bits: 16))
        #expect(try wav.checkedInt16Samples() == samples.map(ALSASampleConversion.s16))
    }

    @Test("file:PATH (the raw format) is left as the plugin wrote it: samples only, no header")
    func rawFileUntouched() throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let url = folder.file("capture.wav")
        let samples = TestSignals.sine(frequency: 150, amplitude: 0.5, frames: 1_000, sampleRate: 48_000)
        _ = try play(samples, device: "file:\(url.path)", channelCount: 1, formats: [.float32])
        let bytes = try Data(contentsOf: url)
        let expected = samples.withUnsafeBytes { Data($0) }
        #expect(bytes == expected)
    }

    @Test(
        "the file a file: PCM name writes to",
        arguments: [
            ("file:'/tmp/out.wav',wav", "/tmp/out.wav"),
            ("file:\"/tmp/a b,c.wav\",wav", "/tmp/a b,c.wav"),
            ("file:/tmp/out.wav", "/tmp/out.wav"),
            ("file:FILE=/tmp/out.wav,FORMAT=wav", "/tmp/out.wav"),
            ("file:FORMAT=wav,FILE='/tmp/x.wav'", "/tmp/x.wav"),
            ("file:'/tmp/%r.wav',wav", nil),
            ("hw:0", nil),
            ("null", nil),
            ("file:", nil),
        ] as [(String, String?)])
    func parsesDeviceNames(device: String, path: String?) {
        #expect(ALSAFileHeader.path(fromDevice: device) == path)
    }
}
