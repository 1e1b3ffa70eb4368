import Foundation
import HapticsCore
import HapticsTestSupport
import Testing
@testable import HapticsRender
@testable import HapticsSystem

/// Long renders that fall silent near their middle are written in two parts on two threads,
/// each at its place in the file: the file must be exactly the render in order.
@Suite("Two-part render")
struct TwoPartRenderTests {
    /// 24 s: each second a continuous event with an envelope and four transients of several
    /// sharpnesses, with intensity and sharpness curves; silent for 100 ms at the end of each
    /// second, so it can be split, but for seconds 10 to 14, where one long event sounds: the
    /// middle is not silent, and a split there would show.
    let pattern: HapticPattern = {
        var events: [HapticEvent] = [.continuous(at: 10, duration: 4, intensity: 0.3, sharpness: 0.2, attack: 0.5, release: 0.3)]
        for second in 0..<24 {
            let t = Double(second)
            events.append(.continuous(at: t + 0.05, duration: 0.5, intensity: 0.7, sharpness: Double(second % 5) / 4, attack: 0.1, decay: 0.2, release: 0.2))
            for k in 0..<4 {
                events.append(.transient(at: t + 0.1 + Double(k) * 0.15, intensity: 0.5 + Double(k) / 8, sharpness: Double((second + k) % 7) / 6))
            }
        }
        let curves = stride(from: 0.0, to: 24, by: 3).flatMap { t in
            [
                HapticParameterCurve(.hapticIntensityControl, at: t, points: [(0, 1), (0.4, 0.4), (0.8, 1)]),
                HapticParameterCurve(.hapticSharpnessControl, at: t + 1, points: [(0, 0), (0.3, 0.5), (0.6, 0)]),
            ]
        }
        return HapticPattern(events: events, curves: curves)
    }()

    @Test("a render that falls silent near its middle splits at a frame where nothing sounds")
    func splitsAtSilence() throws {
        let renderer = HapticRenderer(pattern: pattern)
        let total = renderer.totalFrames
        let second = try #require(renderer.splitAtSilence())
        let frame = second.renderedFrames
        #expect(frame >= total / 4 && frame <= total * 3 / 4)
        let samples = HapticRenderer.render(pattern).samples
        // Nothing sounds for a while before the frame, and the middle, which sounds, is avoided.
        #expect(samples[(frame - 480)..<frame].allSatisfy { $0 == 0 })
        #expect(samples[(total / 2 - 480)..<(total / 2)].contains { $0 != 0 })
    }

    @Test("a render that never falls silent near its middle is not split, and renders whole")
    func noSilenceNoSplit() throws {
        let long = HapticPattern(events: [.continuous(at: 0, duration: 20, intensity: 0.5, sharpness: 0.5)])
        let renderer = HapticRenderer(pattern: long)
        #expect(renderer.splitAtSilence() == nil)
        let folder = try TemporaryFolder(prefix: "haptics-two-part")
        let path = folder.path("whole.wav")
        try renderer.writeWAV(to: path, format: .s16)
        let wav = try WAVFile(contentsOf: URL(fileURLWithPath: path))
        #expect(RenderPipelineTests.firstDifference(wav.data, RenderPipelineTests.encoded(HapticRenderer.render(long).samples, as: .s16)) == nil)
    }

    @Test(
        "writeWAV of a splittable render writes the in-memory render byte for byte, with its figures and progress to the last frame",
        arguments: [SampleFormat.s16, .f32])
    func twoPartsEqualMemory(format: SampleFormat) throws {
        #expect(HapticRenderer(pattern: pattern).splitAtSilence() != nil, "the two-part path is the one tested")
        let signal = HapticRenderer.render(pattern, profile: .dualsense)
        let folder = try TemporaryFolder(prefix: "haptics-two-part")
        let path = folder.path("parts.wav")
        var reported: [Int] = []
        let statistics = try HapticRenderer(pattern: pattern, profile: .dualsense).writeWAV(to: path, format: format) { reported.append($0) }
        let wav = try WAVFile(contentsOf: URL(fileURLWithPath: path))
        #expect(wav.channelCount == 4)
        #expect(RenderPipelineTests.firstDifference(wav.data, RenderPipelineTests.encoded(signal.samples, as: format)) == nil, "the first differing byte")
        #expect(statistics.frames == signal.frameCount)
        #expect(statistics.peak == signal.statistics.peak)
        #expect(statistics.clippedSamples == signal.statistics.clippedSamples)
        #expect(statistics.droppedEvents == signal.statistics.droppedEvents)
        // Squares are summed in Float within a block, and the second part's blocks start at
        // its own frame: the sums differ in their last bits, not the samples.
        #expect(abs(statistics.rms - signal.statistics.rms) <= 1e-6 * signal.statistics.rms)
        #expect(reported == reported.sorted() && reported.last == signal.frameCount, "progress rises to the last frame")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["parts.wav"], "no temporary file left")
    }

