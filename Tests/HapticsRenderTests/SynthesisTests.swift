import Foundation
import HapticsCore
import HapticsTestSupport
import Testing
@testable import HapticsRender

/// Signal tests: render patterns and measure the samples against the synthesis rules
/// (docs/ARCHITECTURE.md, "Synthesise").
@Suite("Synthesis")
struct SynthesisTests {
    let rate = 48_000.0

    func render(_ pattern: HapticPattern, profile: ActuatorProfile = .wideband) -> [Float] {
        HapticRenderer.render(pattern, profile: profile).channel(0)
    }

    @Test("each transient starts within one sample of its time")
    func transientOnsets() {
        let times = [0.0, 0.1, 0.2537, 0.31, 0.5000208]
        let pattern = HapticPattern(events: times.map { .transient(at: $0, intensity: 1, sharpness: 0.5) })
        let x = render(pattern)
        let onsets = Signal.onsets(x, gap: 48)
        #expect(onsets.count == times.count)
        for (onset, time) in zip(onsets, times) {
            #expect(abs(onset - Int((time * rate).rounded())) <= 1, "onset \(onset) for \(time) s")
        }
    }

    @Test("a transient is a 8–40 ms burst whose peak is intensity squared")
    func transientShape() {
        for (sharpness, intensity) in [(0.0, 1.0), (1.0, 0.6), (0.5, 0.3)] {
            let x = render(HapticPattern(events: [.transient(at: 0, intensity: intensity, sharpness: sharpness)]))
            let frequency = ActuatorProfile.wideband.frequency(sharpness: sharpness)
            let length = Double(try! #require(Signal.lastNonZero(x))) / rate
            #expect(length >= 0.008 - 0.0001 && length <= 0.040 + 0.0001)
            #expect(abs(length - min(max(2 / frequency, 0.008), 0.040)) < 0.0002)
            let peak = Double(Signal.peak(x, x.indices))
            #expect(abs(peak - intensity * intensity) < 0.01 * intensity * intensity, "peak \(peak)")
            #expect(abs(x[0]) < 0.01, "smooth onset")
        }
    }

    @Test("dominant frequency rises with sharpness and spans the profile's band")
    func frequencyFollowsSharpness() {
        for profile in [ActuatorProfile.wideband, .lra, .shaker] {
            var previous = 0.0
            for sharpness in [0.0, 0.25, 0.5, 0.75, 1.0] {
                let x = render(HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: sharpness)]), profile: profile)
                let f = Signal.frequency(x, 4800..<43200, sampleRate: rate)
                let expected = profile.minFrequency + sharpness * (profile.maxFrequency - profile.minFrequency)
                #expect(abs(f - expected) < expected * 0.005, "\(profile.name) s=\(sharpness): \(f) Hz, expected \(expected)")
                #expect(f > previous)
                previous = f
            }
        }
    }

    @Test("continuous RMS scales with intensity squared")
    func rmsFollowsIntensitySquared() {
        let reference = render(HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5)]))
        let full = Signal.rms(reference, 4800..<43200)
        #expect(abs(full - 1 / 2.0.squareRoot()) < 0.01)
        for intensity in [0.8, 0.5, 0.25] {
            let x = render(HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: intensity, sharpness: 0.5)]))
            let ratio = Signal.rms(x, 4800..<43200) / full
            #expect(abs(ratio - intensity * intensity) < 0.005 * intensity * intensity + 1e-4, "intensity \(intensity): ratio \(ratio)")
        }
    }

    @Test("attack reaches half amplitude at half the attack time")
    func attackHalfway() {
        for attack in [0.3, 0.5, 0.7] {
            let t = HapticEnvelope.seconds(for: attack)
            let x = render(HapticPattern(events: [.continuous(at: 0, duration: t + 0.2, intensity: 1, sharpness: 1, attack: attack)]))
            func envelope(at seconds: Double) -> Double { Signal.amplitude(x, at: seconds, frequency: 300, sampleRate: rate) }
            #expect(abs(envelope(at: t / 2) - 0.5) < 0.02, "attack \(attack): \(envelope(at: t / 2)) at T/2")
            #expect(abs(envelope(at: t + 0.1) - 1) < 0.01)
        }
    }

    @Test("a sustained event releases after its duration and falls silent when the release ends")
    func releaseTail() {
        let release = 0.4
        let duration = 0.3
        let x = render(HapticPattern(events: [.continuous(at: 0.1, duration: duration, intensity: 1, sharpness: 0.5, release: release)]))
        let end = 0.1 + duration + HapticEnvelope.seconds(for: release)
        let last = Double(try! #require(Signal.lastNonZero(x, threshold: 1e-6))) / rate
        #expect(last <= end + 0.0011 && last >= end - 0.002, "last sound at \(last), release ends at \(end)")
        // Halfway through the release the level is half.
        let mid = 0.1 + duration + HapticEnvelope.seconds(for: release) / 2
        #expect(abs(Signal.amplitude(x, at: mid, frequency: 180, sampleRate: rate) - 0.5) < 0.01)
    }

    @Test("a non-sustained event attacks, decays and ends at attack plus decay")
    func decayEnds() {
        let event = HapticEvent.continuous(at: 0, duration: 2, intensity: 1, sharpness: 0.5, attack: 0, decay: 0.5, sustained: false)
        let x = render(HapticPattern(events: [event]))
        let end = HapticEnvelope.seconds(for: 0) + HapticEnvelope.seconds(for: 0.5)
        let last = Double(try! #require(Signal.lastNonZero(x, threshold: 1e-6))) / rate
        #expect(abs(last - end) < 0.0015, "ends at \(last), expected \(end)")
    }

    @Test("a non-sustained event shorter than attack plus decay ends at its duration")
    func decayCutByDuration() {
        let event = HapticEvent.continuous(at: 0, duration: 0.1, intensity: 1, sharpness: 0.5, decay: 0.8, sustained: false)
        let x = render(HapticPattern(events: [event]))
        let last = Double(try! #require(Signal.lastNonZero(x, threshold: 1e-6))) / rate
        #expect(abs(last - 0.1) < 0.0015)
        #expect(Signal.maximumStep(x) < 0.05, "cut without a click")
    }

    @Test("a Parameter element changes intensity from its time on")
    func parameterStep() {
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5)],
            parameters: [HapticDynamicParameter(.hapticIntensityControl, 0.5, at: 0.5)])
        let x = render(pattern)
        let before = Signal.rms(x, 12000..<23000)
        let after = Signal.rms(x, 25000..<40000)
        // Intensity 1 × 0.5 = 0.5 → amplitude 0.25.
        #expect(abs(after / before - 0.25) < 0.005)
    }

    @Test("a sharpness curve sweeps frequency and holds its last value")
    func sharpnessCurve() {
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 2, intensity: 1, sharpness: 0)],
            curves: [HapticParameterCurve(.hapticSharpnessControl, at: 0.5, points: [(0, 0), (0.5, 1)])])
        let x = render(pattern)
        let early = Signal.frequency(x, 2400..<23000, sampleRate: rate)
        let middle = Signal.frequency(x, 35500..<36500, sampleRate: rate)
        let late = Signal.frequency(x, 52000..<90000, sampleRate: rate)
        #expect(abs(early - 60) < 0.5)
        #expect(abs(middle - 180) < 12, "halfway through the curve: \(middle) Hz")
        #expect(abs(late - 300) < 1)
    }

    @Test("the latest-starting element wins where a parameter and a curve overlap")
    func latestStartWins() {
        let pattern = HapticPattern(
            events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5)],
            parameters: [HapticDynamicParameter(.hapticIntensityControl, 0.5, at: 0.6)],
            curves: [HapticParameterCurve(.hapticIntensityControl, at: 0.2, points: [(0, 1), (0.1, 0.8)])])
        let compiled = CompiledPattern(pattern)
        #expect(compiled.control(.intensity, at: 0.1) == 1)
        #expect(abs(compiled.control(.intensity, at: 0.25) - 0.9) < 1e-9)
        #expect(compiled.control(.intensity, at: 0.5) == 0.8)
        #expect(compiled.control(.intensity, at: 0.7) == 0.5)
    }

    @Test("transients sample intensity control at their onset and ignore sharpness control")
    func transientControls() {
        let plain = render(HapticPattern(events: [.transient(at: 0.1, intensity: 1, sharpness: 0.5)]))
        let controlled = render(
            HapticPattern(
                events: [.transient(at: 0.1, intensity: 1, sharpness: 0.5)],
                parameters: [
                    HapticDynamicParameter(.hapticIntensityControl, 0.5, at: 0),
                    HapticDynamicParameter(.hapticSharpnessControl, 1, at: 0),
                ]))
        let a = Signal.peak(plain, plain.indices)
        let b = Signal.peak(controlled, controlled.indices)
        #expect(abs(Double(b / a) - 0.25) < 0.01)
        let start = Int(0.1 * rate)
        #expect(
            abs(Signal.frequency(plain, start..<(start + 400), sampleRate: rate) - Signal.frequency(controlled, start..<(start + 400), sampleRate: rate)) < 1)
    }

    @Test("no sample-to-sample step exceeds what the carrier itself can produce")
    func noClicks() {
        let pattern = HapticPattern(
            events: [
                .continuous(at: 0, duration: 0.5, intensity: 1, sharpness: 1),
                .continuous(at: 0.2, duration: 0.5, intensity: 0.7, sharpness: 0),
                .transient(at: 0.25, intensity: 1, sharpness: 1),
                .continuous(at: 0.9, duration: 0.003, intensity: 1, sharpness: 1),
            ],
            parameters: [
                HapticDynamicParameter(.hapticIntensityControl, 0.1, at: 0.3),
                HapticDynamicParameter(.hapticIntensityControl, 1, at: 0.35),
                HapticDynamicParameter(.hapticSharpnessControl, -1, at: 0.4),
            ])
        let x = render(pattern)
        // A full-scale sine at 300 Hz moves at most 2·sin(π·300/48000) ≈ 0.039 per sample; the
        // mix here peaks below 2 (two voices plus a transient).
        let carrierLimit = Float(2 * sin(Double.pi * 300 / rate)) * 2.0
        #expect(Signal.maximumStep(x) <= carrierLimit, "largest step \(Signal.maximumStep(x))")
        #expect(x.first == 0 || abs(x.first!) < 0.001)
    }

    @Test("nothing plays, nothing sounds: exact zeros between and after events")
    func exactSilence() {
        let pattern = HapticPattern(
            events: [
                .transient(at: 0, intensity: 1, sharpness: 1),
                .continuous(at: 0.3, duration: 0.1, intensity: 1, sharpness: 0.5),
                .transient(at: 0.8, intensity: 1, sharpness: 0),
            ], parameters: [HapticDynamicParameter(.hapticIntensityControl, 0.5, at: 1.5)])
        let x = render(pattern)
        #expect(x[(Int(0.05 * rate))..<Int(0.3 * rate)].allSatisfy { $0 == 0 })
        #expect(x[(Int(0.42 * rate))..<Int(0.8 * rate)].allSatisfy { $0 == 0 })
        #expect(x[(Int(0.85 * rate))...].allSatisfy { $0 == 0 })
        #expect(x.count == Int(1.5 * rate) + 48, "the render lasts the pattern's duration")
    }

    @Test("overlapping events add")
    func overlappingEventsMix() {
        let one = render(HapticPattern(events: [.continuous(at: 0, duration: 0.5, intensity: 0.6, sharpness: 0.5)]))
        let two = render(
            HapticPattern(events: [
                .continuous(at: 0, duration: 0.5, intensity: 0.6, sharpness: 0.5),
                .continuous(at: 0, duration: 0.5, intensity: 0.6, sharpness: 0.5),
            ]))
        #expect(abs(Signal.rms(two, 4800..<19200) / Signal.rms(one, 4800..<19200) - 2) < 1e-3)
    }

    @Test("clipped samples are counted, and the output never exceeds full scale")
    func clipping() {
        let signal = HapticRenderer.render(HapticPattern(events: [.continuous(at: 0, duration: 0.2, intensity: 1, sharpness: 0.5)]), gain: 2)
        #expect(signal.clippedSamples > 1000)
        #expect(signal.samples.allSatisfy { abs($0) <= 1 })
        let clean = HapticRenderer.render(HapticPattern(events: [.continuous(at: 0, duration: 0.2, intensity: 1, sharpness: 0.5)]))
        #expect(clean.clippedSamples == 0)
    }

    @Test("a carrier's step: the series' sin and cos agree with libm to two ulps wherever they replace it")
    func stepSinCos() {
        for i in -1000...1000 {
            let x = Double(i) / 1000 * 0.0999
            let (s, c) = Voice.sinCos(x)
            #expect(abs(s - sin(x)) <= 2 * sin(x).magnitude.ulp, "sin \(x)")
            #expect(abs(c - cos(x)) <= 2 * cos(x).ulp, "cos \(x)")
        }
        // From 0.1 on it is libm's.
        #expect(Voice.sinCos(0.5) == (sin(0.5), cos(0.5)))
    }

    @Test("output does not depend on how rendering is split into blocks")
    func blockSizeInvariance() {
        let pattern = HapticPattern(
            events: (0..<20).map { .transient(at: Double($0) * 0.037, intensity: 0.9, sharpness: Double($0) / 20) }
                + [.continuous(at: 0.1, duration: 0.5, intensity: 0.8, sharpness: 0.3, attack: 0.2, release: 0.3)],
            curves: [HapticParameterCurve(.hapticIntensityControl, at: 0.2, points: [(0, 1), (0.3, 0.2), (0.4, 1)])])
        let whole = HapticRenderer.render(pattern).samples
        for blockFrames in [1, 7, 64, 441, 1000] {
            let renderer = HapticRenderer(pattern: pattern)
            var out: [Float] = []
            var block = [Float](repeating: 0, count: blockFrames)
            while case let n = block.withUnsafeMutableBufferPointer({ renderer.render(into: $0) }), n > 0 {
                out += block[..<n]
            }
            #expect(out.count == whole.count)
            let mismatch = zip(out, whole).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(mismatch == nil, "block of \(blockFrames) differs first at sample \(mismatch ?? -1)")
        }
    }

    @Test("audio events are left out of a render without includingAudio, and compiled only with it")
    func audioEventsAreSilent() {
        let pattern = HapticPattern(events: [
            HapticEvent(.audioContinuous, at: 0, duration: 0.5),
            HapticEvent(.audioCustom, at: 0.1, duration: 0.2, audio: .init(path: "x.wav")),
        ])
        let signal = HapticRenderer.render(pattern)
        #expect(signal.samples.allSatisfy { $0 == 0 })
        #expect(CompiledPattern(pattern).audioEventCount == 2)
        #expect(!CompiledPattern(pattern).includesAudio && CompiledPattern(pattern).soundFileProblems.isEmpty)
        let mixed = HapticRenderer.render(pattern, includingAudio: true)
        #expect(Signal.peak(mixed.samples, mixed.samples.indices) > 0.4, "the tone sounds")
        #expect(mixed.statistics.peak == 0, "the haptic statistics stay the haptic signal's")
    }

    @Test("envelope-time controls apply to events that start while they are in effect")
    func envelopeControls() {
        let base = HapticEvent.continuous(at: 0.5, duration: 0.2, intensity: 1, sharpness: 0.5, release: 0)
        let plain = render(HapticPattern(events: [base]))
        let longer = render(HapticPattern(events: [base], parameters: [HapticDynamicParameter(.hapticReleaseTimeControl, 0.5, at: 0)]))
        let plainEnd = Double(Signal.lastNonZero(plain, threshold: 1e-6)!) / rate
        let longerEnd = Double(Signal.lastNonZero(longer, threshold: 1e-6)!) / rate
        #expect(abs(plainEnd - (0.7 + 0.005)) < 0.0015)
        #expect(abs(longerEnd - (0.7 + HapticEnvelope.seconds(for: 0.5))) < 0.0015)
        // A control set after the event started does not change it.
        let late = render(HapticPattern(events: [base], parameters: [HapticDynamicParameter(.hapticReleaseTimeControl, 0.5, at: 0.6)]))
        #expect(late.elementsEqual(plain), "a release control set after the event's start changed it")
    }

    @Test("events given out of time order render as if sorted, and of two controls at one time the later in the pattern wins")
    func orderOfEventsAndControls() {
        let events: [HapticEvent] = [
            .transient(at: 0.3, intensity: 1, sharpness: 0.2), .continuous(at: 0.05, duration: 0.2, intensity: 0.7, sharpness: 0.6),
            .transient(at: 0.1, intensity: 0.5, sharpness: 0.9), .transient(at: 0.3, intensity: 0.4, sharpness: 1),
        ]
        let sorted = events.enumerated().sorted { ($0.element.relativeTime, $0.offset) < ($1.element.relativeTime, $1.offset) }.map(\.element)
        #expect(render(HapticPattern(events: events)).elementsEqual(render(HapticPattern(events: sorted))))

        let event = HapticEvent.continuous(at: 0, duration: 0.5, intensity: 1, sharpness: 0.5)
        func level(_ values: [Double]) -> Double {
            // One listed first but starting later (after the measured span) makes them unsorted.
            let parameters =
                [HapticDynamicParameter(.hapticIntensityControl, 0.5, at: 0.45)]
                + values.map { HapticDynamicParameter(.hapticIntensityControl, $0, at: 0.1) }
            return Signal.rms(render(HapticPattern(events: [event], parameters: parameters)), 9_600..<19_200)
        }
        let loud = level([1])
        let quiet = level([0.2])
        #expect(quiet < loud * 0.1)
        #expect(abs(level([0.2, 1]) - loud) < loud * 0.001, "the later of two controls at one time did not win")
        #expect(abs(level([1, 0.2]) - quiet) < quiet * 0.001, "the later of two controls at one time did not win")
    }
}
