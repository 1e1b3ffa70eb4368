import FoundationEssentials
import Glibc

/// One sounding event. Voices live in a preallocated pool and are rendered in place; all state
/// advances per sample, or per control tick counted from the voice's start, so the output does
/// not depend on how the caller splits time into blocks.
///
/// Sines come from rotating a (sin, cos) pair rather than calling `sin` per sample: four
/// multiplies instead of a libm call is what lets rendering run thousands of times faster
/// than real time. The pair is renormalised every tick so it cannot drift.
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

    init() {}

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
        sinPhase = sin(phase0); cosPhase = cos(phase0)
        rotSin = sin(omega); rotCos = cos(omega)
        setEnvelopeSegment(frames: attackFrames)
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
        sinPhase = 0; cosPhase = 1
    }

    private mutating func setEnvelopeSegment(frames: Int) {
        let step = Double.pi / Double(frames)
        envSin = sin(step / 2); envCos = cos(step / 2)
        envRotSin = sin(step); envRotCos = cos(step)
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
            if frameIndex == attackFrames { setEnvelopeSegment(frames: totalFrames - attackFrames) }
            let rising = frameIndex < attackFrames
            let envelope = rising ? 0.5 * (1 - envCos) : 0.5 * (1 + envCos)
            var sample = peak * envelope * sinPhase
            if cutTotal > 0 {
                sample *= Double(cutRemaining) / Double(cutTotal)
                cutRemaining -= 1
            }
            output[j] += Float(sample)
            let s = sinPhase * rotCos + cosPhase * rotSin
            cosPhase = cosPhase * rotCos - sinPhase * rotSin
            sinPhase = s
            let es = envSin * envRotCos + envCos * envRotSin
            envCos = envCos * envRotCos - envSin * envRotSin
            envSin = es
            frameIndex += 1
            j += 1
            if frameIndex >= totalFrames || (cutTotal > 0 && cutRemaining <= 0) { return true }
        }
        return false
    }

    private mutating func renderContinuous(into output: UnsafeMutablePointer<Float>, from start: Int, to end: Int, synth: PatternSynth) -> Bool {
        var j = start
        while j < end {
            if tickIndex == tickLength {
                if finishing { return true }
                beginTick(synth: synth, blockOffset: j)
            }
            let n = min(tickLength - tickIndex, end - j)
            // Computed from the tick's start for every sample, never accumulated, so the
            // result is the same however the caller splits blocks.
            let base = tickStart, step = tickStep, first = tickIndex + 1
            var s = sinPhase, c = cosPhase
            let rs = rotSin, rc = rotCos
            if cutTotal > 0 {
                let total = Double(cutTotal)
                for k in 0..<n {
                    let amplitude = base + step * Double(first + k)
                    let fade = Double(max(0, cutRemaining - k)) / total
                    output[j + k] += Float(amplitude * fade * s)
                    let ns = s * rc + c * rs
                    c = c * rc - s * rs
                    s = ns
                }
                cutRemaining -= n
                if cutRemaining <= 0 { return true }
            } else {
                for k in 0..<n {
                    let amplitude = base + step * Double(first + k)
                    output[j + k] += Float(amplitude * s)
                    let ns = s * rc + c * rs
                    c = c * rc - s * rs
                    s = ns
                }
            }
            sinPhase = s; cosPhase = c
            tickIndex += n
            j += n
            if tickIndex == tickLength && finishing { return true }
        }
        return false
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
        tickLength = length
        tickIndex = 0
        let omega = 2 * Double.pi * synth.profile.frequency(sharpness: sharpness) / synth.sampleRate
        rotSin = sin(omega); rotCos = cos(omega)
        let norm = 1 / (sinPhase * sinPhase + cosPhase * cosPhase).squareRoot()
        sinPhase *= norm; cosPhase *= norm
    }
}