    @Test("a two-part render whose second part drops events counts those drops in its statistics, as the in-memory render does")
    func secondPartDropsAreCounted() throws {
        // 200 overlapping events at 18.2 s, after any split near the middle: at least 72 more
        // than the 128 voices, all in the second part.
        var dropping = pattern
        dropping.events += (0..<200).map { .continuous(at: 18.2 + Double($0) * 0.0001, duration: 0.3, intensity: 0.2, sharpness: 0.5) }
        let split = try #require(HapticRenderer(pattern: dropping).splitAtSilence(), "the two-part path is the one tested")
        #expect(Double(split.renderedFrames) < 18.2 * 48_000, "the drops are in the second part")
        let dropped = HapticRenderer.render(dropping).statistics.droppedEvents
        #expect(dropped >= 72)
        let folder = try TemporaryFolder(prefix: "haptics-two-part")
        let renderer = HapticRenderer(pattern: dropping)
        let statistics = try renderer.writeWAV(to: folder.path("drops.wav"), format: .s16)
        #expect(renderer.droppedEvents == dropped)
        #expect(statistics.droppedEvents == dropped)
        #expect(renderer.statistics.droppedEvents == dropped)
    }

    @Test("at another rate or sample rate, a two-part render is still the render in order", arguments: [(0.5, 48_000), (2.0, 48_000), (1.0, 44_100)])
    func otherRates(rate: Double, sampleRate: Int) throws {
        let playback = HapticRenderer.Playback(rate: rate)
        #expect(HapticRenderer(pattern: pattern, sampleRate: sampleRate, playback: playback).splitAtSilence() != nil, "the two-part path is the one tested")
        let signal = HapticRenderer.render(pattern, sampleRate: sampleRate, playback: playback)
        let folder = try TemporaryFolder(prefix: "haptics-two-part")
        let path = folder.path("rate.wav")
        try HapticRenderer(pattern: pattern, sampleRate: sampleRate, playback: playback).writeWAV(to: path, format: .f32)
        let wav = try WAVFile(contentsOf: URL(fileURLWithPath: path))
        #expect(RenderPipelineTests.firstDifference(wav.data, RenderPipelineTests.encoded(signal.samples, as: .f32)) == nil, "the first differing byte")
    }

    @Test("a two-part render whose fsync fails: one line naming the file, the old file intact, no temporary file")
    func fsyncFails() throws {
        #expect(HapticRenderer(pattern: pattern).splitAtSilence() != nil, "the two-part path is the one tested")
        let folder = try TemporaryFolder(prefix: "haptics-two-part")
        let path = folder.path("parts.wav")
        let old = Data("the old file\n".utf8)
        try old.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: WAVError.self) {
            try RenderFileWriter.write(HapticRenderer(pattern: pattern), to: path, format: .s16, io: AtomicFileTests.failing(EIO, atSync: true))
        }
        #expect(error.description == "\(path): cannot write the file (Input/output error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["parts.wav"])
    }

    @Test(
        "a two-part render that runs out of disk space in either part fails with one line, stops both threads, and leaves no temporary file",
        .enabled(if: SmallFileSystem.isAvailable, SmallFileSystem.unavailableMessage), arguments: [16, 1_200])
    func outOfSpace(kilobytes: Int) throws {
        let small = try SmallFileSystem(kilobytes: kilobytes)
        let path = small.path("parts.wav")
        let renderer = HapticRenderer(pattern: pattern)
        let error = try #require(throws: WAVError.self) { try renderer.writeWAV(to: path, format: .s16) }
        #expect(error.description == "\(path): cannot write the file (No space left on device)")
        #expect(try small.names().isEmpty)
    }
}
