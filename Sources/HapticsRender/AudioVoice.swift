import FoundationEssentials
import Glibc
import HapticsCore

/// What audio events sound like. Apple does not document the timbre of `AudioContinuous`
/// events; this project's choices, fixed here so renders and playback agree:
///
/// - **Tone** (`AudioContinuous`): a band-limited tone at `440 Hz × 2^pitch`, so `AudioPitch`
///   −1…1 spans one octave down to one octave up (220–880 Hz). `AudioBrightness` mixes in the
///   2nd to 4th harmonics of a sawtooth (amplitudes b/2, b/3, b/4 relative to the fundamental):
///   brightness 0 is a pure sine, 1 a buzzy, reedy tone. The mix is scaled by 1/(1 + 0.53·b),
///   which keeps its peak at or under the fundamental's. At volume 1 the tone peaks at 0.5
///   (−6 dBFS), leaving headroom for the haptics it is mixed with.
/// - **Sound file** (`AudioCustom`): played as recorded at volume 1, resampled to the output
///   rate by libsoxr when the synth is made (linearly, here, where libsoxr is missing).
///   `AudioPitch` changes the playback speed, `2^pitch` (±1: an octave up or down,
///   shorter or longer), like a tape; so does the player's `playbackRate`, since the file's
///   position follows pattern time. `AudioBrightness` below 1 closes a gentle one-pole low-pass
///   filter, cutoff `400 Hz × 50^b` (400 Hz at 0, 20 kHz near 1; 1 is no filter).
/// - **Volume** scales amplitude linearly. **Pan** is equal-power: a mono source (the tone, a
///   mono file) goes left `cos θ`, right `sin θ` with `θ = (pan + 1)·π/4`; a stereo file keeps
///   its channels and attenuates the far one, left `min(1, √2·cos θ)`, right
///   `min(1, √2·sin θ)` (both 1 at the centre).
/// - **Envelope**: the rules of haptic continuous events (attack, decay, release, sustained,
///   `T(v) = 5 ms × 1000^v`, audio envelope controls added at the event's start). A sound
///   file's envelope lasts the event's duration, or the file's length when the duration is 0;
///   with `EventWaveformUseVolumeEnvelope` false the file plays at full level instead, with a
///   1 ms fade where the duration cuts it short. A file that does not loop ends with its last
///   sample; one that loops repeats for the event's duration (once when the duration is 0).
enum AudioTimbre {
    /// The tone's frequency at pitch 0.
    static let baseFrequency = 440.0
    /// The tone's peak at volume 1.
    static let toneLevel = 0.5
    /// Peak of `sin φ + sin 2φ/2 + sin 3φ/3 + sin 4φ/4` is 1.527: the harmonic mix is scaled
    /// by 1/(1 + 0.53·b).
    static let harmonicNormalisation = 0.53

    /// The file playback speed or the tone's frequency ratio for a pitch value.
    @inline(__always)
    static func speed(pitch: Double) -> Double { exp2(pitch) }

    /// Equal-power pan gains for a mono source.
    @inline(__always)
    static func panGains(_ pan: Double) -> (left: Double, right: Double) {
        let theta = (min(max(pan, -1), 1) + 1) * Double.pi / 4
        return (cos(theta), sin(theta))
    }

    /// The one-pole low-pass coefficient for a brightness at a sample rate (1: no filter).
    @inline(__always)
    static func lowPassCoefficient(brightness: Double, sampleRate: Double) -> Double {
        guard brightness < 1 else { return 1 }
        let cutoff = 400 * pow(50, max(0, brightness))
        return 1 - exp(-2 * Double.pi * cutoff / sampleRate)
    }
}

/// An audio event's level over its own (pattern) time, and when it ends.
struct AudioShape: Sendable {
    var envelope: ContinuousEnvelope
    var usesEnvelope: Bool
    /// Seconds the sound lasts before any release: the event's duration; for a file with
    /// duration 0, the file's length.
    var length: Double
    /// Where a sound file runs out, if it does not loop (∞ otherwise).
    var soundEnd: Double
    /// Whether a file without envelope is cut short by the duration (and so fades out).
    var fadesAtLength: Bool

