import Dispatch
import HapticsRender
import Synchronization

/// The audio thread's state: player slots, commands waiting for their frame, the mix.
///
/// Everything here belongs to the audio thread once the engine has started it; the API side
/// talks to it only through `commands`, and hears back only through `events`. `renderBlock`
/// allocates nothing, takes no lock and does no I/O.
final class RenderLoop: @unchecked Sendable {
    /// Players that can exist at once on one engine.
    static let slotCount = 128
    /// Commands that can wait for a future frame.
    static let pendingCapacity = 1024
    /// Commands that may be scheduled ahead at once. The rest of the pending list stays free
    /// for commands due now, so scheduling far ahead never delays a `stop()` meant for now.
    static let schedulingLimit = pendingCapacity - 64
    /// Commands sent ahead of the render position and not yet applied or dropped.
    let scheduledCommands = Atomic<Int>(0)

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

    let commands = SPSCQueue<EngineCommand>(capacity: 4096)
    let events = SPSCQueue<EngineEvent>(capacity: 4096)
    /// Signalled after posting events, to wake the notification thread.
    let wake = DispatchSemaphore(value: 0)

    private struct Slot {
        enum State { case idle, playing, paused, stopping }
        var synth: Unmanaged<PatternSynth>?
        var state = State.idle
        var run = 0
        var loopEnabled = false
        var loopEnd = 0.0
        /// Plays in all when looping (0: forever), and wraps left in this run.
        var loopCount = 0
        var wrapsLeft = 0
        var gain: Float = 1
        var targetGain: Float = 1
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
    /// `isMutedForAudio`, and the audio mix's gain (mute and stop fade) and its target.
    private var audioMuted = false
    private var audioGain: Float = 1
    private var interleaved: UnsafeMutablePointer<Float>
    private var output: OutputStage
    private let endError = Mutex<HapticError?>(nil)

    /// Per-sample step of gain ramps: 2 ms from 0 to 1 (mute, unmute).
    private let gainStep: Float
    /// Engine-wide gain and its target (mute, fade-out on stop).
    private var masterGain: Float = 1
    private var masterTarget: Float = 1
    /// `isMutedForHaptics`: kept apart from the stop fade, which also targets 0, so a
    /// restarted engine is silent only if it was muted.
    private var engineMuted = false
    private var masterStep: Float
    private var stopping = false
    private let stopRequested = Atomic<Bool>(false)
    /// The audio thread's idle naps: it sets ``isNapping`` and waits on ``napEnd``, which a
    /// command or a stop posts, so that they take effect at once rather than after the nap.
    private let isNapping = Atomic<Bool>(false)
    private let napEnd = SystemSemaphore(value: 0)
    /// The fade-out has reached silence: the thread may stop.
    private(set) var hasFadedOut = false

    /// Frames since the last player was active, and after how many to report idleness
    /// (0: never).
    private var idleFrames = 0
    /// Set from the API side (auto-shutdown on or off) while the audio thread reads it.
    let idleTimeoutFrames = Atomic<Int>(0)
    private var reportedIdle = false
    /// How many times the output has started; set only while no audio thread runs.
    private(set) var startCount = 0

    /// Clipped samples so far.
    var clippedSamples: Int { clipped.load(ordering: .relaxed) }
    /// The output stage's clipped count, published after each block for other threads.
    private let clipped = Atomic<Int>(0)

    init(profile: ActuatorProfile, sampleRate: Int, gain: Double) {
        self.sampleRate = Double(sampleRate)
        self.profile = profile
        self.gain = gain
        channelCount = profile.channelCount
        output = OutputStage(profile: profile, gain: gain)
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Slot(), count: Self.slotCount)
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
        gainStep = 1 / Float(max(1, sampleRate / 500))
        masterStep = gainStep
    }

    /// Adapts the output stage to the device the engine opened. Call only while the audio
    /// thread is not running.
    func configureOutput(channelCount: Int, periodFrames: Int) {
        blockFrames = max(16, min(periodFrames, Self.maximumBlock))
        guard channelCount != self.channelCount else { return }
        var profile = profile
        // The device has another channel count than the profile: copy the haptic signal to
        // every channel, as DESIGN.md says for mono profiles.
        profile.channelCount = channelCount
        profile.hapticChannels = Array(0..<channelCount)
        output = OutputStage(profile: profile, gain: gain)
        interleaved.deallocate()
        interleaved = .allocate(capacity: Self.maximumBlock * channelCount)
        self.channelCount = channelCount
    }

