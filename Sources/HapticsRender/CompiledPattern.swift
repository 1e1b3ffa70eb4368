import HapticsCore

/// A pattern prepared for synthesis: haptic events sorted by time with every parameter
/// resolved, audio events likewise (when compiled with audio, with their sound files loaded),
/// and one timeline per dynamic parameter. Immutable and shareable between threads; compile
/// once, play many times.
package struct CompiledPattern: Sendable {
    /// A haptic event with its parameters resolved (event values, not yet dynamic controls).
    struct Event: Sendable {
        var isTransient: Bool
        var time: Double
        var duration: Double
        var intensity: Double
        var sharpness: Double
        /// Envelope parameters, 0…1 (dynamic controls are added at the event's start).
        var attack: Double
        var decay: Double
        var release: Double
        var sustained: Bool
    }

    /// An audio event with its parameters resolved (event values, not yet dynamic controls).
    struct AudioEvent: Sendable {
        /// `AudioCustom` (a sound file) rather than `AudioContinuous` (a tone).
        var isCustom: Bool
        var time: Double
        var duration: Double
        var volume: Double
        var pitch: Double
        var pan: Double
        var brightness: Double
        var attack: Double
        var decay: Double
        var release: Double
        var sustained: Bool
        /// Whether the envelope shapes the sound (always for tones; for files,
        /// `EventWaveformUseVolumeEnvelope`, default true).
        var usesEnvelope: Bool
        /// `EventWaveformLoopEnabled`: the file repeats for the event's duration.
        var loops: Bool
        /// Index into ``CompiledPattern/clips``; -1 when the file could not be loaded (silent).
        var clip: Int
    }

    /// The pattern's duration as Core Haptics computes it.
    package let duration: Double
    /// Haptic events sorted by time (stable).
    let events: [Event]
    /// Audio events sorted by time (stable); empty unless compiled with audio.
    let audioEvents: [AudioEvent]
    /// The decoded sound files audio events play, each loaded once.
    let clips: [AudioClip]
    /// One timeline per ``HapticControl``.
    let controls: [ControlTimeline]
    /// Audio events the pattern holds (rendered only when compiled with audio).
    package let audioEventCount: Int
    /// Whether audio events were compiled (and their sound files loaded).
    package let includesAudio: Bool
    /// Sound files that could not be loaded, one per file: their events stay silent.
    package let soundFileProblems: [SoundFileError]

    /// Prepares a pattern for synthesis.
    ///
    /// - Parameters:
    ///   - includingAudio: also prepare audio events, reading every `AudioCustom` event's
    ///     sound file now (never later, on an audio thread). A file that is missing, too large
    ///     or malformed is reported in ``soundFileProblems`` and its events are silent.
    ///   - soundFileByteLimit: the largest sound file read.
    package init(_ pattern: HapticPattern, includingAudio: Bool = false, soundFileByteLimit: Int = AudioClip.defaultByteLimit) {
        // Whoever calls, nothing past an hour or non-finite reaches a frame count (the engine
        // and CoreHaptics refuse such patterns before this; the renderers take what they get).
        let pattern = pattern.boundedForSynthesis()
        duration = pattern.duration
        includesAudio = includingAudio
        var events: [Event] = []
        var audioEvents: [AudioEvent] = []
        var clips: [AudioClip] = []
        var clipIndex: [String: Int] = [:]
        var problems: [SoundFileError] = []
        var audio = 0
        for event in pattern.events {
            guard event.kind.isHaptic else {
                audio += 1
                guard includingAudio else { continue }
                var clip = -1
                if event.kind == .audioCustom, let resource = event.audio {
                    let path = resource.resolvedPath
                    if let known = clipIndex[path] {
                        clip = known
                    } else {
                        do {
                            clips.append(try AudioClip.load(path: path, byteLimit: soundFileByteLimit))
                            clip = clips.count - 1
                        } catch {
                            problems.append(error)
                        }
                        clipIndex[path] = clip
                    }
                }
                audioEvents.append(
                    AudioEvent(
                        isCustom: event.kind == .audioCustom,
                        time: max(0, event.relativeTime),
                        duration: max(0, event.duration),
                        volume: event.value(of: .audioVolume),
                        pitch: event.value(of: .audioPitch),
                        pan: event.value(of: .audioPan),
                        brightness: event.value(of: .audioBrightness),
                        attack: event.value(of: .attackTime),
                        decay: event.value(of: .decayTime),
                        release: event.value(of: .releaseTime),
                        sustained: event.isSustained,
                        usesEnvelope: event.kind == .audioContinuous || (event.audio?.usesVolumeEnvelope ?? true),
                        loops: event.kind == .audioCustom && (event.audio?.loopEnabled ?? false),
                        clip: clip))
                continue
            }
            events.append(
                Event(
                    isTransient: event.kind == .transient,
                    time: max(0, event.relativeTime),
                    duration: max(0, event.duration),
                    intensity: event.value(of: .hapticIntensity),
                    sharpness: event.value(of: .hapticSharpness),
                    attack: event.value(of: .attackTime),
                    decay: event.value(of: .decayTime),
                    release: event.value(of: .releaseTime),
                    sustained: event.isSustained))
        }
        // Stable: equal times keep pattern order.
        self.events = stablySorted(events, by: \.time)
        self.audioEvents = stablySorted(audioEvents, by: \.time)
        self.clips = clips
        soundFileProblems = problems
        audioEventCount = audio

        var controls = Array(repeating: ControlTimeline(), count: HapticControl.allCases.count)
        for parameter in pattern.parameters {
            guard let control = HapticControl(parameter.id) else { continue }
            controls[control.rawValue].addStep(at: parameter.relativeTime, value: parameter.value)
        }
        for curve in pattern.curves {
            guard let control = HapticControl(curve.id) else { continue }
            controls[control.rawValue].addCurve(at: curve.relativeTime, points: curve.controlPoints)
        }
        for index in controls.indices { controls[index].finish() }
        self.controls = controls
    }

    /// The value of a control at a pattern time, from the pattern's own elements.
    package func control(_ control: HapticControl, at time: Double) -> Double {
        controls[control.rawValue].value(at: time)?.value ?? control.defaultValue
    }

    /// Number of haptic events.
    package var hapticEventCount: Int { events.count }

    /// When the last event falls silent, in pattern time, for a profile: transients last
    /// their burst, continuous events their envelope, audio events (when compiled) theirs or
    /// their sound file's length.
    package func soundingEnd(profile: ActuatorProfile) -> Double {
        var end = hapticSoundingEnd(profile: profile)
        // A pitch control could slow a file down to half speed: allow for it.
        let slowest = controls[HapticControl.pitch.rawValue].isEmpty ? nil : 0.5
        for event in audioEvents {
            let shape = AudioShape(event, pattern: self, speed: slowest)
            end = max(end, event.time + shape.end)
        }
        return end
    }

    /// When the last haptic event falls silent.
    func hapticSoundingEnd(profile: ActuatorProfile) -> Double {
        var end = 0.0
        for event in events {
            if event.isTransient {
                end = max(end, event.time + TransientShape.length(frequency: profile.frequency(sharpness: event.sharpness)))
            } else {
                let envelope = ContinuousEnvelope(
                    event,
                    attackControl: control(.attack, at: event.time),
                    decayControl: control(.decay, at: event.time),
                    releaseControl: control(.release, at: event.time))
                end = max(end, event.time + envelope.end)
            }
        }
        return end
    }
}

/// `elements` ordered by `key`, equal keys in their given order. Authored patterns are mostly
/// in order already, which one pass finds; otherwise the indices are sorted and the elements
/// gathered once: sorting the elements themselves, paired with their offsets, moved every
/// 72-byte event a dozen times, three times the instructions (1,600 an event; most of
/// compiling a long pattern).
func stablySorted<Element>(_ elements: [Element], by key: (Element) -> Double) -> [Element] {
    let keys = elements.map(key)
    if zip(keys, keys.dropFirst()).allSatisfy({ $0 <= $1 }) { return elements }
    let order = keys.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
    return order.map { elements[$0] }
}
