import Foundation
import Testing
import HapticsCore
import HapticsRender
import HapticsPresets

/// Renders each preset on the wideband profile and checks that it feels as designed
/// (Patterns/README.md): tap counts, the order of strengths, pitch, where the weight falls.
@Suite("How the presets feel, measured")
struct FeelTests {
    func feel(_ feedback: HapticFeedback, profile: ActuatorProfile = .wideband) -> Feel {
        Feel(HapticPattern(feedback: feedback, settings: .standard), profile: profile)
    }

    /// Decibels between two peaks.
    func decibels(_ a: Double, over b: Double) -> Double { 20 * log10(a / b) }

    @Test("success is two taps, the second stronger and crisper")
    func success() throws {
        let f = feel(.success)
        try #require(f.count == 2, "\(f)")
        #expect(decibels(f.segments[1].peak, over: f.segments[0].peak) >= 6, "\(f)")
        #expect(f.segments[1].frequency > f.segments[0].frequency * 1.2, "\(f)")
    }

    @Test("warning is two taps, the second weaker and rounder")
    func warning() throws {
        let f = feel(.warning)
        try #require(f.count == 2, "\(f)")
        #expect(decibels(f.segments[0].peak, over: f.segments[1].peak) >= 6, "\(f)")
        #expect(f.segments[1].frequency < f.segments[0].frequency / 1.2, "\(f)")
    }

    @Test("error is four even, equally strong taps")
    func error() throws {
        let f = feel(.error)
        try #require(f.count == 4, "\(f)")
        let peaks = f.segments.map(\.peak)
        #expect(decibels(peaks.max()!, over: peaks.min()!) < 0.5, "\(f)")
        let gaps = zip(f.segments, f.segments.dropFirst()).map { $1.start - $0.start }
        #expect(gaps.max()! - gaps.min()! < 0.003, "\(gaps)")
    }

    @Test("selection is one light, crisp tick, lighter than any impact")
    func selection() throws {
        let f = feel(.selection)
        try #require(f.count == 1, "\(f)")
        #expect(f.segments[0].frequency > 240, "\(f)")
        for impact in [HapticFeedback.light, .impact, .heavy, .rigid, .soft] {
            #expect(f.energy < feel(impact).energy, "\(impact)")
            #expect(f.peak < feel(impact).peak, "\(impact)")
        }
    }

    @Test("impacts are one tap each", arguments: [HapticFeedback.light, .impact, .heavy, .rigid, .soft, .confirm, .textureTick, .toggleOn, .toggleOff])
    func singleTaps(feedback: HapticFeedback) {
        #expect(feel(feedback).count == 1, "\(feel(feedback))")
    }

    @Test("heavier impacts carry more energy and feel rounder")
    func weightOrder() {
        let light = feel(.light)
        let medium = feel(.impact(weight: .medium))
        let heavy = feel(.heavy)
        #expect(medium.energy > light.energy * 2, "\(light.energy) → \(medium.energy)")
        #expect(heavy.energy > medium.energy * 2, "\(medium.energy) → \(heavy.energy)")
        #expect(light.segments[0].frequency > medium.segments[0].frequency)
        #expect(medium.segments[0].frequency > heavy.segments[0].frequency)
    }

    @Test("more intense impacts carry more energy", arguments: HapticFeedback.Weight.allCases)
    func intensityOrder(weight: HapticFeedback.Weight) {
        let energies = [0.25, 0.5, 0.75, 1].map { feel(.impact(weight: weight, intensity: $0)).energy }
        #expect(zip(energies, energies.dropFirst()).allSatisfy { $0 < $1 }, "\(energies)")
        // Intensity is perceptual; amplitude is its square, so energy goes with its fourth power.
        #expect(abs(energies[1] / energies[3] - 1.0 / 16) < 0.01, "\(energies)")
    }

    @Test("rigid is crisper than solid, and solid crisper than soft")
    func flexibilityOrder() {
        let rigid = feel(.rigid)
        let solid = feel(.impact(flexibility: .solid))
        let soft = feel(.soft)
        #expect(rigid.segments[0].frequency > solid.segments[0].frequency * 1.3)
        #expect(solid.segments[0].frequency > soft.segments[0].frequency * 1.3)
        #expect(abs(decibels(rigid.peak, over: soft.peak)) < 0.5, "flexibility changes sharpness, not strength")
    }

