import FoundationEssentials
import Glibc

/// One sounding event. Voices live in a preallocated pool and are rendered in place; all state
/// advances per sample, or per control tick counted from the voice's start, so the output does
/// not depend on how the caller splits time into blocks.
///
/// Sines come from rotating a (sin, cos) pair rather than calling `sin` per sample: four
/// multiplies instead of a libm call is what lets rendering run thousands of times faster
/// than real time. The pair is renormalised every tick so it cannot drift. Four such pairs,
/// a sample apart and rotated four samples at a time, keep the processor busy where a single
/// pair would wait on its own previous multiply. The four pairs rotate in `Float`, four to a
/// register (twice the work of a `Double` register): within a tick of 48 rotations their error
/// stays near 10⁻⁶, under a 16-bit sample's step; each tick restarts them from `Double`. They
/// start a hair inside the unit circle (``headroom``), so that a full-scale sine is never
/// pushed past ±1 by that error and counted as clipped.
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
    /// A continuous carrier runs in groups of four samples: sin and cos at tick positions
    /// `groupStart … groupStart + 3` (a multiple of 4, counted from the tick's start), and the
    /// rotation by four samples. Four independent rotations a step, instead of one long chain
    /// of dependent multiplies, is what lets the loop run at the processor's throughput. The
    /// state depends only on the position within the tick, so the output still does not
    /// depend on how the caller splits time into blocks.
    var groupSin = SIMD4<Float>(repeating: 0)
    var groupCos = SIMD4<Float>(repeating: 1)
    var groupStart = 0
    var groupRotSin: Float = 0, groupRotCos: Float = 1
    /// The carrier's angular step per sample and its sin and cos, kept while the frequency
    /// holds (two libm calls a tick otherwise).
    var omega = Double.nan
    /// A transient runs its carrier (the same group fields, positions counted from the
    /// segment's start) and its envelope oscillator the same way, regrouped at each of its two
    /// segments (attack, fall).
    var envGroupSin = SIMD4<Float>(repeating: 0)
    var envGroupCos = SIMD4<Float>(repeating: 1)
    var envGroupRotSin: Float = 0, envGroupRotCos: Float = 1
    /// The transient is past its attack.
    var falling = false

    init() {}

    /// The carriers' radius: 1 − 2⁻¹⁸ (−0.00003 dB), above the largest growth of 12 rotations
    /// in `Float` (3.6·10⁻⁶; measured, under 4·10⁻⁷).
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

    /// Starts the carrier and envelope groups at the current frame: four single-sample
    /// rotations, then the four-sample rotations.
    private mutating func startTransientGroups(sin s0: Double, cos c0: Double) {
        var s = s0
        var c = c0
        var es = envSin
        var ec = envCos
        let rs = rotSin
        let rc = rotCos
        let ers = envRotSin
        let erc = envRotCos
        for l in 0..<4 {
            groupSin[l] = Float(s)
            groupCos[l] = Float(c)
            envGroupSin[l] = Float(es)
            envGroupCos[l] = Float(ec)
            (s, c) = (s * rc + c * rs, c * rc - s * rs)
            (es, ec) = (es * erc + ec * ers, ec * erc - es * ers)
        }
        let rotation = Self.fourfold(sin: rs, cos: rc)
        (groupRotSin, groupRotCos) = (Float(rotation.sin), Float(rotation.cos))
        let envelopeRotation = Self.fourfold(sin: ers, cos: erc)
        (envGroupRotSin, envGroupRotCos) = (Float(envelopeRotation.sin), Float(envelopeRotation.cos))
        groupStart = frameIndex
    }

    /// sin and cos of a carrier's step per sample. Steps are small (2π·300 Hz / 48 kHz is
    /// 0.04), where seven terms of the Taylor series are exact to the last bit; libm's pair
    /// cost a sweeping voice over 100 instructions a control tick.
    @inline(__always)
    static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        guard abs(x) < 0.1 else { return (sin(x), cos(x)) }
        let x2 = x * x
        let s = x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72 * (1 - x2 / 110 * (1 - x2 / 156))))))
        let c = 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56 * (1 - x2 / 90 * (1 - x2 / 132)))))
        return (s, c)
    }

    /// sin and cos of 4θ from those of θ (two doublings).
    @inline(__always)
    static func fourfold(sin s: Double, cos c: Double) -> (sin: Double, cos: Double) {
        let s2 = 2 * s * c
        let c2 = c * c - s * s
        return (2 * s2 * c2, c2 * c2 - s2 * s2)
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
            if !cut && k == groupStart && stop - k >= 4 {
                var s = groupSin
                var c = groupCos
                var es = envGroupSin
                var ec = envGroupCos
                let rs = groupRotSin
                let rc = groupRotCos
                let ers = envGroupRotSin
                let erc = envGroupRotCos
                while stop - k >= 4 {
                    let v = peak * (0.5 * (1 + sign * ec)) * s
                    let sum = UnsafeRawPointer(out).loadUnaligned(as: SIMD4<Float>.self) + v
                    UnsafeMutableRawPointer(out).storeBytes(of: sum, as: SIMD4<Float>.self)
                    (s, c) = (s * rc + c * rs, c * rc - s * rs)
                    (es, ec) = (es * erc + ec * ers, ec * erc - es * ers)
                    k += 4
                    out += 4
                }
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
                if k - groupStart == 4 {
                    (groupSin, groupCos) = (groupSin * groupRotCos + groupCos * groupRotSin, groupCos * groupRotCos - groupSin * groupRotSin)
                    (envGroupSin, envGroupCos) = (
                        envGroupSin * envGroupRotCos + envGroupCos * envGroupRotSin,
                        envGroupCos * envGroupRotCos - envGroupSin * envGroupRotSin
                    )
                    groupStart += 4
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
            if k == groupStart && stop - k >= 4 {
                // Whole groups: no test per sample.
                let base4 = SIMD4<Float>(repeating: base)
                let step4 = SIMD4<Float>(repeating: step)
                let lanes = SIMD4<Float>(1, 2, 3, 4)
                var s = groupSin
                var c = groupCos
                let rs = groupRotSin
                let rc = groupRotCos
                while stop - k >= 4 {
                    let v = (base4 + step4 * (SIMD4<Float>(repeating: Float(k)) + lanes)) * s
                    let sum = UnsafeRawPointer(out).loadUnaligned(as: SIMD4<Float>.self) + v
                    UnsafeMutableRawPointer(out).storeBytes(of: sum, as: SIMD4<Float>.self)
                    (s, c) = (s * rc + c * rs, c * rc - s * rs)
                    k += 4
                    out += 4
                }
                groupSin = s
                groupCos = c
                groupStart = k
            } else {
                out[0] += (base + step * Float(k + 1)) * groupSin[k - groupStart]
                out += 1
                k += 1
                if k - groupStart == 4 { advanceGroup() }
            }
        }
        tickIndex = stop
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
            if k + 1 - groupStart == 4 { advanceGroup() }
        }
        tickIndex += count
    }

    @inline(__always)
    private mutating func advanceGroup() {
        let rs = groupRotSin
        let rc = groupRotCos
        (groupSin, groupCos) = (groupSin * rc + groupCos * rs, groupCos * rc - groupSin * rs)
        groupStart += 4
    }

    /// Starts a control tick: evaluates envelope, intensity and sharpness at its end, and sets
    /// a linear amplitude ramp and a constant frequency across it.
    private mutating func beginTick(synth: PatternSynth, blockOffset: Int) {
        let length = synth.tickFrames
        tickStart = tickTarget
        tickEndTime += Double(length) * synth.rate / synth.sampleRate
        let time = eventTime + tickEndTime
        let intensity = HapticControl.intensity.apply(synth.control(.intensity, at: time), to: baseIntensity)
        sharpness = HapticControl.sharpness.apply(synth.control(.sharpness, at: time), to: baseSharpness)
        if tickEndTime >= envelope.end {
            tickTarget = 0
            finishing = true
        } else {
            tickTarget = synth.profile.amplitude(intensity: intensity) * envelope.level(at: tickEndTime)
        }
        tickStep = (tickTarget - tickStart) / Double(length)
        let omega = 2 * Double.pi * synth.profile.frequency(sharpness: sharpness) / synth.sampleRate
        if omega != self.omega {
            self.omega = omega
            (rotSin, rotCos) = Self.sinCos(omega)
        }
        let rs = rotSin
        let rc = rotCos
        // The carrier where the last tick ended, brought back to the headroom radius so it
        // cannot drift; its first four samples by single-sample rotations, then groups of four
        // by the four-sample one.
        var s = Double(groupSin[tickIndex - groupStart])
        var c = Double(groupCos[tickIndex - groupStart])
        let norm = Self.headroom / (s * s + c * c).squareRoot()
        s *= norm
        c *= norm
        for l in 0..<4 {
            groupSin[l] = Float(s)
            groupCos[l] = Float(c)
            (s, c) = (s * rc + c * rs, c * rc - s * rs)
        }
        let rotation = Self.fourfold(sin: rs, cos: rc)
        (groupRotSin, groupRotCos) = (Float(rotation.sin), Float(rotation.cos))
        groupStart = 0
        tickLength = length
        tickIndex = 0
    }
}
