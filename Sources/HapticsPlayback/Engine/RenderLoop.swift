import HapticsRender
import Synchronization
import HapticsSystem

// The engine's threads, and what each may call (the one table; docs/ARCHITECTURE.md repeats
// it). Like an audio callback's contract: the audio thread may do only what is listed for it,
// and nothing of `RenderLoop` is touched by two threads at once.
//
// | thread                              | may call                                                  |
// |-------------------------------------|-----------------------------------------------------------|
// | any (API, notification, signal)     | `EngineMailbox`: `commands.push` (holding the engine's    |
// |                                     | producer lock), `scheduledCommands`, `endNap`,            |
// |                                     | `requestFadeOutAndStop`, `idleTimeoutFrames`,             |
// |                                     | `clippedSamples`, `endErrorRecorded`, `wake.signal`       |
// |                                     | (`endNap` runs `deviceWaitInterrupt`, set before a start) |
// | control side, holding `lifecycle`,  | `RenderLoop`: `configureOutput`, `setFamilies`,           |
// | while no audio thread runs          | `prepareForStart`, `startCount`, `applyWhileStopped`      |
// |                                     | (which posts events: it is their producer then)           |
// | audio thread (`haptics-audio` or    | `RenderLoop`: `renderBlock`, `motorLevels`, `nap`,        |
// | `haptics-rumble`), from its start   | `nap(waitingOn:)` (the device's wait as a nap),           |
// | until it posts `.ended`             | `hasActivePlayers`, `hasFadedOut`, `frame`,               |
// |                                     | `blockFrames`, `stopAllPlayers`; `EngineMailbox`: `post`, |
// |                                     | `setEndError`, `commands.pop` (its one consumer)          |
// | notification thread (`haptics-      | `EngineMailbox`: `events.pop` (its one consumer),         |
// | notify`)                            | `wake.wait`, `takeEndError`; frees what is handed back    |
//
// `RenderLoop` is handed over, never shared: `start()` (holding `lifecycle`) configures it and
// then starts the audio thread, which owns it until it posts `.ended`, its last touch; only
// then may the control side take it back (`stop()` waits for that; a stuck thread keeps it).
// The audio thread allocates nothing, takes no lock and does no I/O but the device's write.

/// The audio thread's state: player slots, commands waiting for their frame, the mix.
///
/// Owned by one thread at a time (see the table above): the audio thread while it runs, the
/// control side holding the engine's lifecycle lock while none does. The other threads reach
/// the audio thread only through ``mailbox``. `renderBlock` allocates nothing, takes no lock
/// and does no I/O.
final class RenderLoop: @unchecked Sendable {
    /// Players that can exist at once on one engine.
    static let slotCount = 128
    /// Commands that can wait for a future frame.
    static let pendingCapacity = 1024
    /// Commands that may be scheduled ahead at once. The rest of the pending list stays free
    /// for commands due now, so scheduling far ahead never delays a `stop()` meant for now.
    static let schedulingLimit = pendingCapacity - 64
    /// What the other threads share with this one, and all they may touch.
    let mailbox = EngineMailbox()

    let sampleRate: Double
    /// Channels of the output the loop currently feeds (set by ``configureOutput``).
    private(set) var channelCount: Int
    /// Largest block ``renderBlock`` takes.
    static let maximumBlock = 4096
    /// Frames per block the audio thread renders (the device's period, capped).
    private(set) var blockFrames = 256
    private let profile: ActuatorProfile
    private let gain: Double
    /// Next frame to render on the engine's timeline.
    private(set) var frame = 0

    /// A player's slot: its synth, which start of the player is playing, and the transport
    /// that drives the synth (the same one `HapticRenderer` drives its synth with).
    private struct Slot {
        var synth: Unmanaged<PatternSynth>?
        var run = 0
        var transport: Transport
        var state: Transport.State { transport.state }

        init(gainStep: Float) { transport = Transport(gainStep: gainStep) }
    }

