import Foundation
import HapticsCore
import HapticsTestSupport
import Testing
@testable import HapticsRender

/// Every public AHAP file rendered for an actuator and for a gamepad: no errors, no invalid
/// samples, statistics that describe the signal, and timelines that end at rest.
@Suite("Rendering the corpus", .enabled(if: Corpus.isAvailable, Corpus.absentMessage))
struct CorpusRenderTests {
    /// What streaming a whole render showed, measured independently of the renderer's own
    /// statistics.
    struct Measurement {
        var frames = 0
        /// NaN, infinite, or beyond ±1.
        var badSamples = 0
        var peak: Float = 0
        var sumOfSquares = 0.0
        /// Samples on channels that must stay silent but did not.
        var soundOnSilentChannels = 0
        /// Haptic-channel samples that differ from the first haptic channel's.
        var unequalHapticSamples = 0
    }

    /// Renders block by block (memory stays small for the minute-long files) and measures,
    /// with plain pointer loops and locals because the tests run unoptimised.
    func measure(_ renderer: HapticRenderer, profile: ActuatorProfile) -> Measurement {
        let channels = renderer.channelCount
        let isHaptic = (0..<channels).map { profile.hapticChannels.contains($0) }
        let reference = profile.hapticChannels[0]
        var frames = 0
        var bad = 0
        var silentButSounding = 0
        var unequal = 0
        var peak: Float = 0
        var sumOfSquares = 0.0
        var block = [Float](repeating: 0, count: 4096 * channels)
        block.withUnsafeMutableBufferPointer { buffer in
            guard let samples = buffer.baseAddress else { return }
            while case let count = renderer.render(into: buffer), count > 0 {
                var index = 0
                for _ in 0..<count {
                    let haptic = samples[index + reference]
                    for channel in 0..<channels {
                        let x = samples[index + channel]
                        // False for NaN too, so one comparison catches every bad sample.
                        if !(x.magnitude <= 1) { bad += 1 }
                        if isHaptic[channel] {
                            if x.bitPattern != haptic.bitPattern { unequal += 1 }
                        } else if x != 0 {
                            silentButSounding += 1
                        }
                    }
                    let magnitude = haptic.magnitude
                    if magnitude > peak { peak = magnitude }
                    sumOfSquares += Double(haptic) * Double(haptic)
                    index += channels
                }
                frames += count
            }
        }
        return Measurement(
            frames: frames, badSamples: bad, peak: peak, sumOfSquares: sumOfSquares,
            soundOnSilentChannels: silentButSounding, unequalHapticSamples: unequal)
    }

    func decode(_ file: URL) throws -> HapticPattern {
        try AHAPDecoder(mode: .lenient).decode(contentsOf: file).pattern
    }

    @Test(
        "every corpus file renders for wideband and dualsense: finite samples within ±1, silent and equal channels as the profile says, statistics that match the signal",
        arguments: Corpus.files)
    func rendersCleanly(file: URL) throws {
        let pattern = try decode(file)
        let name = file.lastPathComponent
        for profile in [ActuatorProfile.wideband, .dualsense] {
            let renderer = HapticRenderer(pattern: pattern, profile: profile)
            #expect(renderer.channelCount == profile.channelCount)
            #expect(renderer.totalFrames > 0, "\(name)")
            let measured = measure(renderer, profile: profile)
            let stats = renderer.statistics
            let context = "\(name), \(profile.name)"
            #expect(measured.frames == renderer.totalFrames, "\(context)")
            #expect(measured.badSamples == 0, "\(context): NaN, infinite or beyond ±1")
            #expect(measured.soundOnSilentChannels == 0, "\(context): sound on a silent channel")
            #expect(measured.unequalHapticSamples == 0, "\(context): haptic channels differ")
            #expect(stats.frames == measured.frames, "\(context)")
            #expect(stats.peak.isFinite && stats.peak <= 1, "\(context): peak \(stats.peak)")
            #expect(abs(stats.peak - Double(measured.peak)) < 1e-6, "\(context): reported peak \(stats.peak), measured \(measured.peak)")
            let rms = (measured.sumOfSquares / Double(max(1, measured.frames))).squareRoot()
            #expect(abs(stats.rms - rms) < 1e-6, "\(context): reported RMS \(stats.rms), measured \(rms)")
            // Clipping leaves samples at exactly ±1, so a count without a full-scale peak (or
            // the reverse, a count of zero with the mix pinned at full scale) would be wrong.
            #expect(stats.clippedSamples >= 0)
            if stats.clippedSamples > 0 { #expect(measured.peak == 1, "\(context): \(stats.clippedSamples) clipped, peak \(measured.peak)") }
            #expect(stats.droppedEvents == renderer.droppedEvents)
        }
    }

    @Test(
        "corpus files with audio events render with audio on dualsense: haptic channels as without audio, absent sound files reported once each",
        arguments: Corpus.files.filter { (try? String(contentsOf: $0, encoding: .utf8).contains("\"Audio")) == true })
    func rendersWithAudio(file: URL) throws {
        let pattern = try decode(file)
        let name = file.lastPathComponent
        let withAudio = HapticRenderer.render(pattern, profile: .dualsense, includingAudio: true)
        let hapticOnly = HapticRenderer.render(pattern, profile: .dualsense)
        let paths = Set(pattern.events.compactMap { $0.audio?.resolvedPath })
        let problems = CompiledPattern(pattern, includingAudio: true).soundFileProblems
        #expect(Set(problems.map(\.path)) == Set(paths.filter { !FileManager.default.fileExists(atPath: $0) }), "\(name)")
        #expect(problems.allSatisfy { $0.reason == .missing }, "\(name)")
        #expect(withAudio.samples.allSatisfy { $0.magnitude <= 1 }, "\(name)")
        for channel in [2, 3] {
            let a = withAudio.channel(channel)
            let h = hapticOnly.channel(channel)
            #expect(a.count >= h.count && Array(a.prefix(h.count)) == h && a.dropFirst(h.count).allSatisfy { $0 == 0 }, "\(name): channel \(channel + 1)")
        }
    }

    @Test("every corpus file's rumble timeline is evenly spaced and ends with both motors at zero", arguments: Corpus.files)
    func rumbleEndsAtRest(file: URL) throws {
        let pattern = try decode(file)
        let frames = RumbleRenderer.timeline(pattern)
        let last = try #require(frames.last, "\(file.lastPathComponent): empty timeline")
        #expect(last.strong == 0 && last.weak == 0, "\(file.lastPathComponent): ends at \(last)")
        #expect(frames.enumerated().allSatisfy { $0.element.timeMilliseconds == 10 * $0.offset }, "\(file.lastPathComponent)")
        #expect(Double(last.timeMilliseconds) >= pattern.duration * 1000, "\(file.lastPathComponent): ends before the pattern")
    }
}
