import Foundation
import HapticsCore
import HapticsTestSupport
import Testing
@testable import HapticsRender

/// Long renders synthesise on a second thread while the caller converts and writes: the result
/// must be exactly the single-threaded one, and a failed write must stop the second thread.
@Suite("Render pipeline")
struct RenderPipelineTests {
    /// 1.2 s of transients, a continuous event and a curve: played 10 times, 12 s of signal,
    /// past the length from which `writeWAV` uses two threads.
    let pattern: HapticPattern = {
        var events: [HapticEvent] = (0..<20).map { .transient(at: Double($0) * 0.05, intensity: 0.4 + Double($0 % 5) / 10, sharpness: Double($0 % 7) / 6) }
        events.append(.continuous(at: 0.3, duration: 0.7, intensity: 0.8, sharpness: 0.3, attack: 0.2, release: 0.2))
        return HapticPattern(events: events, curves: [HapticParameterCurve(.hapticSharpnessControl, at: 0.4, points: [(0, 0), (0.4, 0.5)])])
    }()
    let playback = HapticRenderer.Playback(count: 10)

    @Test("blocks reach the consumer in order, encoded, equal to rendering them in turn", arguments: [SampleFormat.s16, .f32])
    func sameBlocksInOrder(format: SampleFormat) throws {
        let expected = HapticRenderer.render(pattern, profile: .dualsense, playback: playback).samples
        var received: [UInt8] = []
        var frames = 0
        try RenderPipeline(renderer: HapticRenderer(pattern: pattern, profile: .dualsense, playback: playback), format: format).run {
            (bytes, count) throws(WAVError) in
            #expect(bytes.count == count * 4 * format.bytesPerSample, "whole frames of 4 channels")
            received.append(contentsOf: bytes)
            frames += count
        }
        #expect(frames * 4 == expected.count)
        #expect(Self.firstDifference(received, Self.encoded(expected, as: format)) == nil)
    }

    /// Where two byte strings first differ (their length, if one is the other's start), or nil:
    /// a failing `==` of megabytes would have the test library compute their whole diff.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
        if let index = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) { return index }
        return a.count == b.count ? nil : min(a.count, b.count)
    }

    /// Samples as a file of `format` holds them.
    static func encoded(_ samples: [Float], as format: SampleFormat) -> [UInt8] {
        samples.flatMap { sample -> [UInt8] in
            switch format {
            case .s16: return withUnsafeBytes(of: int16Sample(sample).littleEndian) { Array($0) }
            case .f32: return withUnsafeBytes(of: sample.bitPattern.littleEndian) { Array($0) }
            }
        }
    }

    @Test("a consumer that throws gets its error back, and the rendering thread has stopped by then")
    func failingConsumerStopsTheRenderer() throws {
        let renderer = HapticRenderer(pattern: pattern, playback: playback)
        var blocks = 0
        let error = try #require(throws: WAVError.self) {
            try RenderPipeline(renderer: renderer, format: .s16).run { (_, _) throws(WAVError) in
                blocks += 1
                if blocks == 3 { throw WAVError.writeFailed(path: "test", reason: "stop") }
            }
        }
        #expect(error == .writeFailed(path: "test", reason: "stop"))
        let frames = renderer.renderedFrames
        #expect(frames < renderer.totalFrames, "the render stopped early")
        #expect(frames <= (3 + RenderPipeline.slotCount + 1) * RenderPipeline.slotFrames, "at most a ring ahead of the consumer")
        // An absence cannot be awaited: 50 ms is time for a rendering thread still running to
        // render many more blocks (one takes well under a millisecond).
        Thread.sleep(forTimeInterval: 0.05)
        #expect(renderer.renderedFrames == frames, "nothing rendered after run returned")
    }

    @Test("writeWAV of a long render writes the in-memory render byte for byte, with progress to the last frame", arguments: [SampleFormat.s16, .f32])
    func longFileEqualsMemory(format: SampleFormat) throws {
        let signal = HapticRenderer.render(pattern, playback: playback)
        #expect(signal.duration >= Double(RenderFileWriter.pipelineSeconds), "long enough for two threads")
        let folder = try TemporaryFolder(prefix: "haptics-pipeline")
        let path = folder.path("long.wav")
        var reported: [Int] = []
        let statistics = try HapticRenderer(pattern: pattern, playback: playback).writeWAV(to: path, format: format) { reported.append($0) }
        let wav = try WAVFile(contentsOf: URL(fileURLWithPath: path))
        #expect(Self.firstDifference(wav.data, Self.encoded(signal.samples, as: format)) == nil)
        #expect(statistics.frames == signal.frameCount)
        #expect(statistics.peak == signal.statistics.peak)
        #expect(reported == reported.sorted() && reported.last == signal.frameCount, "progress rises to the last frame")
    }

    @Test(
        "a long render that runs out of disk space fails with one line, stops, and leaves no temporary file",
        .enabled(if: SmallFileSystem.isAvailable, SmallFileSystem.unavailableMessage))
    func outOfSpace() throws {
        let small = try SmallFileSystem()
        let path = small.path("long.wav")
        let error = try #require(throws: WAVError.self) {
            try HapticRenderer(pattern: pattern, playback: playback).writeWAV(to: path, format: .s16)
        }
        #expect(error.description == "\(path): cannot write the file (No space left on device)")
        #expect(try small.names().isEmpty)
    }
}
