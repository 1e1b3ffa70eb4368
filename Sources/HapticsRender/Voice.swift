internal import CSystem
import FoundationEssentials
import Glibc

/// One sounding event. Voices live in a preallocated pool and are rendered in place; all state
/// advances per sample, or per control tick counted from the voice's start, so the output does
/// not depend on how the caller splits time into blocks.
///
/// Sines come from rotating a (sin, cos) pair rather than calling `sin` per sample: four
/// multiplies instead of a libm call is what lets rendering run thousands of times faster
/// than real time. The pair is renormalised every tick so it cannot drift. Eight such pairs
/// (``Lanes``), a sample apart and rotated eight samples at a time, keep the processor busy
/// where a single pair would wait on its own previous multiply: each rotation is a multiply
/// and an add long, and with four pairs the loop still waited on it. The pairs rotate in
/// `Float`, four to a register (twice the work of a `Double` register): within a tick their
/// error stays near 10⁻⁶, under a 16-bit sample's step; each tick restarts them from `Double`.
/// They start a hair inside the unit circle (``headroom``), so that a full-scale sine is never
/// pushed past ±1 by that error and counted as clipped. Whole groups run in C with AVX2 where
/// the processor has it (one register a group), the same operations in the same order
/// (``continuousGroups(into:_:base:step:first:_:_:_:_:)``).
struct Voice {
    var isTransient = false
    /// Frames to wait, within the current block, before the first sample.
    var delay = 0
    /// Carrier: sin and cos of the phase, and the per-sample rotation.
    var sinPhase = 0.0, cosPhase = 1.0
    var rotSin = 0.0, rotCos = 1.0
    /// Fade-out when cut (restart, seek, pause, stop): frames left of `cutTotal`; 0 = not cut.
    var cutRemaining = 0
    var cutTotal = 0
    var isCut: Bool { cutTotal > 0 }

    /// Sharpness now (the event's for a transient; event plus control for a continuous event),
    /// for the rumble mapping.
    var sharpness = 0.0

    // Transient state.
    var peak = 0.0
    var frameIndex = 0
    var attackFrames = 0
    var totalFrames = 0
    /// Envelope oscillator (raised cosine): sin/cos and rotation.
    var envSin = 0.0, envCos = 1.0
    var envRotSin = 0.0, envRotCos = 1.0

    // Continuous state.
    var envelope = ContinuousEnvelope(attack: 0.005, decay: 0.005, release: 0.005, duration: 0, sustained: true)
    var baseIntensity = 0.0
    var baseSharpness = 0.0
    /// Pattern time of the event's start.
    var eventTime = 0.0
    /// Event-local pattern seconds at the end of the current tick.
    var tickEndTime = 0.0
    /// Amplitude at the start of the current tick, its target at the end, and the step.
    var tickStart = 0.0
    var tickTarget = 0.0
    var tickStep = 0.0
    var tickIndex = 0
    var tickLength = 0
    /// This tick ramps to zero and then the voice ends.
    var finishing = false
    /// A continuous carrier runs in groups of eight samples: sin and cos at tick positions
    /// `groupStart … groupStart + 7` (a multiple of 8, counted from the tick's start), and the
    /// rotation by eight samples. Eight independent rotations a step, instead of one long chain
    /// of dependent multiplies, is what lets the loop run at the processor's throughput. The
    /// state depends only on the position within the tick, so the output still does not
    /// depend on how the caller splits time into blocks.
    var groupSin = Lanes(repeating: 0)
    var groupCos = Lanes(repeating: 1)
    var groupStart = 0
    var groupRotSin: Float = 0, groupRotCos: Float = 1
    /// The carrier's angular step per sample and its sin and cos, kept while the frequency
    /// holds (two libm calls a tick otherwise).
    var omega = Double.nan
    /// sin and cos of the carrier's rotation by 0…7 samples, kept with `omega`: a tick sets
    /// its first group from them in four vector multiplies, where turning each lane in
    /// `Double` was a quarter of a tick's work.
    var laneSin = Lanes(repeating: 0)
    var laneCos = Lanes(repeating: 1)
    /// A transient runs its carrier (the same group fields, positions counted from the
    /// segment's start) and its envelope oscillator the same way, regrouped at each of its two
    /// segments (attack, fall).
    var envGroupSin = Lanes(repeating: 0)
    var envGroupCos = Lanes(repeating: 1)
    var envGroupRotSin: Float = 0, envGroupRotCos: Float = 1
    /// The transient is past its attack.
    var falling = false