    private let slots: UnsafeMutablePointer<Slot>
    private let pending: UnsafeMutablePointer<EngineCommand>
    private var pendingCount = 0
    private let mix: UnsafeMutablePointer<Float>
    private let scratch: UnsafeMutablePointer<Float>
    /// The audio events' stereo mix and one synth's audio, beside the haptic ones.
    private let mixLeft: UnsafeMutablePointer<Float>
    private let mixRight: UnsafeMutablePointer<Float>
    private let scratchLeft: UnsafeMutablePointer<Float>
    private let scratchRight: UnsafeMutablePointer<Float>
    /// Whether any synth added audio to the mix this block (else the audio stage is skipped),
    /// and how many frames of the audio mix hold samples from an earlier block.
    private var audioInBlock = false
    private var audioDirtyFrames = 0
    /// Which event families sound (`playsHapticsOnly`, `playsAudioOnly`), set at each start.
    private var playsHaptics = true
    private var playsAudio = true
    /// `isMutedForAudio`, and the audio mix's gain (mute and stop fade).
    private var audioMuted = false
    private var audioGain: GainRamp
    private var interleaved: UnsafeMutablePointer<Float>
    private var output: OutputStage

    /// Per-sample step of gain ramps: 2 ms from 0 to 1 (mute, unmute).
    private let gainStep: Float
    /// Engine-wide gain (mute, fade-out on stop).
    private var masterGain: GainRamp
    /// `isMutedForHaptics`: kept apart from the stop fade, which also targets 0, so a
    /// restarted engine is silent only if it was muted.
    private var engineMuted = false
    private var stopping = false
    /// The fade-out has reached silence: the thread may stop.
    private(set) var hasFadedOut = false

    /// Frames since the last player was active (idleness is reported after the mailbox's
    /// `idleTimeoutFrames`).
    private var idleFrames = 0
    private var reportedIdle = false
    /// How many times the output has started; set only while no audio thread runs.
    private(set) var startCount = 0