    /// The shape of an event, with the envelope controls in effect at its start; a file's
    /// length at `speed`, or at the pitch in effect at its start when `speed` is nil.
    init(_ event: CompiledPattern.AudioEvent, pattern: CompiledPattern, runtime: RuntimeControls? = nil, speed: Double? = nil) {
        func control(_ c: HapticControl) -> Double {
            if let runtime { return PatternSynth.control(c, at: event.time, pattern: pattern, runtime: runtime) }
            return pattern.control(c, at: event.time)
        }
        usesEnvelope = event.usesEnvelope
        var length = event.duration
        var soundEnd = Double.infinity
        fadesAtLength = false
        if event.isCustom {
            if event.clip >= 0 {
                let pitch = HapticControl.pitch.apply(control(.pitch), to: event.pitch)
                let fileSeconds = pattern.clips[event.clip].duration / (speed ?? AudioTimbre.speed(pitch: pitch))
                if event.duration <= 0 { length = fileSeconds }
                if !event.loops || event.duration <= 0 { soundEnd = fileSeconds }
                fadesAtLength = length < soundEnd
            } else {
                length = 0
                soundEnd = 0
            }
        }
        self.length = length
        self.soundEnd = soundEnd
        envelope = ContinuousEnvelope(
            attack: HapticEnvelope.seconds(for: event.attack + control(.audioAttack)),
            decay: HapticEnvelope.seconds(for: event.decay + control(.audioDecay)),
            release: HapticEnvelope.seconds(for: event.release + control(.audioRelease)),
            duration: length,
            sustained: event.sustained)
    }

    /// When the event is silent for good, in seconds from its start.
    var end: Double { min(usesEnvelope ? envelope.end : length, soundEnd) }

    /// The level (0…1) at `t` seconds after the event's start.
    @inline(__always)
    func level(at t: Double) -> Double {
        if usesEnvelope { return envelope.level(at: t) }
        guard t > 0, t < length else { return 0 }
        return fadesAtLength ? min(1, (length - t) / ContinuousEnvelope.cutFade) : 1
    }
}

/// One sounding audio event: a tone or a sound file, rendered into a stereo pair. Like
/// ``Voice``, it lives in a preallocated pool, updates its parameters on the synth's 1 ms
/// control grid with linear ramps in between, and computes every ramped value from the tick's
/// start, so its output does not depend on how the caller splits blocks.
struct AudioVoice {
    var isCustom = false
    /// Frames to wait, within the current block, before the first sample.
    var delay = 0
    var shape: AudioShape
    var baseVolume = 1.0, basePitch = 0.0, basePan = 0.0, baseBrightness = 1.0
    /// Pattern time of the event's start, and event-local pattern seconds at the current tick's end.
    var eventTime = 0.0
    var tickEndTime = 0.0
    var tickIndex = 0
    var tickLength = 0
    var finishing = false
    /// Left and right gains: at the tick's start, its end, per-sample step.
    var leftStart = 0.0, leftTarget = 0.0, leftStep = 0.0
    var rightStart = 0.0, rightTarget = 0.0, rightStep = 0.0
    /// Fade-out when cut (restart, seek, pause, stop).
    var cutRemaining = 0
    var cutTotal = 0
    var isCut: Bool { cutTotal > 0 }

    // Tone: carrier rotation, and the fundamental's and harmonics' weights (ramped).
    var sinPhase = 0.0, cosPhase = 1.0
    var rotSin = 0.0, rotCos = 1.0
    var fundamentalStart = 1.0, fundamentalTarget = 1.0, fundamentalStep = 0.0
    var harmonicsStart = 0.0, harmonicsTarget = 0.0, harmonicsStep = 0.0

    // Sound file: samples, position in frames, step per output sample, low-pass state.
    var samples: UnsafePointer<Float>?
    var frameCount = 0
    var isStereo = false
    var clipRate = 48_000.0
    var loops = false
    var position = 0.0
    var increment = 0.0
    var filter = 1.0
    var lowLeft = 0.0, lowRight = 0.0

    init() {
        shape = AudioShape(empty: ())
    }