    init() {}

    /// The carriers' groups: eight samples, two registers of four on any x86-64.
    typealias Lanes = SIMD8<Float>
    static let width = Lanes.scalarCount

    /// The carriers' radius: 1 − 2⁻¹⁸ (−0.00003 dB), above the largest growth of a tick's six
    /// eight-sample rotations in `Float` (under 2·10⁻⁶ in theory; measured, under 4·10⁻⁷).
    static let headroom = 1 - 0x1p-18

    /// A transient burst (see ``TransientShape``) starting `delay` frames into the block.
    init(transientWithPeak peak: Double, frequency: Double, sharpness: Double, sampleRate: Double, delay: Int, minimumLength: Double = 0) {
        isTransient = true
        self.peak = peak
        self.sharpness = sharpness
        self.delay = delay
        attackFrames = max(1, Int((TransientShape.attack * sampleRate).rounded()))
        let length = max(TransientShape.length(frequency: frequency), minimumLength)
        totalFrames = max(attackFrames + 1, Int((length * sampleRate).rounded()))
        // Sample k sits at (k + ½)/rate; the carrier peaks where the attack ends.
        let omega = 2 * Double.pi * frequency / sampleRate
        let phase0 = omega * (0.5 - Double(attackFrames)) + Double.pi / 2
        sinPhase = sin(phase0)
        cosPhase = cos(phase0)
        (rotSin, rotCos) = Self.sinCos(omega)
        setEnvelopeSegment(frames: attackFrames)
        startTransientGroups(sin: sinPhase, cos: cosPhase)
    }

    /// A continuous event starting `delay` frames into the block, `elapsed` seconds into its envelope.
    init(continuous event: CompiledPattern.Event, envelope: ContinuousEnvelope, delay: Int, elapsed: Double) {
        isTransient = false
        self.delay = delay
        self.envelope = envelope
        baseIntensity = event.intensity
        baseSharpness = event.sharpness
        eventTime = event.time
        tickEndTime = elapsed
        sinPhase = 0
        cosPhase = 1
    }

    private mutating func setEnvelopeSegment(frames: Int) {
        let step = Double.pi / Double(frames)
        (envSin, envCos) = Self.sinCos(step / 2)
        (envRotSin, envRotCos) = Self.sinCos(step)
    }

    /// The voice's current contribution to a motor: its amplitude (a transient holds its peak
    /// for its whole pulse) scaled by any fade-out in progress.
    var motorAmplitude: Double {
        let level = isTransient ? peak : tickTarget
        return cutTotal > 0 ? level * Double(max(0, cutRemaining)) / Double(cutTotal) : level
    }

    /// Starts fading the voice out over `frames`.
    mutating func cut(over frames: Int) {
        cutTotal = frames
        cutRemaining = frames
    }

    /// Adds the voice's next samples into `output[0..<frames]`; returns true when it has ended.
    @inline(__always)
    mutating func render(into output: UnsafeMutablePointer<Float>, frames: Int, synth: PatternSynth) -> Bool {
        let start = min(delay, frames)
        delay -= start
        guard start < frames else { return false }
        return isTransient
            ? renderTransient(into: output, from: start, to: frames)
            : renderContinuous(into: output, from: start, to: frames, synth: synth)
    }

    private mutating func renderTransient(into output: UnsafeMutablePointer<Float>, from start: Int, to end: Int) -> Bool {
        var j = start
        while j < end {
            if frameIndex == attackFrames && !falling {
                // The carrier where the attack ended carries on; the envelope starts its fall.
                let lane = frameIndex - groupStart
                let s = Double(groupSin[lane])
                let c = Double(groupCos[lane])
                falling = true
                setEnvelopeSegment(frames: totalFrames - attackFrames)
                startTransientGroups(sin: s, cos: c)
            }
            let n = min(end - j, (falling ? totalFrames : attackFrames) - frameIndex)
            if cutTotal > 0 {
                // A fade-out in progress: sample by sample, ending when it reaches zero.
                let m = min(n, cutRemaining)
                renderTransientStretch(into: output + j, count: m, cut: true)
                if cutRemaining <= 0 { return true }
                j += m
            } else {
                renderTransientStretch(into: output + j, count: n, cut: false)
                j += n
            }
            if frameIndex >= totalFrames { return true }
        }
        return false
    }

