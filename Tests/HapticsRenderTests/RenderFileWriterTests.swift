import Foundation
import Synchronization
import HapticsCore
import HapticsTestSupport
import Testing
@testable import HapticsRender

/// The writer decides how a render reaches its file; whichever way, the file is the render in
/// order.
@Suite("Render file writer")
struct RenderFileWriterTests {
    @Test(
        "short renders are written in order, long ones into a new file in two parts, long ones into a stream through the pipeline",
        arguments: [
            (479_999, 48_000, true, RenderFileWriter.Strategy.inOrder), (479_999, 48_000, false, .inOrder),
            (480_000, 48_000, true, .twoParts), (480_000, 48_000, false, .pipelined),
            (440_999, 44_100, true, .inOrder), (441_000, 44_100, true, .twoParts),
        ])
    func strategyByLengthAndOutput(frames: Int, sampleRate: Int, replacingFile: Bool, expected: RenderFileWriter.Strategy) {
        #expect(RenderFileWriter.strategy(frames: frames, sampleRate: sampleRate, replacingFile: replacingFile) == expected)
    }

    @Test("a long render into a FIFO, which cannot be written out of order, reaches the reader as the in-memory render, byte for byte")
    func longRenderIntoAStream() throws {
        let pattern = HapticPattern(events: (0..<12).map { .continuous(at: Double($0), duration: 0.5, intensity: 0.8, sharpness: Double($0 % 4) / 3) })
        let renderer = HapticRenderer(pattern: pattern, profile: .dualsense)
        #expect(renderer.totalFrames >= RenderFileWriter.pipelineSeconds * renderer.sampleRate, "long enough for the pipeline")
        let signal = HapticRenderer.render(pattern, profile: .dualsense)
        let folder = try TemporaryFolder(prefix: "haptics-render-writer")
        let path = folder.path("stream.wav")
        #expect(mkfifo(path, 0o600) == 0)
        // The reader is a thread of its own, not a task: opening a FIFO blocks until the other
        // end opens, and tasks blocked so on every thread of the cooperative pool (this test's
        // writer and another test's) would wait for each other's readers for ever.
        let received = Mutex<Data?>(nil)
        let read = DispatchSemaphore(value: 0)
        let reader = Thread {
            received.withLock { $0 = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() }
            read.signal()
        }
        reader.start()
        var reported: [Int] = []
        let statistics = try renderer.writeWAV(to: path, format: .f32) { reported.append($0) }
        read.wait()
        let wav = try WAVFile(bytes: [UInt8](try #require(received.withLock { $0 })))
        #expect(wav.channelCount == 4)
        #expect(RenderPipelineTests.firstDifference(wav.data, RenderPipelineTests.encoded(signal.samples, as: .f32)) == nil, "the first differing byte")
        #expect(statistics.frames == signal.frameCount)
        #expect(reported.count > 1 && reported == reported.sorted() && reported.last == signal.frameCount, "progress rises to the last frame")
    }

    @Test("the encoder's bytes are the render converted sample by sample, however many frames are asked for at a time", arguments: [SampleFormat.s16, .f32])
    func encoderEqualsConversion(format: SampleFormat) throws {
        let pattern = HapticPattern(events: (0..<30).map { .transient(at: Double($0) * 0.01, intensity: 0.9, sharpness: Double($0 % 5) / 4) })
        let expected = RenderPipelineTests.encoded(HapticRenderer.render(pattern, profile: .dualsense).samples, as: format)
        let encoder = RenderEncoder(HapticRenderer(pattern: pattern, profile: .dualsense), format: format)
        #expect(encoder.frameBytes == 4 * format.bytesPerSample)
        // Sizes above and below the encoder's chunk, and one that is not a multiple of it; all
        // whole synthesis blocks, as the writers' are: the synthesis's floats differ
        // in their last bits when its blocks are cut elsewhere.
        let block = HapticRenderer.blockFrames
        let sizes = [block, 10 * block, RenderEncoder.chunkFrames, 3 * block]
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 10 * block * encoder.frameBytes, alignment: 16)
        defer { buffer.deallocate() }
        var received: [UInt8] = []
        var turn = 0
        while case let frames = encoder.fill(buffer, frames: sizes[turn % sizes.count]), frames > 0 {
            #expect(frames <= sizes[turn % sizes.count])
            received += UnsafeRawBufferPointer(start: buffer, count: frames * encoder.frameBytes)
            turn += 1
        }
        #expect(RenderPipelineTests.firstDifference(received, expected) == nil, "the first differing byte")
    }

    @Test(
        "a one-channel render to 16-bit samples, done in one pass from the synthesis, is the float render converted, with the same figures",
        arguments: [1.0, 3.5])
    func int16OnePassEqualsConversion(gain: Double) throws {
        // Transients, a loud continuous event (clipping at 3.5) and silences between them.
        let pattern = HapticPattern(
            events: (0..<40).map { .transient(at: Double($0) * 0.013, intensity: 0.9, sharpness: Double($0 % 5) / 4) }
                + [.continuous(at: 0.7, duration: 0.3, intensity: 1, sharpness: 0.4)])
        let floats = HapticRenderer(pattern: pattern, profile: .wideband, gain: gain)
        var samples: [Float] = []
        let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: 1000)
        defer { block.deallocate() }
        while case let n = floats.render(into: block), n > 0 { samples += block[..<n] }
        let renderer = HapticRenderer(pattern: pattern, profile: .wideband, gain: gain)
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 2 * samples.count, alignment: 16)
        defer { bytes.deallocate() }
        var frames = 0
        while case let n = renderer.render(int16: bytes + 2 * frames, frames: 1000), n > 0 { frames += n }
        #expect(frames == samples.count)
        let received = [UInt8](UnsafeRawBufferPointer(start: bytes, count: 2 * frames))
        #expect(RenderPipelineTests.firstDifference(received, RenderPipelineTests.encoded(samples, as: .s16)) == nil, "the first differing byte")
        #expect(renderer.statistics == floats.statistics)
        #expect((renderer.statistics.clippedSamples > 0) == (gain > 1), "the loud render clips, the other does not")
    }
}