    /// An audio event starting `delay` frames into the block, `elapsed` seconds into it.
    init(_ event: CompiledPattern.AudioEvent, shape: AudioShape, clip: AudioClip?, delay: Int, elapsed: Double, speed: Double) {
        self.shape = shape
        isCustom = event.isCustom
        self.delay = delay
        baseVolume = event.volume
        basePitch = event.pitch
        basePan = event.pan
        baseBrightness = event.brightness
        eventTime = event.time
        tickEndTime = elapsed
        if let clip {
            samples = UnsafePointer(clip.samples.baseAddress)
            frameCount = clip.frameCount
            isStereo = clip.channelCount == 2
            clipRate = clip.sampleRate
            loops = event.loops && event.duration > 0
            position = elapsed * speed * clip.sampleRate
            if loops && frameCount > 0 { position = position.truncatingRemainder(dividingBy: Double(frameCount)) }
        }
    }

    /// Starts fading the voice out over `frames`.
    mutating func cut(over frames: Int) {
        cutTotal = frames
        cutRemaining = frames
    }

    /// Adds the voice's next samples into `left`/`right[0..<frames]`; returns true when it has ended.
    @inline(__always)
    mutating func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int, synth: PatternSynth) -> Bool {
        let start = min(delay, frames)
        delay -= start
        guard start < frames else { return false }
        var j = start
        while j < frames {
            if tickIndex == tickLength {
                if finishing { return true }
                beginTick(synth: synth)
            }
            let n = min(tickLength - tickIndex, frames - j)
            let ended: Bool
            if !isCustom {
                renderTone(left: left + j, right: right + j, count: n)
                ended = false
            } else if isStereo {
                ended = renderFile(left: left + j, right: right + j, count: n, stereo: true)
            } else {
                ended = renderFile(left: left + j, right: right + j, count: n, stereo: false)
            }
            if ended { return true }
            if cutTotal > 0 {
                cutRemaining -= n
                if cutRemaining <= 0 { return true }
            }
            tickIndex += n
            j += n
            if tickIndex == tickLength && finishing { return true }
        }
        return false
    }

    /// The fade-out factor `k` samples into the current run (1 when not cut).
    @inline(__always)
    private func fade(_ k: Int) -> Double {
        cutTotal > 0 ? Double(max(0, cutRemaining - k)) / Double(cutTotal) : 1
    }

    private mutating func renderTone(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count n: Int) {
        let first = tickIndex + 1
        var s = sinPhase
        var c = cosPhase
        let rs = rotSin
        let rc = rotCos
        for k in 0..<n {
            let step = Double(first + k)
            let a = fundamentalStart + fundamentalStep * step
            let b = harmonicsStart + harmonicsStep * step
            // Harmonics 2–4 from the carrier's (sin, cos) by the angle-sum identities.
            let s2 = 2 * s * c
            let c2 = c * c - s * s
            let s3 = s * c2 + c * s2
            let s4 = 2 * s2 * c2
            let y = (a * s + b * (s2 / 2 + s3 / 3 + s4 / 4)) * fade(k)
            left[k] += Float((leftStart + leftStep * step) * y)
            right[k] += Float((rightStart + rightStep * step) * y)
            let ns = s * rc + c * rs
            c = c * rc - s * rs
            s = ns
        }
        sinPhase = s
        cosPhase = c
    }

    /// Renders a file's samples; returns true when a file that does not loop has run out.
    @inline(__always)
    private mutating func renderFile(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count n: Int, stereo: Bool) -> Bool {
        guard let samples, frameCount > 0 else { return true }
        let first = tickIndex + 1
        let frames = frameCount
        let total = Double(frameCount)
        let a = filter
        var p = position
        var lowL = lowLeft
        var lowR = lowRight
        for k in 0..<n {
            guard p < total else {
                position = p
                lowLeft = lowL
                lowRight = lowR
                return true
            }
            let i = Int(p)
            let f = p - Double(i)
            // The sample after the last is the first when looping, silence otherwise.
            let next = i + 1 < frames ? i + 1 : (loops ? 0 : -1)
            let step = Double(first + k)
            let fadeK = fade(k)
            if stereo {
                let l0 = Double(samples[2 * i])
                let r0 = Double(samples[2 * i + 1])
                let l1 = next >= 0 ? Double(samples[2 * next]) : 0
                let r1 = next >= 0 ? Double(samples[2 * next + 1]) : 0
                lowL += a * (l0 + (l1 - l0) * f - lowL)
                lowR += a * (r0 + (r1 - r0) * f - lowR)
            } else {
                let x0 = Double(samples[i])
                let x1 = next >= 0 ? Double(samples[next]) : 0
                lowL += a * (x0 + (x1 - x0) * f - lowL)
                lowR = lowL
            }
            left[k] += Float((leftStart + leftStep * step) * fadeK * lowL)
            right[k] += Float((rightStart + rightStep * step) * fadeK * lowR)
            p += increment
            if loops && p >= total {
                p -= total
                if p >= total { p = p.truncatingRemainder(dividingBy: total) }
            }
        }
        position = p
        lowLeft = lowL
        lowRight = lowR
        return false
    }

    /// Starts a control tick: evaluates level, volume, pan, pitch and brightness at its end,
    /// and sets linear ramps across it.
    private mutating func beginTick(synth: PatternSynth) {
        let length = synth.tickFrames
        tickEndTime += synth.tickSeconds
        let time = eventTime + tickEndTime
        let volume = HapticControl.volume.apply(synth.control(.volume, at: time), to: baseVolume)
        let pan = HapticControl.pan.apply(synth.control(.pan, at: time), to: basePan)
        let pitch = HapticControl.pitch.apply(synth.control(.pitch, at: time), to: basePitch)
        let brightness = HapticControl.brightness.apply(synth.control(.brightness, at: time), to: baseBrightness)
        var level = 0.0
        if tickEndTime >= shape.end {
            finishing = true
        } else {
            level = shape.level(at: tickEndTime) * volume
        }
        let (panLeft, panRight) = AudioTimbre.panGains(pan)
        leftStart = leftTarget
        rightStart = rightTarget
        if isCustom {
            if isStereo {
                leftTarget = level * min(1, 2.0.squareRoot() * panLeft)
                rightTarget = level * min(1, 2.0.squareRoot() * panRight)
            } else {
                leftTarget = level * panLeft
                rightTarget = level * panRight
            }
            increment = clipRate * AudioTimbre.speed(pitch: pitch) * synth.rate / synth.sampleRate
            filter = AudioTimbre.lowPassCoefficient(brightness: brightness, sampleRate: synth.sampleRate)
        } else {
            leftTarget = AudioTimbre.toneLevel * level * panLeft
            rightTarget = AudioTimbre.toneLevel * level * panRight
            let scale = 1 / (1 + AudioTimbre.harmonicNormalisation * brightness)
            fundamentalStart = fundamentalTarget
            harmonicsStart = harmonicsTarget
            fundamentalTarget = scale
            harmonicsTarget = brightness * scale
            if tickIndex == 0 && tickLength == 0 {
                // First tick: the weights start where they are (the gains ramp from zero).
                fundamentalStart = fundamentalTarget
                harmonicsStart = harmonicsTarget
            }
            fundamentalStep = (fundamentalTarget - fundamentalStart) / Double(length)
            harmonicsStep = (harmonicsTarget - harmonicsStart) / Double(length)
            let omega = 2 * Double.pi * AudioTimbre.baseFrequency * AudioTimbre.speed(pitch: pitch) / synth.sampleRate
            rotSin = sin(omega)
            rotCos = cos(omega)
            let norm = 1 / (sinPhase * sinPhase + cosPhase * cosPhase).squareRoot()
            sinPhase *= norm
            cosPhase *= norm
        }
        leftStep = (leftTarget - leftStart) / Double(length)
        rightStep = (rightTarget - rightStart) / Double(length)
        tickLength = length
        tickIndex = 0
    }
}

extension AudioShape {
    /// A placeholder for idle pool entries.
    init(empty: Void) {
        envelope = ContinuousEnvelope(attack: 0.005, decay: 0.005, release: 0.005, duration: 0, sustained: true)
        usesEnvelope = true
        length = 0
        soundEnd = 0
        fadesAtLength = false
    }
}