    /// Starts the carrier and envelope groups at the current frame, and their rotations by a
    /// group.
    private mutating func startTransientGroups(sin s0: Double, cos c0: Double) {
        (groupSin, groupCos, groupRotSin, groupRotCos) = Self.group(sin: s0, cos: c0, step: (rotSin, rotCos))
        (envGroupSin, envGroupCos, envGroupRotSin, envGroupRotCos) = Self.group(sin: envSin, cos: envCos, step: (envRotSin, envRotCos))
        groupStart = frameIndex
    }

    /// A group of eight samples starting at (`s0`, `c0`) and turning by `step` a sample: its
    /// lanes, and the rotation from one group to the next (by eight samples) in `Float`.
    @inline(__always)
    static func group(sin s0: Double, cos c0: Double, step one: (sin: Double, cos: Double)) -> (sin: Lanes, cos: Lanes, rotationSin: Float, rotationCos: Float)
    {
        let two = doubled(one)
        let four = doubled(two)
        let (sines, cosines) = lanes(sin: s0, cos: c0, one: one, two: two, four: four)
        let eight = doubled(four)
        return (sines, cosines, Float(eight.sin), Float(eight.cos))
    }

    /// ``group(sin:cos:step:)`` from the phase 0 (sin 0, cos 1), bit for bit: turning (0, 1) by
    /// a rotation gives the rotation itself (`0·c + 1·s` is `s`, `1·c − 0·s` is `c`), so samples
    /// 1, 2 and 4 are the rotations by one, two and four samples, and four turns are left of
    /// seven. Every continuous voice does this on each tick whose frequency moved.
    @inline(__always)
    static func groupFromZero(step one: (sin: Double, cos: Double)) -> (sin: Lanes, cos: Lanes, rotationSin: Float, rotationCos: Float) {
        let two = doubled(one)
        let four = doubled(two)
        let p3 = turn(one, by: two)
        let p5 = turn(one, by: four)
        let p6 = turn(two, by: four)
        let p7 = turn(p3, by: four)
        let eight = doubled(four)
        return (
            Lanes(0, Float(one.sin), Float(two.sin), Float(p3.sin), Float(four.sin), Float(p5.sin), Float(p6.sin), Float(p7.sin)),
            Lanes(1, Float(one.cos), Float(two.cos), Float(p3.cos), Float(four.cos), Float(p5.cos), Float(p6.cos), Float(p7.cos)),
            Float(eight.sin), Float(eight.cos)
        )
    }

    /// A phase `p` turned by the rotation `r`.
    @inline(__always)
    static func turn(_ p: (sin: Double, cos: Double), by r: (sin: Double, cos: Double)) -> (sin: Double, cos: Double) {
        (p.sin * r.cos + p.cos * r.sin, p.cos * r.cos - p.sin * r.sin)
    }

    /// sin and cos at a group's eight samples, from those at its first and the rotations by
    /// one, two and four samples: three rotations deep (sample 0 gives 1, 2 and 4; they give
    /// 3, 5 and 6; 3 gives 7) where turning sample by sample waited on seven in a row.
    @inline(__always)
    static func lanes(
        sin s0: Double, cos c0: Double, one: (sin: Double, cos: Double), two: (sin: Double, cos: Double), four: (sin: Double, cos: Double)
    ) -> (sin: Lanes, cos: Lanes) {
        let p0 = (sin: s0, cos: c0)
        let p1 = turn(p0, by: one)
        let p2 = turn(p0, by: two)
        let p4 = turn(p0, by: four)
        let p3 = turn(p1, by: two)
        let p5 = turn(p1, by: four)
        let p6 = turn(p2, by: four)
        let p7 = turn(p3, by: four)
        return (
            Lanes(Float(p0.sin), Float(p1.sin), Float(p2.sin), Float(p3.sin), Float(p4.sin), Float(p5.sin), Float(p6.sin), Float(p7.sin)),
            Lanes(Float(p0.cos), Float(p1.cos), Float(p2.cos), Float(p3.cos), Float(p4.cos), Float(p5.cos), Float(p6.cos), Float(p7.cos))
        )
    }

