import Foundation
@testable import HapticsFormats
import HapticsTestSupport
import Testing

/// Sound files read for `haptics analyze`: samples mixed to mono at the file's own rate, and
/// every problem one line naming the file.
@Suite("AudioFile")
struct AudioFileTests {
    /// The refusal of the file at `path`: one line starting with the path; returns what it says.
    static func refusal(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        do throws(FormatError) {
            let sound = try AudioFile(contentsOf: path)
            Issue.record("read \(path): \(sound.samples.count) samples", sourceLocation: sourceLocation)
            return ""
        } catch {
            _ = FuzzRun.refusal(error.description, .source("\(path): "), label: path, sourceLocation: sourceLocation)
            return error.description
        }
    }

    @Test("a mono WAV reads as its samples, rate and length, with progress to 1")
    func mono() throws {
        let folder = try TemporaryFolder()
        let samples = TestWAV.sine(frequency: 100, seconds: 0.5, sampleRate: 8_000)
        let path = try TestWAV.write(samples, sampleRate: 8_000, encoding: .f32, to: folder.file("tone.wav"))
        var reported: [Double] = []
        let sound = try AudioFile(contentsOf: path) { reported.append($0) }
        #expect(sound.sampleRate == 8_000 && sound.channelCount == 1)
        #expect(sound.samples == samples)
        #expect(sound.duration == 0.5)
        #expect(reported.last == 1 && reported == reported.sorted() && reported.allSatisfy { (0...1).contains($0) })
    }

    @Test("a stereo WAV is mixed to mono, the mean of its channels, and keeps its channel count")
    func stereo() throws {
        let folder = try TemporaryFolder()
        let frames = 1_000
        let interleaved = (0..<frames).flatMap { _ in [Float(0.5), Float(0.1)] }
        let path = try TestWAV.write(interleaved, channels: 2, sampleRate: 16_000, encoding: .f32, to: folder.file("stereo.wav"))
        let sound = try AudioFile(contentsOf: URL(fileURLWithPath: path))
        #expect(sound.channelCount == 2 && sound.sampleRate == 16_000)
        #expect(sound.samples.count == frames)
        #expect(sound.samples.allSatisfy { abs($0 - 0.3) < 1e-6 }, "\(sound.samples.prefix(4))")
    }

    @Test("no file, a folder, an empty file, data that is no sound: one line naming the file, saying which")
    func notASound() throws {
        let folder = try TemporaryFolder()
        #expect(Self.refusal(folder.path("missing.wav")).hasSuffix("no such file"))
        #expect(Self.refusal(folder.url.path).contains("directory"))
        #expect(Self.refusal(try folder.write("empty.wav", Data()).path).contains("the file is empty"))
        #expect(Self.refusal(try folder.write("text.wav", "this is not a sound, only some text to read\n").path).contains("not a sound that can be read"))
    }

    @Test("a header with an impossible rate, or a float sample past ±1000 or not a number: one line naming the file and the place")
    func damaged() throws {
        let folder = try TemporaryFolder()
        let slow = try TestWAV.write([0, 0.1, 0.2], sampleRate: 500, to: folder.file("slow.wav"))
        #expect(Self.refusal(slow).contains("sample rate of 500 Hz"))
        // TestWAV clamps samples to ±1: the loud one is written into the data by hand.
        var loud = TestWAV.bytes([Float](repeating: 0.1, count: 8_000), channels: 1, sampleRate: 8_000, encoding: .f32)
        let offset = loud.count - 4 * 8_000 + 4 * 4_000
        withUnsafeBytes(of: Float(2_000).bitPattern.littleEndian) { loud.replaceSubrange(offset..<offset + 4, with: $0) }
        let loudPath = try folder.write("loud.wav", Data(loud)).path
        #expect(Self.refusal(loudPath).contains("the sample at 0.5"), "the time of the damaged sample")
        var broken = [Float](repeating: 0.1, count: 800)
        broken[10] = .nan
        let nanPath = try TestWAV.write(broken, sampleRate: 8_000, encoding: .f32, to: folder.file("nan.wav"))
        #expect(Self.refusal(nanPath).contains("NaN"))
    }

    @Test("only the decoder's own lines on standard error count as its complaint, not another thread's")
    func decoderLinesOnly() {
        func captured(_ text: String) -> String? {
            StandardErrorCapture.during { _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) } }.1
        }
        #expect(captured("◇ Test other() started.\n") == nil, "a test runner's progress beside the decoder")
        #expect(captured("") == nil)
        #expect(
            captured("[src/libmpg123/parse.c:do_readahead():1099] warning: Cannot read next header\n")
                == "warning: Cannot read next header")
        #expect(
            captured("progress 50%\nNote: Illegal Audio-MPEG-Header 0x00000000 at offset 4.\n") == "Note: Illegal Audio-MPEG-Header 0x00000000 at offset 4.")
    }
}