    init(profile: ActuatorProfile, sampleRate: Int, gain: Double) {
        self.sampleRate = Double(sampleRate)
        self.profile = profile
        self.gain = gain
        channelCount = profile.channelCount
        output = OutputStage(profile: profile, gain: gain)
        gainStep = 1 / Float(max(1, sampleRate / 500))
        masterGain = GainRamp(step: gainStep)
        audioGain = GainRamp(step: gainStep)
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Slot(gainStep: gainStep), count: Self.slotCount)
        pending = .allocate(capacity: Self.pendingCapacity)
        mix = .allocate(capacity: Self.maximumBlock)
        scratch = .allocate(capacity: Self.maximumBlock)
        mixLeft = .allocate(capacity: Self.maximumBlock)
        mixRight = .allocate(capacity: Self.maximumBlock)
        scratchLeft = .allocate(capacity: Self.maximumBlock)
        scratchRight = .allocate(capacity: Self.maximumBlock)
        mixLeft.initialize(repeating: 0, count: Self.maximumBlock)
        mixRight.initialize(repeating: 0, count: Self.maximumBlock)
        interleaved = .allocate(capacity: Self.maximumBlock * channelCount)
    }

    /// Adapts the output stage to the device the engine opened (control side, holding the
    /// lifecycle lock, while no audio thread runs).
    func configureOutput(channelCount: Int, periodFrames: Int) {
        blockFrames = max(16, min(periodFrames, Self.maximumBlock))
        guard channelCount != self.channelCount else { return }
        var profile = profile
        // The device has another channel count than the profile: copy the haptic signal to
        // every channel, as a mono profile's is on a stereo device.
        profile.channelCount = channelCount
        profile.hapticChannels = Array(0..<channelCount)
        output = OutputStage(profile: profile, gain: gain)
        interleaved.deallocate()
        interleaved = .allocate(capacity: Self.maximumBlock * channelCount)
        self.channelCount = channelCount
    }

    deinit {
        // Not the audio thread (it holds the loop while it runs): free what commands carry.
        while let command = mailbox.commands.pop() { command.releaseResources() }
        for i in 0..<pendingCount { pending[i].releaseResources() }
        for i in 0..<Self.slotCount { slots[i].synth?.release() }
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
        pending.deallocate()
        mix.deallocate()
        scratch.deallocate()
        mixLeft.deallocate()
        mixRight.deallocate()
        scratchLeft.deallocate()
        scratchRight.deallocate()
        interleaved.deallocate()
    }

    /// Chooses which event families sound from the next start on (`playsHapticsOnly`,
    /// `playsAudioOnly`). Control side, holding the lifecycle lock, while no audio thread runs.
    func setFamilies(haptics: Bool, audio: Bool) {
        playsHaptics = haptics
        playsAudio = audio
    }

    /// Re-arms the loop for a new start of the engine's output (control side, holding the
    /// lifecycle lock, just before the audio thread starts).
    func prepareForStart() {
        mailbox.clearStopRequest()
        stopping = false
        hasFadedOut = false
        masterGain.target = engineMuted ? 0 : 1
        masterGain.gain = masterGain.target
        masterGain.step = gainStep
        audioGain.gain = audioMuted ? 0 : 1
        idleFrames = 0
        reportedIdle = false
        startCount += 1
    }

    /// Waits up to `nanoseconds` (audio thread), unless a command or a stop is waiting or
    /// arrives meanwhile. Returns whether one did (see ``EngineMailbox/nap(nanoseconds:)``).
    func nap(nanoseconds: Int) -> Bool { mailbox.nap(nanoseconds: nanoseconds) }

    /// Runs `wait`, the device's wait for room, as a nap (audio thread; see
    /// ``EngineMailbox/nap(waitingOn:)``).
    func nap(waitingOn wait: () -> Void) { mailbox.nap(waitingOn: wait) }

    /// Renders the next `frames` (≤ ``maximumBlock``) and returns the interleaved samples.
    func renderBlock(frames: Int) -> UnsafeBufferPointer<Float> {
        if mailbox.takeStopRequest() {
            stopping = true
            masterGain.target = 0
            // 5 ms: short enough to feel immediate, long enough not to click.
            masterGain.step = 1 / Float(max(1, sampleRate / 200))
        }
        drainCommandQueue()
        mix.update(repeating: 0, count: frames)
        if audioDirtyFrames > 0 {
            mixLeft.update(repeating: 0, count: audioDirtyFrames)
            mixRight.update(repeating: 0, count: audioDirtyFrames)
            audioDirtyFrames = 0
        }
        audioInBlock = false
        let blockStart = frame
        let blockEnd = frame + frames
        var offset = 0
        while offset < frames {
            // Commands due at or before the current position apply first, then render up to
            // the next command's frame: every command takes effect at its exact sample.
            applyDueCommands(atOrBefore: blockStart + offset)
            let next = min(nextPendingFrame(), blockEnd)
            let count = max(1, next - (blockStart + offset))
            renderSlots(into: mix + offset, frames: min(count, frames - offset))
            offset += min(count, frames - offset)
            frame = blockStart + offset
        }
        applyMaster(frames: frames)
        if audioInBlock {
            audioDirtyFrames = frames
            output.write(mono: mix, audioLeft: mixLeft, audioRight: mixRight, frames: frames, into: interleaved)
        } else {
            output.write(mono: mix, frames: frames, into: interleaved)
        }
        mailbox.publishClipped(output.clippedSamples)
        trackIdleness(frames: frames)
        releaseRetiredCurves()
        return UnsafeBufferPointer(start: interleaved, count: frames * channelCount)
    }

    /// Hands long runtime curves that synths dropped to the notification thread, which frees
    /// them (freeing here would call the allocator on the audio thread).
    private func releaseRetiredCurves() {
        for index in 0..<Self.slotCount {
            guard let synth = slots[index].synth?.takeUnretainedValue() else { continue }
            while let curve = synth.runtimeControls.takeRetired() { post(.release(curve)) }
        }
    }

    // MARK: Commands

    private func drainCommandQueue() {
        while let command = mailbox.commands.peek() {
            if pendingCount < Self.pendingCapacity {
                pending[pendingCount] = command
                pendingCount += 1
            } else if command.frame <= frame {
                // The list is full of future commands: one due now must not wait behind them.
                apply(command)
            } else {
                return
            }
            _ = mailbox.commands.pop()
        }
    }

    private func nextPendingFrame() -> Int {
        var next = Int.max
        for i in 0..<pendingCount where pending[i].frame < next { next = pending[i].frame }
        return next
    }

    /// Applies pending commands whose frame has come, in arrival order.
    ///
    /// One stable pass: the commands that stay close up behind those applied. (Shifting the
    /// list down once per applied command was quadratic: half a million moves of these
    /// 300-byte commands when 1024 fall due in one block.) While a command applies,
    /// `pendingCount` covers only the commands kept so far, all sent before it: a cancel drops
    /// those and not the ones sent after it (`cancel(); start()` plays). When stopping, the
    /// playback commands (start, stop, pause, resume, seek, cancel) are dropped instead, due or
    /// not (see ``stopAllPlayers()``).
    private func applyDueCommands(atOrBefore now: Int, droppingPlayback: Bool = false) {
        let count = pendingCount
        var kept = 0
        for i in 0..<count {
            let command = pending[i]
            if droppingPlayback && command.isPlayback {
                uncount(command)
                drop(command)
            } else if command.frame <= now {
                pendingCount = kept
                apply(command)
                kept = pendingCount
            } else {
                pending[kept] = command
                kept += 1
            }
        }
        pendingCount = kept
    }

    private func apply(_ command: EngineCommand) {
        uncount(command)
        let index = command.slot
        switch command.action {
        case .muteEngine(let muted):
            engineMuted = muted
            if !stopping {
                masterGain.target = muted ? 0 : 1
                masterGain.step = gainStep
            }
            return
        case .muteAudio(let muted):
            audioMuted = muted
            return
        default:
            break
        }
        guard index >= 0 && index < Self.slotCount else {
            drop(command)
            return
        }
        switch command.action {
        case .attach(let synth):
            // Releasing a synth here is safe: it is never the last reference, so nothing is
            // freed on this thread. A synth in a slot is retained twice, by the slot (the
            // `passRetained` of `HapticEngine.attach`) and by the engine's `PlayerTable`
            // (claimed before the attach is sent, kept as `retiring` after the player goes
            // until the notification thread handles `.detached`, which this thread posts
            // after the release). The slot is normally empty here: it is claimed again only
            // once its detach is queued, and the queue is in order.
            slots[index].synth?.release()
            slots[index] = Slot(gainStep: gainStep)
            slots[index].synth = synth
        case .detach:
            // The slot's retain (see `.attach`); the table's goes on the notification thread.
            slots[index].synth?.release()
            slots[index] = Slot(gainStep: gainStep)
            removePending(slot: index)
            post(.detached(slot: index))
        case .start(let offset, let run):
            guard let synth = slots[index].synth?.takeUnretainedValue() else { return }
            synth.playsHaptics = playsHaptics
            synth.playsAudio = playsAudio
            // Values sent before the start hold (Core Haptics applies parameters sent before
            // a player starts): the transport's start carries them over to `offset`.
            slots[index].transport.start(synth, at: offset)
            slots[index].run = run
        case .stop:
            guard let synth = slots[index].synth?.takeUnretainedValue() else { return }
            slots[index].transport.stop(synth)
        case .cancel:
            removePending(slot: index)
            guard let synth = slots[index].synth?.takeUnretainedValue() else { return }
            slots[index].transport.stop(synth)
        case .pause:
            guard let synth = slots[index].synth?.takeUnretainedValue() else { return }
            slots[index].transport.pause(synth)
        case .resume:
            guard let synth = slots[index].synth?.takeUnretainedValue() else { return }
            slots[index].transport.resume(synth)
        case .seek(let offset):
            guard let synth = slots[index].synth?.takeUnretainedValue() else { return }
            slots[index].transport.seek(synth, to: offset)
        case .setRate(let rate):
            guard let synth = slots[index].synth?.takeUnretainedValue() else { return }
            slots[index].transport.setRate(synth, rate)
        case .setLoop(let enabled, let end, let count):
            slots[index].transport.setLoop(enabled: enabled, end: end, count: count)
        case .setMuted(let muted):
            slots[index].transport.setMuted(muted)
        case .control(let control, var element):
            guard let synth = slots[index].synth?.takeUnretainedValue() else {
                drop(command)
                return
            }
            element.shift(by: synth.patternTime)
            synth.runtimeControls.add(element, to: control)
        case .muteEngine, .muteAudio:
            break
        }
    }

    @inline(__always)
    private func uncount(_ command: EngineCommand) {
        if command.isScheduled { mailbox.scheduledCommands.subtract(1, ordering: .relaxed) }
    }

    /// Drops a slot's waiting commands, except its detach (the slot must still be freed).
    private func removePending(slot: Int) {
        var kept = 0
        for i in 0..<pendingCount {
            var keep = pending[i].slot != slot
            if case .detach = pending[i].action { keep = true }
            if keep {
                pending[kept] = pending[i]
                kept += 1
            } else {
                uncount(pending[i])
                drop(pending[i])
            }
        }
        pendingCount = kept
    }

    /// A command that will never apply: a start that never happens still completes (the
    /// engine holds a started player until it does), and a long curve's points are freed off
    /// this thread.
    private func drop(_ command: EngineCommand) {
        switch command.action {
        case .start(_, let run): post(.finished(slot: command.slot, run: run))
        case .control(_, var element): if let curve = element.takeOverflow() { post(.release(curve)) }
        default: break
        }
    }

    // MARK: Rendering

    private func renderSlots(into destination: UnsafeMutablePointer<Float>, frames: Int) {
        for index in 0..<Self.slotCount {
            guard slots[index].state != .idle, let unmanaged = slots[index].synth else { continue }
            let synth = unmanaged.takeUnretainedValue()
            var done = 0
            while done < frames {
                // Loop boundaries fall on their exact frame: a span ends there.
                let count = slots[index].transport.nextSpan(of: synth, atMost: frames - done)
                if count > 0 { mixSynth(synth, slot: index, into: destination + done, frames: count) }
                done += count
                slots[index].transport.endSpan(of: synth)
            }
            if slots[index].transport.finishIfDone(synth) { post(.finished(slot: index, run: slots[index].run)) }
        }
    }

    /// Renders one synth and adds it, through the player's gain ramp, into the mix.
    /// Audio events go to the audio mix, at the same offset in the block, through the same
    /// gain ramp.
    private func mixSynth(_ synth: PatternSynth, slot index: Int, into destination: UnsafeMutablePointer<Float>, frames: Int) {
        scratch.update(repeating: 0, count: frames)
        let audio = playsAudio && synth.hasAudio
        if audio {
            scratchLeft.update(repeating: 0, count: frames)
            scratchRight.update(repeating: 0, count: frames)
            synth.render(adding: scratch, audioLeft: scratchLeft, audioRight: scratchRight, frames: frames)
            // Before the haptic signal moves the ramp on: the same per-sample gains.
            let at = destination - mix
            slots[index].transport.gain.add(left: scratchLeft, right: scratchRight, into: mixLeft + at, mixRight + at, frames: frames)
            audioInBlock = true
        } else {
            synth.render(adding: scratch, frames: frames)
        }
        // A block in which none of the player's voices sounded adds nothing.
        if slots[index].transport.gain.isUnity && !synth.lastBlockSounded { return }
        slots[index].transport.gain.add(scratch, into: destination, frames: frames)
    }

    private func applyMaster(frames: Int) {
        applyAudioGain(frames: frames)
        if masterGain.isUnity { return }
        masterGain.scale(mix, frames: frames)
        if stopping && masterGain.gain == 0 && audioGain.gain == 0 { hasFadedOut = true }
    }

    /// The audio mix's gain: `isMutedForAudio` ramps it over 2 ms, a stop fades it with the
    /// haptics over 5 ms.
    private func applyAudioGain(frames: Int) {
        audioGain.target = stopping || audioMuted ? 0 : 1
        audioGain.step = stopping ? masterGain.step : gainStep
        if audioGain.isUnity { return }
        if audioInBlock {
            audioGain.scale(left: mixLeft, right: mixRight, frames: frames)
        } else {
            // Nothing sounds: the gain moves on as if it had.
            audioGain.skip(frames: frames)
        }
        if stopping && masterGain.gain == 0 && audioGain.gain == 0 { hasFadedOut = true }
    }

    private func trackIdleness(frames: Int) {
        var active = false
        for index in 0..<Self.slotCount where slots[index].state != .idle {
            active = true
            break
        }
        if active {
            idleFrames = 0
            reportedIdle = false
            return
        }
        idleFrames += frames
        let timeout = mailbox.idleTimeoutFrames.load(ordering: .relaxed)
        if timeout > 0 && idleFrames >= timeout && !reportedIdle {
            reportedIdle = true
            post(.idle(start: startCount))
        }
    }

    /// Motor levels of everything sounding now (rumble engines), through player and engine
    /// gains: see ``RumbleRenderer`` for the mapping.
    func motorLevels(gain: Double) -> (strong: UInt16, weak: UInt16) {
        var strong = 0.0
        var weak = 0.0
        for index in 0..<Self.slotCount where slots[index].state != .idle {
            guard let synth = slots[index].synth?.takeUnretainedValue() else { continue }
            var s = 0.0
            var w = 0.0
            synth.addMotorLevels(strong: &s, weak: &w)
            let playerGain = Double(slots[index].transport.gain.gain)
            strong += s * playerGain
            weak += w * playerGain
        }
        let master = Double(masterGain.gain) * gain
        return (RumbleRenderer.magnitude(strong * master), RumbleRenderer.magnitude(weak * master))
    }

    /// Ends every player, reporting each as finished: the audio thread calls this as it stops,
    /// so nothing resumes mid-pattern when the engine starts again. Playback commands still
    /// waiting for their frame (start, stop, pause, resume, seek, cancel) are dropped, a
    /// dropped start reporting its run as finished; the rest (slots, settings, parameter
    /// values) apply now, as they would have while the engine ran.
    func stopAllPlayers() {
        drainCommandQueue()
        for index in 0..<Self.slotCount where slots[index].state != .idle {
            if let synth = slots[index].synth?.takeUnretainedValue() { slots[index].transport.silence(synth) }
            post(.finished(slot: index, run: slots[index].run))
        }
        applyDueCommands(atOrBefore: frame, droppingPlayback: true)
        releaseRetiredCurves()
    }

    /// While no audio thread runs, the engine (holding its lifecycle lock) takes the commands
    /// itself, so players made and dropped on a stopped engine free their slots and the queue
    /// never fills. Time does not move: nothing renders, and playback commands are dropped as
    /// when the engine stops.
    func applyWhileStopped() { stopAllPlayers() }

    /// Whether any player is playing, paused or stopping.
    var hasActivePlayers: Bool {
        (0..<Self.slotCount).contains { slots[$0].state != .idle }
    }

    /// Posts an event to the notification thread (this loop's owner is the events' producer).
    private func post(_ event: EngineEvent) { mailbox.post(event) }
}