    /// sin and cos of a carrier's step per sample. Steps are small (2π·300 Hz / 48 kHz is
    /// 0.04), where seven terms of the Taylor series are within an ulp or two; libm's pair cost
    /// a sweeping voice over 100 instructions a control tick, and the series written with
    /// divisions (by 6, 20, …) still cost half as much: its coefficients are constants here.
    @inline(__always)
    static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        guard abs(x) < 0.1 else { return (sin(x), cos(x)) }
        let x2 = x * x
        let s = x + x * x2 * (-1.0 / 6 + x2 * (1.0 / 120 + x2 * (-1.0 / 5040 + x2 * (1.0 / 362_880 + x2 * (-1.0 / 39_916_800 + x2 * (1.0 / 6_227_020_800))))))
        let c = 1 + x2 * (-1.0 / 2 + x2 * (1.0 / 24 + x2 * (-1.0 / 720 + x2 * (1.0 / 40320 + x2 * (-1.0 / 3_628_800 + x2 * (1.0 / 479_001_600))))))
        return (s, c)
    }

    /// sin and cos of 2θ from those of θ.
    @inline(__always)
    static func doubled(_ r: (sin: Double, cos: Double)) -> (sin: Double, cos: Double) {
        (2 * r.sin * r.cos, r.cos * r.cos - r.sin * r.sin)
    }

    /// Adds `count` samples of the current segment (not past its end): whole groups without a
    /// test per sample, single samples at the edges and, with `cut`, while fading out.
    @inline(__always)
    private mutating func renderTransientStretch(into output: UnsafeMutablePointer<Float>, count: Int, cut: Bool) {
        let stop = frameIndex + count
        var k = frameIndex
        var out = output
        // The attack rises along 0.5·(1 − cos), the fall along 0.5·(1 + cos).
        let sign: Float = falling ? 1 : -1
        let peak = Float(self.peak * Self.headroom)
        while k < stop {
            if !cut && k == groupStart && stop - k >= Self.width {
                var s = groupSin
                var c = groupCos
                var es = envGroupSin
                var ec = envGroupCos
                let rs = groupRotSin
                let rc = groupRotCos
                let ers = envGroupRotSin
                let erc = envGroupRotCos
                let groups = (stop - k) / Self.width
                Self.transientGroups(into: out, groups, peak: peak, sign: sign, &s, &c, rs, rc, &es, &ec, ers, erc)
                k += groups * Self.width
                out += groups * Self.width
                groupSin = s
                groupCos = c
                envGroupSin = es
                envGroupCos = ec
                groupStart = k
            } else {
                let lane = k - groupStart
                var sample = peak * (0.5 * (1 + sign * envGroupCos[lane])) * groupSin[lane]
                if cut {
                    sample *= Float(cutRemaining) / Float(cutTotal)
                    cutRemaining -= 1
                }
                out[0] += sample
                out += 1
                k += 1
                if k - groupStart == Self.width {
                    (groupSin, groupCos) = (groupSin * groupRotCos + groupCos * groupRotSin, groupCos * groupRotCos - groupSin * groupRotSin)
                    (envGroupSin, envGroupCos) = (
                        envGroupSin * envGroupRotCos + envGroupCos * envGroupRotSin,
                        envGroupCos * envGroupRotCos - envGroupSin * envGroupRotSin
                    )
                    groupStart += Self.width
                }
            }
        }
        frameIndex = stop
    }

    private mutating func renderContinuous(into output: UnsafeMutablePointer<Float>, from start: Int, to end: Int, synth: PatternSynth) -> Bool {
        var j = start
        while j < end {
            if tickIndex == tickLength {
                if finishing { return true }
                beginTick(synth: synth, blockOffset: j)
            }
            let n = min(tickLength - tickIndex, end - j)
            if cutTotal > 0 {
                renderCutStretch(into: output + j, count: n)
                cutRemaining -= n
                if cutRemaining <= 0 { return true }
            } else {
                renderStretch(into: output + j, count: n)
            }
            j += n
            if tickIndex == tickLength && finishing { return true }
        }
        return false
    }

    /// Adds `count` samples of the current tick (not past its end). The amplitude is computed
    /// from the tick's start for every sample, never accumulated, so the result is the same
    /// however the caller splits blocks.
    @inline(__always)
    private mutating func renderStretch(into output: UnsafeMutablePointer<Float>, count: Int) {
        let stop = tickIndex + count
        var k = tickIndex
        var out = output
        let base = Float(tickStart)
        let step = Float(tickStep)
        while k < stop {
            if k == groupStart && stop - k >= Self.width {
                // Whole groups: no test per sample.
                var s = groupSin
                var c = groupCos
                let groups = (stop - k) / Self.width
                Self.continuousGroups(into: out, groups, base: base, step: step, first: k, &s, &c, groupRotSin, groupRotCos)
                k += groups * Self.width
                out += groups * Self.width
                groupSin = s
                groupCos = c
                groupStart = k
            } else {
                out[0] += (base + step * Float(k + 1)) * groupSin[k - groupStart]
                out += 1
                k += 1
                if k - groupStart == Self.width { advanceGroup() }
            }
        }
        tickIndex = stop
    }

    /// Adds `groups` whole groups of a continuous voice's carrier (``renderStretch(into:count:)``)
    /// to `out`: `(base + step · (k + 1…8)) · sin` from the tick position `first`, turning the
    /// carrier's lanes `s`, `c` by (`rs`, `rc`) a group. With AVX2 in C (eight lanes in one
    /// register, where Swift's portable code takes two, and the same operations in the same
    /// order), else ``continuousGroupsPortably(into:_:base:step:first:_:_:_:_:)``.
    @inline(__always)
    static func continuousGroups(
        into out: UnsafeMutablePointer<Float>, _ groups: Int, base: Float, step: Float, first: Int, _ s: inout Lanes, _ c: inout Lanes,
        _ rs: Float, _ rc: Float
    ) {
        guard groups > 0 else { return }
        let done = withUnsafeMutableBytes(of: &s) { sines in
            withUnsafeMutableBytes(of: &c) { cosines in
                haptics_continuous_groups_avx2(
                    out, groups, base, step, first, sines.baseAddress!.assumingMemoryBound(to: Float.self),
                    cosines.baseAddress!.assumingMemoryBound(to: Float.self), rs, rc) != 0
            }
        }
        if !done { continuousGroupsPortably(into: out, groups, base: base, step: step, first: first, &s, &c, rs, rc) }
    }

    /// ``continuousGroups(into:_:base:step:first:_:_:_:_:)`` for any processor.
    static func continuousGroupsPortably(
        into output: UnsafeMutablePointer<Float>, _ groups: Int, base: Float, step: Float, first: Int, _ s: inout Lanes, _ c: inout Lanes,
        _ rs: Float, _ rc: Float
    ) {
        let base8 = Lanes(repeating: base)
        let step8 = Lanes(repeating: step)
        let lanes = Lanes(1, 2, 3, 4, 5, 6, 7, 8)
        var out = output
        var k = first
        for _ in 0..<groups {
            let v = (base8 + step8 * (Lanes(repeating: Float(k)) + lanes)) * s
            let sum = UnsafeRawPointer(out).loadUnaligned(as: Lanes.self) + v
            UnsafeMutableRawPointer(out).storeBytes(of: sum, as: Lanes.self)
            (s, c) = (s * rc + c * rs, c * rc - s * rs)
            k += Self.width
            out += Self.width
        }
    }

    /// Adds `groups` whole groups of a transient (``renderTransientStretch(into:count:cut:)``) to
    /// `out`: `peak · (0.5 · (1 + sign · envelope cos)) · sin`, turning the carrier (`s`, `c`)
    /// and the envelope oscillator (`es`, `ec`) a group; in C with AVX2 as
    /// ``continuousGroups(into:_:base:step:first:_:_:_:_:)``, else
    /// ``transientGroupsPortably(into:_:peak:sign:_:_:_:_:_:_:_:_:)``.
    @inline(__always)
    static func transientGroups(
        into out: UnsafeMutablePointer<Float>, _ groups: Int, peak: Float, sign: Float, _ s: inout Lanes, _ c: inout Lanes, _ rs: Float,
        _ rc: Float, _ es: inout Lanes, _ ec: inout Lanes, _ ers: Float, _ erc: Float
    ) {
        guard groups > 0 else { return }
        let done = withUnsafeMutableBytes(of: &s) { sines in
            withUnsafeMutableBytes(of: &c) { cosines in
                withUnsafeMutableBytes(of: &es) { envelopeSines in
                    withUnsafeMutableBytes(of: &ec) { envelopeCosines in
                        haptics_transient_groups_avx2(
                            out, groups, peak, sign, sines.baseAddress!.assumingMemoryBound(to: Float.self),
                            cosines.baseAddress!.assumingMemoryBound(to: Float.self), rs, rc,
                            envelopeSines.baseAddress!.assumingMemoryBound(to: Float.self),
                            envelopeCosines.baseAddress!.assumingMemoryBound(to: Float.self), ers, erc) != 0
                    }
                }
            }
        }
        if !done { transientGroupsPortably(into: out, groups, peak: peak, sign: sign, &s, &c, rs, rc, &es, &ec, ers, erc) }
    }

    /// ``transientGroups(into:_:peak:sign:_:_:_:_:_:_:_:_:)`` for any processor.
    static func transientGroupsPortably(
        into output: UnsafeMutablePointer<Float>, _ groups: Int, peak: Float, sign: Float, _ s: inout Lanes, _ c: inout Lanes, _ rs: Float,
        _ rc: Float, _ es: inout Lanes, _ ec: inout Lanes, _ ers: Float, _ erc: Float
    ) {
        var out = output
        for _ in 0..<groups {
            let v = peak * (0.5 * (1 + sign * ec)) * s
            let sum = UnsafeRawPointer(out).loadUnaligned(as: Lanes.self) + v
            UnsafeMutableRawPointer(out).storeBytes(of: sum, as: Lanes.self)
            (s, c) = (s * rc + c * rs, c * rc - s * rs)
            (es, ec) = (es * erc + ec * ers, ec * erc - es * ers)
            out += Self.width
        }
    }

    /// As ``renderStretch(into:count:)``, fading out: sample by sample.
    private mutating func renderCutStretch(into output: UnsafeMutablePointer<Float>, count: Int) {
        let total = Double(cutTotal)
        let base = tickStart
        let step = tickStep
        for i in 0..<count {
            let k = tickIndex + i
            let amplitude = base + step * Double(k + 1)
            let fade = Double(max(0, cutRemaining - i)) / total
            output[i] += Float(amplitude * fade * Double(groupSin[k - groupStart]))
            if k + 1 - groupStart == Self.width { advanceGroup() }
        }
        tickIndex += count
    }

    @inline(__always)
    private mutating func advanceGroup() {
        let rs = groupRotSin
        let rc = groupRotCos
        (groupSin, groupCos) = (groupSin * rc + groupCos * rs, groupCos * rc - groupSin * rs)
        groupStart += Self.width
    }

    /// Starts a control tick: evaluates envelope, intensity and sharpness at its end, and sets
    /// a linear amplitude ramp and a constant frequency across it.
    private mutating func beginTick(synth: PatternSynth, blockOffset: Int) {
        let length = synth.tickFrames
        tickStart = tickTarget
        tickEndTime += synth.tickSeconds
        let time = eventTime + tickEndTime
        let intensity = HapticControl.intensity.apply(synth.control(.intensity, at: time), to: baseIntensity)
        sharpness = HapticControl.sharpness.apply(synth.control(.sharpness, at: time), to: baseSharpness)
        if tickEndTime >= envelope.end {
            tickTarget = 0
            finishing = true
        } else {
            tickTarget = synth.profile.amplitude(intensity: intensity) * envelope.level(at: tickEndTime)
        }
        tickStep = (tickTarget - tickStart) * synth.tickReciprocal
        let omega = synth.radiansPerHertz * synth.profile.frequency(sharpness: sharpness)
        if omega != self.omega {
            self.omega = omega
            (rotSin, rotCos) = Self.sinCos(omega)
            (laneSin, laneCos, groupRotSin, groupRotCos) = Self.groupFromZero(step: (rotSin, rotCos))
        }
        // The carrier where the last tick ended, brought back to the headroom radius so it
        // cannot drift; its first group of eight samples, then groups of eight by the
        // eight-sample rotation.
        let s = Double(groupSin[tickIndex - groupStart])
        let c = Double(groupCos[tickIndex - groupStart])
        // headroom / √(s² + c²) by one Newton step from 1: the radius is within 10⁻⁶ of the
        // headroom, so the step's error (under 10⁻¹²) is far below Float's, without a division.
        let norm = 1.5 - 0.5 / (Self.headroom * Self.headroom) * (s * s + c * c)
        let s0 = Lanes(repeating: Float(s * norm))
        let c0 = Lanes(repeating: Float(c * norm))
        (groupSin, groupCos) = (s0 * laneCos + c0 * laneSin, c0 * laneCos - s0 * laneSin)
        groupStart = 0
        tickLength = length
        tickIndex = 0
    }
}