    @Test("notification knocks twice, slower than reject's double click")
    func notificationAndReject() throws {
        let knock = feel(.notification)
        let reject = feel(.reject)
        try #require(knock.count == 2 && reject.count == 2, "\(knock) / \(reject)")
        #expect(abs(decibels(knock.segments[0].peak, over: knock.segments[1].peak)) < 0.5)
        #expect(abs(decibels(reject.segments[0].peak, over: reject.segments[1].peak)) < 0.5)
        #expect(knock.segments[1].start - knock.segments[0].start > 1.5 * (reject.segments[1].start - reject.segments[0].start))
        #expect(reject.segments[0].frequency > knock.segments[0].frequency * 1.3)
    }

    @Test("retry falls, pauses, then lifts")
    func retry() throws {
        let f = feel(.retry)
        try #require(f.count == 3, "\(f)")
        #expect(f.segments[1].peak < f.segments[0].peak && f.segments[1].peak < f.segments[2].peak, "\(f)")
        #expect(f.segments[2].start - f.segments[1].start > 1.5 * (f.segments[1].start - f.segments[0].start), "\(f)")
        #expect(f.segments[2].frequency > f.segments[1].frequency * 1.5, "\(f)")
    }

    @Test("pathComplete is three taps growing stronger and closer")
    func pathComplete() throws {
        let f = feel(.pathComplete)
        try #require(f.count == 3, "\(f)")
        #expect(f.segments[0].peak < f.segments[1].peak && f.segments[1].peak < f.segments[2].peak, "\(f)")
        #expect(f.segments[2].start - f.segments[1].start < f.segments[1].start - f.segments[0].start, "\(f)")
    }

    @Test("alignment snaps and settles: two crisp taps within 50 ms, the second weaker")
    func alignment() throws {
        let f = feel(.alignment)
        try #require(f.count == 2, "\(f)")
        #expect(f.segments[1].start - f.segments[0].start < 0.05, "\(f)")
        #expect(decibels(f.segments[0].peak, over: f.segments[1].peak) >= 6, "\(f)")
        #expect(f.segments.allSatisfy { $0.frequency > 270 }, "\(f)")
    }

    @Test("toggleOn is higher and stronger than toggleOff")
    func toggles() {
        let on = feel(.toggleOn)
        let off = feel(.toggleOff)
        #expect(on.segments[0].frequency > off.segments[0].frequency * 1.5)
        #expect(decibels(on.peak, over: off.peak) >= 3)
    }

    @Test("textureTick is the lightest tap of all")
    func textureTick() {
        let tick = feel(.textureTick)
        for other in HapticFeedback.presets where other != .textureTick {
            #expect(tick.peak < feel(other).peak, "\(other)")
        }
    }

    @Test("increase sweeps up in pitch and strength; decrease sweeps down")
    func sweeps() throws {
        let up = feel(.increase)
        let down = feel(.decrease)
        try #require(up.count == 1 && down.count == 1, "\(up) / \(down)")
        #expect(up.segments[0].duration > 0.06 && down.segments[0].duration > 0.06)
        #expect(up.segments[0].endFrequency > up.segments[0].startFrequency * 1.5, "\(up)")
        #expect(down.segments[0].endFrequency < down.segments[0].startFrequency / 1.5, "\(down)")
        #expect(up.segments[0].peakTime > up.segments[0].start + up.segments[0].duration / 2, "\(up)")
        #expect(down.segments[0].peakTime < down.segments[0].start + down.segments[0].duration / 2, "\(down)")
    }

