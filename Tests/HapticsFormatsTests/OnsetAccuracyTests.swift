import Foundation
import HapticsCore
import HapticsFormats
import HapticsRender
import HapticsTestSupport
import Testing

/// `analyze` on sounds like real ones: where the taps land against the true attacks, what is
/// tapped that should not be, and whether the pattern can be played without clipping.
@Suite("Onsets on real-world-like sounds")
struct OnsetAccuracyTests {
    /// How far a tap may be from a true onset and still be that onset's tap (further, it is a
    /// miss and a false tap).
    static let matchWindow = 0.1

    /// The figures the README publishes.
    struct Figures {
        var errors: [Double] = []
        var falseTaps = 0
        var misses = 0
        var taps = 0

        func percentile(_ p: Double) -> Double {
            guard !errors.isEmpty else { return 0 }
            let sorted = errors.sorted()
            return sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))]
        }
    }

    /// Pairs each true onset with the nearest unclaimed tap within ``matchWindow``.
    static func figures(taps: [Double], truth: [Double]) -> Figures {
        var figures = Figures(taps: taps.count)
        var claimed = Set<Int>()
        for onset in truth {
            let nearest = taps.indices.filter { !claimed.contains($0) && abs(taps[$0] - onset) <= matchWindow }
                .min { abs(taps[$0] - onset) < abs(taps[$1] - onset) }
            if let nearest {
                claimed.insert(nearest)
                figures.errors.append(abs(taps[nearest] - onset))
            } else {
                figures.misses += 1
            }
        }
        figures.falseTaps = taps.count - claimed.count
        return figures
    }

    static func analyze(_ sound: RealWorldSound) throws -> AudioAnalyzer.Result {
        try AudioAnalyzer().analyze(AudioFile(samples: sound.samples, sampleRate: Int(sound.sampleRate), channelCount: 1))
    }

    @Test("taps land within 5 ms of each attack, with no false taps and no misses", arguments: RealWorldSound.all)
    func onsets(sound: RealWorldSound) throws {
        let result = try Self.analyze(sound)
        let taps = result.layers.transients.map(\.time)
        let f = Self.figures(taps: taps, truth: sound.onsets)
        print(
            String(
                format: "%@: %d taps for %d onsets, error p50 %.1f ms, max %.1f ms, %d false, %d missed", sound.name, f.taps,
                sound.onsets.count, f.percentile(0.5) * 1000, f.percentile(1) * 1000, f.falseTaps, f.misses))
        #expect(f.misses == 0, "\(sound.name): \(f.misses) missed; taps at \(taps)")
        #expect(f.falseTaps == 0, "\(sound.name): \(f.falseTaps) false; taps at \(taps)")
        // A voice's 15 ms attack has no sharp start: its tap may land a little into it.
        let allowed = sound.name.hasPrefix("speech") ? 0.010 : 0.005
        #expect(f.percentile(1) <= allowed, "\(sound.name): taps \(taps), truth \(sound.onsets)")
        #expect(result.onsets == taps)
    }

    /// The tremolo has no attack to tap: the continuous layer follows it, one swell a cycle.
    @Test("a tremolo's continuous layer rises and falls once per cycle")
    func tremoloSwells() throws {
        let sound = RealWorldSound.tremolo()
        let result = try Self.analyze(sound)
        let curve = result.layers.intensity
        // Swells: rises of at least 0.3 between falls of at least 0.3 (hysteresis, so the
        // simplified curve's small steps are not counted).
        var swells = 0
        var low = 1.0
        var high = 0.0
        var rising = true
        for t in stride(from: 0.0, through: result.duration, by: 0.005) {
            let v = HapticLayers.value(of: curve, at: t)
            if rising {
                if v - low >= 0.3 {
                    swells += 1
                    rising = false
                    high = v
                }
                low = min(low, v)
            } else {
                high = max(high, v)
                if high - v >= 0.3 {
                    rising = true
                    low = v
                }
            }
        }
        print("tremolo: \(swells) swells in the continuous layer for \(sound.envelopePeaks) cycles, \(result.layers.transients.count) taps")
        #expect(swells == sound.envelopePeaks)
    }

    @Test("silence gives an empty pattern")
    func silence() throws {
        let result = try Self.analyze(RealWorldSound.silence())
        #expect(result.layers.transients.isEmpty)
        #expect(!result.layers.hasContinuous)
    }

    /// Rendered on the default profile (wideband), no analysed pattern clips: a tap and the
    /// continuous part under it never add up past full scale.
    @Test("analysed patterns never clip on the default profile", arguments: RealWorldSound.all + [RealWorldSound.loudBedWithKicks()])
    func neverClips(sound: RealWorldSound) throws {
        let pattern = try Self.analyze(sound).pattern()
        let rendered = HapticRenderer.render(pattern)
        print(String(format: "%@: peak %.3f, %d clipped", sound.name, rendered.statistics.peak, rendered.clippedSamples))
        #expect(rendered.clippedSamples == 0, "\(sound.name): peak \(rendered.statistics.peak)")
        #expect(rendered.statistics.peak <= 1)
    }

    /// Debian's freedesktop sound theme (installed by `scripts/install-dependencies.sh`):
    /// recorded sounds, analysed by `haptics analyze` (in a process of its own: a decoder's
    /// stderr is caught in-process, and this process's other tests write there), whose
    /// patterns must not clip either.
    @Test("recorded sounds: no clipping")
    func recordings() async throws {
        let folder = "/usr/share/sounds/freedesktop/stereo"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".oga") }.sorted()
        try #require(!names.isEmpty, "sound-theme-freedesktop is not installed: scripts/install-dependencies.sh installs it")
        let out = try TemporaryFolder()
        var taps = 0
        for name in names {
            let ahap = out.path(name + ".ahap")
            let result = try await HapticsProcess.run(["analyze", folder + "/" + name, "-o", ahap])
            #expect(result.status == 0, "\(name): \(result.errorOutput)")
            guard result.status == 0 else { continue }
            let pattern = try HapticPattern(contentsOf: URL(fileURLWithPath: ahap))
            taps += pattern.events.filter { $0.kind == .transient }.count
            let rendered = HapticRenderer.render(pattern)
            #expect(rendered.clippedSamples == 0, "\(name): \(rendered.clippedSamples) clipped samples")
        }
        print("freedesktop sounds: \(names.count) files, \(taps) taps, none clips")
    }
}