    /// Records why the audio thread ended (called once, as it ends).
    func setEndError(_ error: HapticError?) { endError.withLock { $0 = error } }

    /// The error that ended the audio thread, if any, left in place.
    func endErrorRecorded() -> HapticError? { endError.withLock { $0 } }

    /// Takes the error that ended the audio thread, if any.
    func takeEndError() -> HapticError? {
        endError.withLock { e in
            defer { e = nil }
            return e
        }
    }

    deinit {
        // Not the audio thread (it holds the loop while it runs): free what commands carry.
        while let command = commands.pop() { command.releaseResources() }
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
    /// `playsAudioOnly`). Call only while the audio thread is not running.
    func setFamilies(haptics: Bool, audio: Bool) {
        playsHaptics = haptics
        playsAudio = audio
    }

    /// Re-arms the loop for a new start of the engine's output.
    func prepareForStart() {
        stopRequested.store(false, ordering: .relaxed)
        stopping = false
        hasFadedOut = false
        masterTarget = engineMuted ? 0 : 1
        masterGain = masterTarget
        masterStep = gainStep
        audioGain = audioMuted ? 0 : 1
        idleFrames = 0
        reportedIdle = false
        startCount += 1
    }

    /// Asks the audio thread to fade the output out and end (any thread).
    ///
    /// A flag rather than a command: the command queue has one producer at a time (``send``
    /// serialises them), and a stop queued behind a full list of commands for future frames
    /// would wait for them to fall due.
    func requestFadeOutAndStop() {
        stopRequested.store(true, ordering: .releasing)
        endNap()
    }

    /// Waits up to `nanoseconds` (audio thread), unless a command or a stop is waiting or
    /// arrives meanwhile. Returns whether one did.
    func nap(nanoseconds: Int) -> Bool {
        isNapping.store(true, ordering: .sequentiallyConsistent)
        // Checked after announcing the nap: a command pushed before it is seen here, one
        // pushed after it finds the flag set and posts.
        if commands.peek() != nil || isStopRequested {
            if !isNapping.exchange(false, ordering: .sequentiallyConsistent) { napEnd.wait() }
            return true
        }
        let woken = napEnd.wait(nanoseconds: nanoseconds)
        // Timed out while a waker took the flag: its post is on its way; take it so that the
        // next nap does not end at once.
        if !woken && !isNapping.exchange(false, ordering: .sequentiallyConsistent) { napEnd.wait() }
        return woken
    }

    /// Ends the audio thread's nap, if it is taking one (any thread, after queueing a command).
    func endNap() {
        guard isNapping.exchange(false, ordering: .sequentiallyConsistent) else { return }
        // Before the post: until it, the audio thread waits in its nap, so the device is open.
        deviceWaitInterrupt.withLock { $0?() }
        napEnd.signal()
    }

    /// Ends the device's own wait in ``nap(waitingOn:)`` (any thread); set by the control side.
    let deviceWaitInterrupt = Mutex<(@Sendable () -> Void)?>(nil)

    /// Runs `wait`, the device's wait for room, as a nap (audio thread): a command or a stop
    /// ends it through ``deviceWaitInterrupt``.
    func nap(waitingOn wait: () -> Void) {
        isNapping.store(true, ordering: .sequentiallyConsistent)
        if commands.peek() == nil && !isStopRequested { wait() }
        // A waker took the flag: its post is on its way; take it so that the next nap does not
        // end at once.
        if !isNapping.exchange(false, ordering: .sequentiallyConsistent) { napEnd.wait() }
    }

    /// Whether a stop was asked for and not yet taken (the audio thread's idle naps end on it).
    var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    /// Renders the next `frames` (≤ ``maximumBlock``) and returns the interleaved samples.
    func renderBlock(frames: Int) -> UnsafeBufferPointer<Float> {
        if stopRequested.exchange(false, ordering: .acquiring) {
            stopping = true
            masterTarget = 0
            // 5 ms: short enough to feel immediate, long enough not to click.
            masterStep = 1 / Float(max(1, sampleRate / 200))
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
        clipped.store(output.clippedSamples, ordering: .relaxed)
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
        while let command = commands.peek() {
            if pendingCount < Self.pendingCapacity {
                pending[pendingCount] = command
                pendingCount += 1
            } else if command.frame <= frame {
                // The list is full of future commands: one due now must not wait behind them.
                apply(command)
            } else {
                return
            }
            _ = commands.pop()
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
    /// those and not the ones sent after it (`cancel(); start()` plays).
    private func applyDueCommands(atOrBefore now: Int) {
        let count = pendingCount
        var kept = 0
        for i in 0..<count {
            let command = pending[i]
            if command.frame <= now {
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
                masterTarget = muted ? 0 : 1
                masterStep = gainStep
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
            slots[index].synth?.release()
            slots[index] = Slot()
            slots[index].synth = synth
        case .detach:
            slots[index].synth?.release()
            slots[index] = Slot()
            removePending(slot: index)
            post(.detached(slot: index))
        case .start(let offset, let run):
            guard let synth = slots[index].synth?.takeUnretainedValue() else { return }
            synth.playsHaptics = playsHaptics
            synth.playsAudio = playsAudio
            // Values sent before the start hold (Core Haptics applies parameters sent before
            // a player starts); `seek` carries those in effect over to the pattern's start.
            // Seek first: a paused synth only moves, and unpausing then starts what is in
            // progress at `offset` (unpausing first would sound the old position for 2 ms).
            synth.seek(to: offset)
            synth.setPaused(false)
            slots[index].state = .playing
            slots[index].run = run
            slots[index].wrapsLeft = slots[index].loopCount - 1
        case .stop:
            guard slots[index].state != .idle, let synth = slots[index].synth?.takeUnretainedValue() else { return }
            synth.stop()
            slots[index].state = .stopping
        case .cancel:
            removePending(slot: index)
            guard slots[index].state != .idle, let synth = slots[index].synth?.takeUnretainedValue() else { return }
            synth.stop()
            slots[index].state = .stopping
        case .pause:
            guard slots[index].state == .playing, let synth = slots[index].synth?.takeUnretainedValue() else { return }
            synth.setPaused(true)
            slots[index].state = .paused
        case .resume:
            guard slots[index].state == .paused, let synth = slots[index].synth?.takeUnretainedValue() else { return }
            synth.setPaused(false)
            slots[index].state = .playing
        case .seek(let offset):
            // A paused synth only moves (no sound until resume).
            slots[index].synth?.takeUnretainedValue().seek(to: offset)
        case .setRate(let rate):
            slots[index].synth?.takeUnretainedValue().setRate(rate)
        case .setLoop(let enabled, let end, let count):
            slots[index].loopEnabled = enabled
            slots[index].loopEnd = end
            slots[index].loopCount = count
            slots[index].wrapsLeft = count - 1
        case .setMuted(let muted):
            slots[index].targetGain = muted ? 0 : 1
            // A silent player needs no ramp: it starts at its target.
            if slots[index].state == .idle { slots[index].gain = slots[index].targetGain }
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
        if command.isScheduled { scheduledCommands.subtract(1, ordering: .relaxed) }
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
            var wraps = false
            while done < frames {
                var count = frames - done
                // Loop boundaries fall on their exact frame.
                let justWrapped = wraps
                wraps = false
                let looping = slots[index].loopEnabled && (slots[index].loopCount == 0 || slots[index].wrapsLeft > 0)
                if looping && slots[index].state == .playing {
                    let end = slots[index].loopEnd > 0 ? slots[index].loopEnd : synth.naturalLoopEnd
                    // In Double: far past the end (a seek) the frame count overflows Int.
                    let untilEnd = ((end - synth.patternTime) * sampleRate / synth.rate).rounded()
                    if untilEnd <= Double(count) {
                        // A loop shorter than a frame (tiny loop end, high rate) still plays a
                        // frame per wrap, or this loop would wrap forever without advancing.
                        count = max(justWrapped ? 1 : 0, Int(max(0, untilEnd)))
                        wraps = true
                    }
                }
                if count > 0 { mixSynth(synth, slot: index, into: destination + done, frames: count) }
                done += count
                if wraps {
                    synth.seek(to: 0)
                    if slots[index].loopCount > 0 { slots[index].wrapsLeft -= 1 }
                }
            }
            switch slots[index].state {
            case .playing where synth.isFinished && !(slots[index].loopEnabled && (slots[index].loopCount == 0 || slots[index].wrapsLeft > 0)),
                .stopping where !synth.isSounding:
                slots[index].state = .idle
                post(.finished(slot: index, run: slots[index].run))
            default:
                break
            }
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
            let at = destination - mix
            let startGain = slots[index].gain
            addAudio(from: startGain, to: slots[index].targetGain, into: mixLeft + at, mixRight + at, frames: frames)
            audioInBlock = true
        } else {
            synth.render(adding: scratch, frames: frames)
        }
        var gain = slots[index].gain
        let target = slots[index].targetGain
        if gain == 1 && target == 1 {
            // A block in which none of the player's voices sounded adds nothing.
            guard synth.lastBlockSounded else { return }
            for i in 0..<frames { destination[i] += scratch[i] }
            return
        }
        for i in 0..<frames {
            if gain < target { gain = min(target, gain + gainStep) } else if gain > target { gain = max(target, gain - gainStep) }
            destination[i] += scratch[i] * gain
        }
        slots[index].gain = gain
    }

    /// Adds one synth's audio pair into the audio mix through the player's gain ramp (the
    /// same per-sample gains its haptic signal gets).
    private func addAudio(from start: Float, to target: Float, into left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, frames: Int) {
        if start == 1 && target == 1 {
            for i in 0..<frames {
                left[i] += scratchLeft[i]
                right[i] += scratchRight[i]
            }
            return
        }
        var gain = start
        for i in 0..<frames {
            if gain < target { gain = min(target, gain + gainStep) } else if gain > target { gain = max(target, gain - gainStep) }
            left[i] += scratchLeft[i] * gain
            right[i] += scratchRight[i] * gain
        }
    }

    private func applyMaster(frames: Int) {
        applyAudioGain(frames: frames)
        if masterGain == 1 && masterTarget == 1 { return }
        var gain = masterGain
        for i in 0..<frames {
            if gain < masterTarget { gain = min(masterTarget, gain + masterStep) } else if gain > masterTarget { gain = max(masterTarget, gain - masterStep) }
            mix[i] *= gain
        }
        masterGain = gain
        if stopping && gain == 0 && audioGain == 0 { hasFadedOut = true }
    }

    /// The audio mix's gain: `isMutedForAudio` ramps it over 2 ms, a stop fades it with the
    /// haptics over 5 ms.
    private func applyAudioGain(frames: Int) {
        let target: Float = stopping || audioMuted ? 0 : 1
        let step = stopping ? masterStep : gainStep
        var gain = audioGain
        if gain == 1 && target == 1 { return }
        guard audioInBlock else {
            // Nothing sounds: the gain moves on as if it had.
            let move = step * Float(frames)
            audioGain = gain < target ? min(target, gain + move) : max(target, gain - move)
            if stopping && masterGain == 0 && audioGain == 0 { hasFadedOut = true }
            return
        }
        for i in 0..<frames {
            if gain < target { gain = min(target, gain + step) } else if gain > target { gain = max(target, gain - step) }
            mixLeft[i] *= gain
            mixRight[i] *= gain
        }
        audioGain = gain
        if stopping && masterGain == 0 && audioGain == 0 { hasFadedOut = true }
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
        let timeout = idleTimeoutFrames.load(ordering: .relaxed)
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
            let playerGain = Double(slots[index].gain)
            strong += s * playerGain
            weak += w * playerGain
        }
        let master = Double(masterGain) * gain
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
            slots[index].synth?.takeUnretainedValue().silence()
            slots[index].state = .idle
            post(.finished(slot: index, run: slots[index].run))
        }
        let count = pendingCount
        var kept = 0
        for i in 0..<count {
            let command = pending[i]
            switch command.action {
            case .start, .stop, .pause, .resume, .seek, .cancel:
                uncount(command)
                drop(command)
            default:
                if command.frame <= frame {
                    pendingCount = kept
                    apply(command)
                    kept = pendingCount
                } else {
                    pending[kept] = command
                    kept += 1
                }
            }
        }
        pendingCount = kept
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

    func post(_ event: EngineEvent) {
        // When the notification thread is 4096 events behind, the event is lost (a long curve's
        // points leak rather than being freed here).
        _ = events.push(event)
        wake.signal()
    }
}