    @Test("start builds up to its strongest moment at the end; stop starts with it and fades")
    func startAndStop() {
        let start = feel(.start)
        let stop = feel(.stop)
        let startPeak = start.samples.indices.max { abs(start.samples[$0]) < abs(start.samples[$1]) }!
        let stopPeak = stop.samples.indices.max { abs(stop.samples[$0]) < abs(stop.samples[$1]) }!
        #expect(Double(startPeak) / start.sampleRate > 0.8 * start.end, "\(start)")
        #expect(Double(stopPeak) / stop.sampleRate < 0.2 * stop.end, "\(stop)")
        let half = { (f: Feel) -> (Double, Double) in
            let middle = Int(f.end * f.sampleRate / 2)
            let energy = { (r: Range<Int>) in r.reduce(0.0) { $0 + Double(f.samples[$1] * f.samples[$1]) } }
            return (energy(0..<middle), energy(middle..<f.samples.count))
        }
        #expect(half(start).1 > 2 * half(start).0)
        #expect(half(stop).0 > 2 * half(stop).1)
        #expect(start.end > 0.14 && stop.end > 0.14, "both have a continuous body")
    }

    @Test("levelChange is a hum with a click in its middle")
    func levelChange() throws {
        let f = feel(.levelChange)
        try #require(f.count == 1, "\(f)")
        let segment = f.segments[0]
        #expect(segment.duration > 0.1, "\(f)")
        let position = (segment.peakTime - segment.start) / segment.duration
        #expect(position > 0.35 && position < 0.65, "\(f)")
    }

    @Test("longPress is a heavy thud that keeps sinking for a moment")
    func longPress() {
        let f = feel(.longPress)
        let peak = f.samples.indices.max { abs(f.samples[$0]) < abs(f.samples[$1]) }!
        #expect(Double(peak) / f.sampleRate < 0.02, "\(f)")
        #expect(f.end > 0.08, "\(f)")
        #expect(f.energy > feel(.heavy).energy, "more body than a heavy impact")
    }

    @Test("no preset clips or lasts half a second, on any built-in profile", arguments: ActuatorProfile.builtIn.map(\.name))
    func noClipping(profileName: String) throws {
        let profile = try #require(ActuatorProfile.named(profileName))
        for feedback in HapticFeedback.presets {
            let signal = HapticRenderer.render(HapticPattern(feedback: feedback, settings: .standard), profile: profile)
            #expect(signal.clippedSamples == 0, "\(feedback) on \(profileName)")
            #expect(signal.statistics.peak <= 1)
            let last = signal.samples.indices.last { signal.samples[$0] != 0 } ?? 0
            #expect(Double(last / signal.channelCount) / Double(signal.sampleRate) < 0.5, "\(feedback) on \(profileName)")
        }
    }

    @Test("a settings file named by HAPTICS_SETTINGS scales and mutes what is rendered")
    func settingsFromFile() throws {
        let full = feel(.success).energy
        let file = try TemporarySettings(#"{ "intensity": 0.5, "categories": { "impact": 0 } }"#)
        defer { file.remove() }
        let settings = HapticSettings.load(environment: file.environment()).settings
        let half = Feel(HapticPattern(feedback: .success, settings: settings))
        // Half the intensity is a quarter of the amplitude, a sixteenth of the energy.
        #expect(abs(half.energy / full - 1.0 / 16) < 0.005, "\(half.energy / full)")
        #expect(half.count == 2, "the shape survives scaling")
        #expect(Feel(HapticPattern(feedback: .heavy, settings: settings)).energy == 0, "impact scaled to 0")

        let off = HapticSettings.load(environment: file.environment(["HAPTICS_DISABLED": "1"])).settings
        for feedback in HapticFeedback.presets {
            let signal = HapticRenderer.render(HapticPattern(feedback: feedback, settings: off))
            #expect(signal.samples.allSatisfy { $0 == 0 }, "\(feedback) is silent when haptics are off")
        }
    }

    @Test("every preset can be told from every other by touch")
    func distinguishable() {
        let feels = HapticFeedback.presets.map { ($0.presetName, feel($0)) }
        for (i, (a, fa)) in feels.enumerated() {
            for (b, fb) in feels[(i + 1)...] {
                #expect(Perception.difference(fa, fb) != nil, "\(a) and \(b) feel the same:\n  \(fa)\n  \(fb)")
            }
        }
    }
}
