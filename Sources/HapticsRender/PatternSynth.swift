import FoundationEssentials
import HapticsCore

/// Synthesizes one playing pattern, block by block: haptic events into a mono drive signal and,
/// when the pattern was compiled with audio, audio events into a stereo pair rendered
/// alongside it (see ``AudioTimbre``). Pause, seek, loops, rate and stop act on both alike.
///
/// This is the one rendering core: offline rendering runs it from frame 0 to the end, the
/// real-time engine runs one per player and mixes them. It allocates only at creation;
/// `render` is allocation-free, lock-free and does no I/O. Its output depends only on the
/// pattern, the profile, the sample rate and the commands it was given at which frames, not on
/// how time is split into blocks.
package final class PatternSynth {
    package let pattern: CompiledPattern
    package let profile: ActuatorProfile
    package let sampleRate: Double
    /// The pattern's sound files at ``sampleRate`` (resampled here, not on the audio thread).
    let clips: [AudioClip]

    /// Whether any voice sounded in the last block rendered: when not, nothing was added to
    /// the outputs, and a caller may skip mixing that block.
    @exclusivity(unchecked) package private(set) var lastBlockSounded = false
    /// Frames rendered since creation.
    ///
    /// This and the other positions and counts below are read and written on every block by
    /// the synth's one thread (its owner hands it over, never shares it): their accesses are
    /// not checked at run time, which cost more than the block's bookkeeping.
    @exclusivity(unchecked) package private(set) var frame = 0
    /// Pattern time at `anchorFrame`, and how fast pattern time runs.
    @exclusivity(unchecked) private var anchorFrame = 0
    @exclusivity(unchecked) private var anchorTime = 0.0
    /// Read by every voice on every control tick: a dynamically checked access there cost
    /// as much as the tick's arithmetic. Only the synth's owner, on one thread, changes it.
    @exclusivity(unchecked) package private(set) var rate = 1.0 {
        didSet { tickSeconds = Double(tickFrames) * rate / sampleRate }
    }
    /// Pattern seconds a control tick covers at ``rate``: `tickFrames · rate / sampleRate`,
    /// which every voice adds on every tick, kept here so that none divides for it.
    @exclusivity(unchecked) private(set) var tickSeconds: Double
    /// Whether pattern time advances (a paused pattern holds its time; voices keep sounding
    /// out only while fading).
    @exclusivity(unchecked) package private(set) var isPaused = false
    /// Next event to start.
    @exclusivity(unchecked) private var nextEvent = 0
    /// Next audio event to start.
    @exclusivity(unchecked) private var nextAudioEvent = 0

    /// Whether haptic events sound, and whether audio events do (when an audio pair is
    /// rendered); events of a family that does not sound pass silently. Set by the owner
    /// between plays (the engine's `playsHapticsOnly` and `playsAudioOnly`).
    package var playsHaptics = true
    package var playsAudio = true

    /// For each control, the pattern element its last read found: where the next read starts.
    private let controlHints: UnsafeMutablePointer<Int>
    private let voices: UnsafeMutableBufferPointer<Voice>
    @exclusivity(unchecked) private var activeVoices = 0
    private let audioVoices: UnsafeMutableBufferPointer<AudioVoice>
    @exclusivity(unchecked) private var activeAudioVoices = 0
    /// Audio voices the pool holds (audio events that overlap beyond it are dropped).
    package static let audioVoiceCapacity = 32
    /// Events that found no free voice (the pool holds ``voiceCapacity``).
    @exclusivity(unchecked) package private(set) var droppedEvents = 0
    package var voiceCapacity: Int { voices.count }

    /// Control changes sent while playing.
    package let runtimeControls = RuntimeControls()

    /// Samples per control tick (about 1 ms): the grid on which continuous voices update
    /// amplitude and frequency, ramping linearly in between so no change clicks.
    let tickFrames: Int
    /// `1 / tickFrames`, and the carrier's step per sample per hertz (`2π / sampleRate`):
    /// multiplying by them is what every tick of every voice would otherwise divide by.
    let tickReciprocal: Double
    let radiansPerHertz: Double
    /// Frames over which a voice fades when cut (restart, seek, stop).
    let cutFrames: Int

    /// Where a loop wraps when no loop end is set: the pattern's duration, or the end of its
    /// last sound if that is later (a lone transient has duration 0 but lasts its burst), and
    /// never less than a control tick, so a loop always moves forward.
    package let naturalLoopEnd: Double

    /// Shortest transient, in seconds: 0 for actuators; 40 ms for rumble motors, which need
    /// that long to spin up.
    let minimumTransientLength: Double

    /// Creates a synth positioned at the pattern's start.
    package init(pattern: CompiledPattern, profile: ActuatorProfile, sampleRate: Double, voiceCapacity: Int = 128, minimumTransientLength: Double = 0) {
        self.pattern = pattern
        clips = pattern.clips.map { $0.resampled(to: sampleRate) }
        self.minimumTransientLength = minimumTransientLength
        self.profile = profile
        self.sampleRate = sampleRate
        tickFrames = max(1, Int((sampleRate / 1000).rounded()))
        tickReciprocal = 1 / Double(tickFrames)
        radiansPerHertz = 2 * Double.pi / sampleRate
        tickSeconds = Double(tickFrames) / sampleRate
        naturalLoopEnd = max(pattern.duration, pattern.soundingEnd(profile: profile), 0.001)
        cutFrames = max(1, Int((sampleRate * 0.002).rounded()))
        controlHints = .allocate(capacity: HapticControl.allCases.count)
        controlHints.initialize(repeating: -1, count: HapticControl.allCases.count)
        voices = .allocate(capacity: voiceCapacity)
        voices.initialize(repeating: Voice())
        audioVoices = .allocate(capacity: pattern.audioEvents.isEmpty ? 1 : Self.audioVoiceCapacity)
        audioVoices.initialize(repeating: AudioVoice())
    }

    deinit {
        controlHints.deallocate()
        voices.deinitialize()
        voices.deallocate()
        audioVoices.deinitialize()
        audioVoices.deallocate()
    }

    /// Whether the pattern has audio events to render (it was compiled with audio).
    package var hasAudio: Bool { !pattern.audioEvents.isEmpty }

    /// Pattern time at the next frame to render.
    package var patternTime: Double { time(atFrame: frame) }

    @inline(__always)
    private func time(atFrame f: Int) -> Double {
        isPaused ? anchorTime : anchorTime + Double(f - anchorFrame) * rate / sampleRate
    }

    /// Whether every event has played out and the pattern's duration has passed.
    package var isFinished: Bool {
        nextEvent >= pattern.events.count && activeVoices == 0
            && nextAudioEvent >= pattern.audioEvents.count && activeAudioVoices == 0
            && patternTime >= pattern.duration
    }

    /// Whether anything is sounding now.
    package var isSounding: Bool { activeVoices > 0 || activeAudioVoices > 0 }

    /// Moves to `time` (the start when 0): sounding voices fade out over 2 ms, events before
    /// `time` are skipped, continuous events in progress at `time` resume mid-envelope.
    /// While paused only the position moves; what is in progress there starts on resume.
    package func seek(to time: Double) {
        runtimeControls.rebase(from: patternTime, to: max(0, time))
        fadeOutVoices()
        anchorFrame = frame
        anchorTime = max(0, time)
        nextEvent = 0
        let events = pattern.events
        while nextEvent < events.count && events[nextEvent].time < anchorTime {
            let event = events[nextEvent]
            if !event.isTransient && !isPaused {
                let envelope = envelopeForEvent(event)
                if event.time + envelope.end > anchorTime {
                    startContinuous(event, envelope: envelope, offset: 0, elapsed: anchorTime - event.time)
                }
            }
            nextEvent += 1
        }
        nextAudioEvent = 0
        let audioEvents = pattern.audioEvents
        while nextAudioEvent < audioEvents.count && audioEvents[nextAudioEvent].time < anchorTime {
            let event = audioEvents[nextAudioEvent]
            if !isPaused && playsAudio {
                startAudio(event, offset: 0, elapsed: anchorTime - event.time)
            }
            nextAudioEvent += 1
        }
    }

    /// Changes how fast pattern time runs (> 0), from the next frame on.
    /// Rates are held to 1/1000…1000: beyond them pattern seconds convert to frame counts
    /// that overflow `Int` (a trap on the audio thread), and no haptic use needs them.
    package func setRate(_ newRate: Double) {
        guard newRate > 0, newRate.isFinite else { return }
        anchorTime = patternTime
        anchorFrame = frame
        rate = min(max(newRate, Self.rateRange.lowerBound), Self.rateRange.upperBound)
    }

    /// The playback rates a synth runs at.
    package static let rateRange = 0.001...1000.0

    /// Holds pattern time (sounding voices fade out) or lets it run again.
    /// Pausing fades every voice out, so resuming must start again the continuous events in
    /// progress at the paused time (mid-envelope, ramping up over a control tick); transients
    /// before it have played.
    package func setPaused(_ paused: Bool) {
        guard paused != isPaused else { return }
        anchorTime = patternTime
        anchorFrame = frame
        isPaused = paused
        if paused { fadeOutVoices() } else { seek(to: anchorTime) }
    }

    /// Drops every voice at once: only for when the output is already silent (the engine's
    /// fade-out has finished), so nothing of the old sound is left for the next start.
    package func silence() {
        activeVoices = 0
        activeAudioVoices = 0
    }

    /// Ends the pattern: sounding voices fade out over 2 ms and no further event starts (a
    /// stop in the same block as the start would otherwise fade nothing, then start them).
    package func stop() {
        fadeOutVoices()
        nextEvent = pattern.events.count
        nextAudioEvent = pattern.audioEvents.count
    }

    /// Fades every sounding voice out over 2 ms.
    package func fadeOutVoices() {
        for i in 0..<activeVoices where !voices[i].isCut {
            voices[i].cut(over: cutFrames)
        }
        for i in 0..<activeAudioVoices where !audioVoices[i].isCut {
            audioVoices[i].cut(over: cutFrames)
        }
    }

    /// Adds this pattern's next `frames` haptic samples into `output`; audio events pass
    /// silently.
    package func render(adding output: UnsafeMutablePointer<Float>, frames: Int) {
        render(adding: output, audioLeft: nil, audioRight: nil, frames: frames)
    }

    /// Adds this pattern's next `frames` samples: the haptic signal into `haptic`, audio
    /// events into `audioLeft` and `audioRight`. Without an audio pair (or with
    /// ``playsAudio`` false) audio events pass silently; with ``playsHaptics`` false, haptic
    /// events do. ``lastBlockSounded`` then tells whether anything was added.
    package func render(
        adding haptic: UnsafeMutablePointer<Float>, audioLeft: UnsafeMutablePointer<Float>?, audioRight: UnsafeMutablePointer<Float>?, frames: Int
    ) {
        let blockEnd = frame + frames
        if !isPaused {
            startEvents(before: blockEnd)
            startAudioEvents(before: blockEnd, sounding: audioLeft != nil && audioRight != nil)
        }
        lastBlockSounded = activeVoices > 0 || activeAudioVoices > 0
        var i = 0
        while i < activeVoices {
            let finished = voices[i].render(into: haptic, frames: frames, synth: self)
            if finished {
                activeVoices -= 1
                voices[i] = voices[activeVoices]
            } else {
                i += 1
            }
        }
        if let audioLeft, let audioRight {
            var k = 0
            while k < activeAudioVoices {
                let finished = audioVoices[k].render(left: audioLeft, right: audioRight, frames: frames, synth: self)
                if finished {
                    activeAudioVoices -= 1
                    audioVoices[k] = audioVoices[activeAudioVoices]
                } else {
                    k += 1
                }
            }
        } else {
            activeAudioVoices = 0
        }
        frame = blockEnd
    }

    /// Adds the sounding voices' motor levels (``RumbleRenderer``'s mapping): each voice's
    /// amplitude split by its sharpness, `strong += a·(1 − s)`, `weak += a·s`.
    package func addMotorLevels(strong: inout Double, weak: inout Double) {
        for i in 0..<activeVoices {
            let a = voices[i].motorAmplitude
            let s = voices[i].sharpness
            strong += a * (1 - s)
            weak += a * s
        }
    }

    // MARK: Events

    private func startEvents(before blockEnd: Int) {
        let events = pattern.events
        let framesPerSecond = sampleRate / rate
        while nextEvent < events.count {
            let event = events[nextEvent]
            let onset = anchorFrame + Int(((event.time - anchorTime) * framesPerSecond).rounded())
            guard onset < blockEnd else { return }
            nextEvent += 1
            guard playsHaptics else { continue }
            let offset = max(0, onset - frame)
            if event.isTransient {
                startTransient(event, offset: offset)
            } else {
                startContinuous(event, envelope: envelopeForEvent(event), offset: offset, elapsed: 0)
            }
        }
    }

    /// Moves a synth on which nothing sounds to `target` without rendering, passing over the
    /// events that start before it: from there it renders exactly what a synth that rendered
    /// every frame up to `target` would, when ``silentFrame(near:within:)`` chose the frame.
    /// For a render split in two parts at a silence; haptic events only.
    package func skipSilence(to target: Int) {
        precondition(activeVoices == 0 && activeAudioVoices == 0 && !isPaused && target >= frame && pattern.audioEvents.isEmpty)
        let events = pattern.events
        let framesPerSecond = sampleRate / rate
        while nextEvent < events.count {
            let onset = anchorFrame + Int(((events[nextEvent].time - anchorTime) * framesPerSecond).rounded())
            guard onset < target else { break }
            nextEvent += 1
        }
        frame = target
    }

    /// A frame in `range`, as near `target` as can be, before which every voice of a render
    /// from frame 0 has ended and left the pool, and from which no voice started before it
    /// sounds: where ``skipSilence(to:)`` may take a second synth. `nil` when the pattern
    /// never falls silent there.
    ///
    /// Each event is counted as sounding from its onset to a bound on its end: a transient's
    /// burst, a continuous event's envelope plus two control ticks (it ramps to zero over the
    /// tick after its end), plus a block (a voice leaves the pool at the end of the block in
    /// which it ends), so the pool at the frame is empty as it would be in the whole render.
    package func silentFrame(near target: Int, within range: ClosedRange<Int>) -> Int? {
        let framesPerSecond = sampleRate / rate
        let slack = 2 * tickFrames + HapticRenderer.blockFrames
        var reach = Int.min  // the frame by which every event so far has ended
        var best: Int?
        func consider(_ low: Int, _ high: Int) {
            // Silence from `low` up to and including `high` (the next event's onset).
            let lower = max(low, range.lowerBound)
            let upper = min(high, range.upperBound)
            guard lower <= upper else { return }
            let frame = min(max(target, lower), upper)
            if best == nil || abs(frame - target) < abs(best! - target) { best = frame }
        }
        for event in pattern.events {
            let onset = anchorFrame + Int(((event.time - anchorTime) * framesPerSecond).rounded())
            if reach != Int.min { consider(reach, onset) }
            let length: Double
            if event.isTransient {
                let burst = TransientShape.length(frequency: profile.frequency(sharpness: event.sharpness))
                length = max(burst, minimumTransientLength, TransientShape.attack) * sampleRate
            } else {
                let envelope = ContinuousEnvelope(
                    event,
                    attackControl: pattern.control(.attack, at: event.time),
                    decayControl: pattern.control(.decay, at: event.time),
                    releaseControl: pattern.control(.release, at: event.time))
                length = envelope.end * framesPerSecond
            }
            guard length.isFinite, length < Double(Int.max / 4) else { return nil }
            reach = max(reach, onset + Int(length.rounded(.up)) + slack)
        }
        if reach != Int.min { consider(reach, range.upperBound) }
        return best
    }

    private func startAudioEvents(before blockEnd: Int, sounding: Bool) {
        let events = pattern.audioEvents
        let framesPerSecond = sampleRate / rate
        while nextAudioEvent < events.count {
            let event = events[nextAudioEvent]
            let onset = anchorFrame + Int(((event.time - anchorTime) * framesPerSecond).rounded())
            guard onset < blockEnd else { return }
            nextAudioEvent += 1
            guard sounding && playsAudio else { continue }
            startAudio(event, offset: max(0, onset - frame), elapsed: 0)
        }
    }

    private func startAudio(_ event: CompiledPattern.AudioEvent, offset: Int, elapsed: Double) {
        guard activeAudioVoices < audioVoices.count else {
            droppedEvents += 1
            return
        }
        let shape = AudioShape(event, pattern: pattern, runtime: runtimeControls)
        guard shape.end > elapsed else { return }
        let clip = event.clip >= 0 ? clips[event.clip] : nil
        if event.isCustom && clip == nil { return }
        let pitch = HapticControl.pitch.apply(control(.pitch, at: event.time + elapsed), to: event.pitch)
        audioVoices[activeAudioVoices] = AudioVoice(
            event, shape: shape, clip: clip, delay: offset, elapsed: elapsed,
            speed: AudioTimbre.speed(pitch: pitch))
        activeAudioVoices += 1
    }

    private func envelopeForEvent(_ event: CompiledPattern.Event) -> ContinuousEnvelope {
        ContinuousEnvelope(
            event,
            attackControl: control(.attack, at: event.time),
            decayControl: control(.decay, at: event.time),
            releaseControl: control(.release, at: event.time))
    }

    private func startTransient(_ event: CompiledPattern.Event, offset: Int) {
        guard activeVoices < voices.count else {
            droppedEvents += 1
            return
        }
        let intensity = HapticControl.intensity.apply(control(.intensity, at: event.time), to: event.intensity)
        let amplitude = profile.amplitude(intensity: intensity)
        guard amplitude > 0 else { return }
        let frequency = profile.frequency(sharpness: event.sharpness)
        voices[activeVoices] = Voice(
            transientWithPeak: amplitude, frequency: frequency, sharpness: event.sharpness,
            sampleRate: sampleRate, delay: offset, minimumLength: minimumTransientLength)
        activeVoices += 1
    }

    private func startContinuous(_ event: CompiledPattern.Event, envelope: ContinuousEnvelope, offset: Int, elapsed: Double) {
        guard activeVoices < voices.count else {
            droppedEvents += 1
            return
        }
        guard envelope.end > elapsed else { return }
        voices[activeVoices] = Voice(continuous: event, envelope: envelope, delay: offset, elapsed: elapsed)
        activeVoices += 1
    }

    // MARK: Controls

    /// The value of a control at a pattern time: the latest-starting of the pattern's own
    /// elements and those sent while playing (these win ties).
    @inline(__always)
    package func control(_ control: HapticControl, at time: Double) -> Double {
        let own = pattern.controls.withUnsafeBufferPointer { $0[control.rawValue].value(at: time, hint: &controlHints[control.rawValue]) }
        return Self.combine(own, runtimeControls.value(of: control, at: time), default: control.defaultValue)
    }

    /// The value of a control at a pattern time, from a pattern's elements and those sent.
    @inline(__always)
    static func control(_ control: HapticControl, at time: Double, pattern: CompiledPattern, runtime: RuntimeControls) -> Double {
        // Read in place: subscripting the array would copy the timeline, retaining and
        // releasing its three arrays on every control tick of every voice.
        let own = pattern.controls.withUnsafeBufferPointer { $0[control.rawValue].value(at: time) }
        return combine(own, runtime.value(of: control, at: time), default: control.defaultValue)
    }

    /// The pattern's value and the one sent: the latest-starting wins, the one sent on a tie.
    @inline(__always)
    private static func combine(_ own: (value: Double, since: Double)?, _ sent: (value: Double, since: Double)?, default value: Double) -> Double {
        switch (own, sent) {
        case (nil, nil): return value
        case let (own?, nil): return own.value
        case let (nil, sent?): return sent.value
        case let (own?, sent?): return sent.since >= own.since ? sent.value : own.value
        }
    }

    /// Pattern time of a frame `offset` frames into the current block.
    @inline(__always)
    func patternTime(offset: Int) -> Double { time(atFrame: frame + offset) }
}

extension HapticControl {
    /// Applies a control value to an event value: intensity and volume multiply, the others
    /// add; the result is clamped to the event parameter's range (−1…1 for pan and pitch,
    /// 0…1 otherwise).
    @inline(__always)
    package func apply(_ control: Double, to value: Double) -> Double {
        let v = multiplies ? value * control : value + control
        let lower = self == .pan || self == .pitch ? -1.0 : 0.0
        return min(max(v, lower), 1)
    }
}
