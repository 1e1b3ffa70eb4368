import Foundation
import HapticsCore
import HapticsRender
import Synchronization

/// Plays haptic patterns in real time on an output device.
///
/// ```swift
/// let engine = HapticEngine(device: "default", profile: .wideband)
/// try engine.start()
/// let player = try engine.makePlayer(with: pattern)
/// try player.start(atTime: engine.currentTime + 0.1)
/// ```
///
/// The engine owns the device and a clock (``currentTime``). Players are created from
/// patterns and commanded from any thread; every command is stamped on the engine clock and
/// takes effect at its exact sample on a dedicated audio thread, which renders with the same
/// synthesis as ``HapticRenderer`` — what the engine plays equals what rendering writes.
/// Several engines can exist in one process, each with its own device and thread.
public final class HapticEngine: @unchecked Sendable {
    /// How the engine opens its output.
    public struct Configuration: Sendable {
        /// ALSA device name: `default`, `hw:…`, `plughw:…`, `pulse`, `null`, `file:'out.wav',wav`.
        public var device: String
        /// The actuator the signal drives; sets frequency band, channels and sample rate.
        public var profile: ActuatorProfile
        /// Output rate; the profile's when nil.
        public var sampleRate: Int?
        /// Requested output latency (the device's buffer); about 20 ms by default.
        public var latency: Duration
        /// Multiplies the profile's gain.
        public var gain: Double
        /// After how long without an active player an engine with auto-shutdown stops.
        public var idleTimeout: Duration

        /// Creates a configuration.
        public init(device: String = "default", profile: ActuatorProfile = .wideband, sampleRate: Int? = nil,
                    latency: Duration = .milliseconds(20), gain: Double = 1, idleTimeout: Duration = .seconds(10)) {
            self.device = device
            self.profile = profile
            self.sampleRate = sampleRate
            self.latency = latency
            self.gain = gain
            self.idleTimeout = idleTimeout
        }
    }

    /// Opens an output; the engine calls it on each start.
    /// Errors other than ``AudioOutputError`` are reported as the device being unavailable.
    public typealias OutputFactory = @Sendable (_ sampleRate: Int, _ channelCount: Int, _ latency: Duration) throws -> any AudioOutput

    /// Opens a rumble output; the engine calls it on each start.
    /// Errors other than ``RumbleOutputError`` are reported as the device being unavailable.
    public typealias RumbleOutputFactory = @Sendable () throws -> any RumbleOutput

    /// What the engine plays into.
    enum Sink {
        case audio(OutputFactory)
        /// Motor levels every `interval` milliseconds.
        case rumble(RumbleOutputFactory, intervalMilliseconds: Int)
    }

    /// How the engine opens its output (for rumble engines: `device` is "rumble").
    public let configuration: Configuration
    private let sink: Sink
    let sampleRate: Int
    /// Shortest transient the synths make (rumble motors need 40 ms to spin up).
    private let minimumTransientLength: Double
    let clock: EngineClock

    private struct State {
        var loop: RenderLoop?
        var output: OpenSink?
        var audioThread: Thread?
        var audioThreadDone: DispatchSemaphore?
        /// An audio thread that did not end when stopped (its device stopped answering: a
        /// frozen sound server blocks alsa-lib's write, drop and close alike). It still holds
        /// the render loop, so no new one may start until it has ended.
        var stuckThread: DispatchSemaphore?
        var running = false
        var stoppedForIdleness = false
        var outputError: HapticError?
        var stoppedHandler: (@Sendable (HapticEngineStoppedReason) -> Void)?
        var resetHandler: (@Sendable () -> Void)?
        var finishedHandler: (@Sendable (Error?) -> HapticEngineFinishedAction)?
        var autoShutdown = false
        var mutedForHaptics = false
        var mutedForAudio = false
        var playsHapticsOnly = false
        var playsAudioOnly = false
        var freeSlots = Array((0..<RenderLoop.slotCount).reversed())
        /// The synth of each slot in use. The audio thread holds it too, unretained by
        /// ownership rules of its own: its release must never be the last.
        var synths: [Int: PatternSynth] = [:]
        /// Synths of released players, kept until the audio thread confirms their detach, in
        /// the order the detaches were sent. Their slots are free at once: the queue is in
        /// order, so the audio thread detaches the old synth before it attaches a new one.
        var retiring: [(slot: Int, synth: PatternSynth)] = []
        /// The latest run started per slot, and those not finished yet.
        var latestRun: [Int: Int] = [:]
        var activeSlots: Set<Int> = []
        var completionHandlers: [Int: @Sendable (Error?) -> Void] = [:]
        /// Started players, held until they finish, as Core Haptics does: a player kept only in
        /// a local variable plays to its end.
        var playing: [Int: HapticPatternPlayer] = [:]
        var nextRun = 1
        var notifier: Thread?
    }

    private let state = Locked(State())
    /// Serialises producers of the command queue (the audio thread never takes it).
    private let producerLock = Mutex(())
    /// Serialises ``start()`` and ``stop()`` (held while the output opens or drains; never
    /// taken by the audio thread, nor while a handler runs).
    private let lifecycle = NSLock()

    /// Creates an engine for an ALSA device. Nothing opens until ``start()``.
    public convenience init(configuration: Configuration = Configuration()) {
        let device = configuration.device
        self.init(configuration: configuration) { rate, channels, latency throws(AudioOutputError) in
            try ALSAOutput(device: device, sampleRate: rate, channelCount: channels, latency: latency)
        }
    }

    /// Creates an engine for an ALSA device.
    public convenience init(device: String, profile: ActuatorProfile = .wideband, gain: Double = 1) {
        self.init(configuration: Configuration(device: device, profile: profile, gain: gain))
    }

    /// Creates an engine that plays into outputs made by `makeOutput` (tests, custom sinks).
    public init(configuration: Configuration, output makeOutput: @escaping OutputFactory) {
        self.configuration = configuration
        sink = .audio(makeOutput)
        sampleRate = configuration.sampleRate ?? configuration.profile.sampleRate
        minimumTransientLength = 0
        clock = EngineClock(sampleRate: Double(sampleRate))
    }

    /// Creates an engine that drives a gamepad's two rumble motors.
    ///
    /// The same players and patterns work; the synthesis runs at 1 kHz and every
    /// `intervalMilliseconds` the sounding events are mapped to motor levels (see
    /// ``RumbleRenderer``), sent only when they change. Stopping the engine, by any path, sets
    /// the motors to zero and releases the device.
    ///
    /// - Parameters:
    ///   - output: opens the device, e.g. `{ try RumbleDevices.open(nil) }` for the first one.
    ///   - gain: scales motor levels (the device itself is driven at full gain).
    public init(rumble output: @escaping RumbleOutputFactory, intervalMilliseconds: Int = 10, gain: Double = 1,
                idleTimeout: Duration = .seconds(10)) {
        configuration = Configuration(device: "rumble", profile: .wideband, gain: gain, idleTimeout: idleTimeout)
        sink = .rumble(output, intervalMilliseconds: max(1, min(1000, intervalMilliseconds)))
        sampleRate = Int(RumbleRenderer.controlRate)
        minimumTransientLength = RumbleRenderer.synthPulse
        clock = EngineClock(sampleRate: Double(sampleRate))
    }

    deinit {
        let (thread, done, output, wasRunning, handler) = state.withLock { s in
            (s.audioThread, s.audioThreadDone, s.output, s.running, s.stoppedHandler)
        }
        if let loop = state.withLock({ $0.loop }), thread != nil {
            loop.requestFadeOutAndStop()
            if done?.wait(timeout: .now() + 0.5) == .timedOut {
                output?.interrupt()
                _ = done?.wait(timeout: .now() + 0.5)
            }
            // No `.ended` from here: the audio thread posts its own, and the events queue
            // takes one producer (the notification thread, seeing the engine gone, ignores it).
        }
        output?.close()
        if wasRunning { handler?(.engineDestroyed) }
        // Wake the notification thread so it sees the engine gone and ends (it holds the loop).
        if let loop = state.withLock({ $0.notifier != nil ? $0.loop : nil }) { loop.wake.signal() }
    }

    /// The render loop, if one was created (for tests).
    var renderLoopIfCreated: RenderLoop? { state.withLock { $0.loop } }

    /// An opened output.
    enum OpenSink: @unchecked Sendable {
        case audio(any AudioOutput)
        case rumble(UncheckedRumbleOutput)

        /// Unblocks a stuck device (audio: drop; rumble: motors to zero).
        func interrupt() {
            switch self {
            case .audio(let output): output.stop()
            case .rumble(let output): output.base.stop()
            }
        }

        /// Releases the device.
        func close() {
            switch self {
            case .audio(let output): output.close()
            case .rumble(let output): output.base.stop()
            }
        }
    }

    // MARK: Handlers and flags

    /// Called when the engine stops on its own (device lost, idle timeout, …), not after
    /// ``stop()``. Runs on the engine's notification thread.
    public var stoppedHandler: (@Sendable (HapticEngineStoppedReason) -> Void)? {
        get { state.withLock { $0.stoppedHandler } }
        set { state.withLock { $0.stoppedHandler = newValue } }
    }

    /// Called after ``start()`` opened the output again following a failure (a device lost
    /// mid-play, say a controller unplugged and plugged back). Players and their settings are
    /// kept, but what was playing when the output failed was stopped: restart what should
    /// still be heard. Runs on a background queue.
    public var resetHandler: (@Sendable () -> Void)? {
        get { state.withLock { $0.resetHandler } }
        set { state.withLock { $0.resetHandler = newValue } }
    }

    /// Whether the engine stops by itself after ``Configuration/idleTimeout`` without an
    /// active player, and starts again when a player starts.
    public var isAutoShutdownEnabled: Bool {
        get { state.withLock { $0.autoShutdown } }
        set {
            let loop = state.withLock { s -> RenderLoop? in s.autoShutdown = newValue; return s.loop }
            loop?.idleTimeoutFrames.store(newValue ? idleTimeoutFrames : 0, ordering: .relaxed)
        }
    }

    /// Silences haptic events (with a 2 ms ramp) without stopping players; audio events
    /// play on (see ``isMutedForAudio``).
    public var isMutedForHaptics: Bool {
        get { state.withLock { $0.mutedForHaptics } }
        set {
            state.withLock { $0.mutedForHaptics = newValue }
            try? send(EngineCommand(frame: EngineCommand.now, slot: -1, action: .muteEngine(newValue)))
        }
    }

    /// Silences audio events (`AudioContinuous`, `AudioCustom`) with a 2 ms ramp, without
    /// stopping players; haptic events play on.
    public var isMutedForAudio: Bool {
        get { state.withLock { $0.mutedForAudio } }
        set {
            state.withLock { $0.mutedForAudio = newValue }
            try? send(EngineCommand(frame: EngineCommand.now, slot: -1, action: .muteAudio(newValue)))
        }
    }

    /// Whether the engine ignores audio events. As in Core Haptics, a change takes effect at
    /// the next ``start()``.
    public var playsHapticsOnly: Bool {
        get { state.withLock { $0.playsHapticsOnly } }
        set { state.withLock { $0.playsHapticsOnly = newValue } }
    }

    /// Whether the engine ignores haptic events and plays audio events only. As in Core
    /// Haptics, a change takes effect at the next ``start()``.
    public var playsAudioOnly: Bool {
        get { state.withLock { $0.playsAudioOnly } }
        set { state.withLock { $0.playsAudioOnly = newValue } }
    }

    /// Whether the audio thread is running.
    public var isRunning: Bool { state.withLock { $0.running } }

    /// The engine's clock: seconds of output heard since the engine was created (it holds
    /// while stopped). Schedule with times on this clock; 0 or a time already past means now.
    public var currentTime: TimeInterval { clock.time }

    /// Samples clipped at the output so far.
    public var clippedSamples: Int { state.withLock { $0.loop?.clippedSamples ?? 0 } }

    private var idleTimeoutFrames: Int {
        let c = configuration.idleTimeout.components
        return max(1, Int((Double(c.seconds) + Double(c.attoseconds) * 1e-18) * Double(sampleRate)))
    }

    // MARK: Start and stop

    /// Opens the output and starts the audio thread. Does nothing if already running.
    ///
    /// - Throws: ``HapticError/output(_:)`` naming the device when it is missing, busy or
    ///   cannot play the profile's format.
    public func start() throws(HapticError) {
        // One start or stop at a time: two racing starts would each open the device and run
        // an audio thread on the same render loop, and a start during a stop's fade-out would
        // re-arm the loop under the thread that is ending.
        lifecycle.lock()
        defer { lifecycle.unlock() }
        if state.withLock({ $0.running }) { return }
        if let stuck = state.withLock({ $0.stuckThread }) {
            guard stuck.wait(timeout: .now()) == .success else {
                throw .output(.deviceUnavailable(device: configuration.device,
                                                 reason: "the previous output stopped responding and has not let go yet (a frozen sound server?)"))
            }
            stuck.signal()
            state.withLock { $0.stuckThread = nil }
        }
        let opened: OpenSink
        switch sink {
        case .audio(let makeOutput):
            do {
                opened = .audio(try makeOutput(sampleRate, configuration.profile.channelCount, configuration.latency))
            } catch let error as AudioOutputError {
                throw .output(error)
            } catch {
                throw .output(.deviceUnavailable(device: configuration.device, reason: "\(error)"))
            }
        case .rumble(let makeOutput, _):
            do {
                opened = .rumble(UncheckedRumbleOutput(try makeOutput()))
            } catch let error as RumbleOutputError {
                throw .rumble(error)
            } catch {
                throw .rumble(.deviceUnavailable(device: "rumble", reason: "\(error)"))
            }
        }
        let loop = renderLoop()
        switch opened {
        case .audio(let output):
            loop.configureOutput(channelCount: output.channelCount, periodFrames: output.periodFrames)
        case .rumble:
            if case .rumble(_, let interval) = sink { loop.configureOutput(channelCount: 1, periodFrames: interval) }
        }
        let families = state.withLock { (haptics: !$0.playsAudioOnly, audio: !$0.playsHapticsOnly) }
        loop.setFamilies(haptics: families.haptics, audio: families.audio)
        loop.prepareForStart()
        loop.idleTimeoutFrames.store(isAutoShutdownEnabled ? idleTimeoutFrames : 0, ordering: .relaxed)
        let done = DispatchSemaphore(value: 0)
        let clock = self.clock
        let gain = configuration.gain
        let thread = Thread {
            let error: HapticError?
            switch opened {
            case .audio(let output): error = Self.runAudioThread(loop: loop, output: output, clock: clock).map { .output($0) }
            case .rumble(let output): error = Self.runRumbleThread(loop: loop, output: output.base, clock: clock, gain: gain).map { .rumble($0) }
            }
            loop.stopAllPlayers()
            loop.setEndError(error)
            clock.setRunning(false)
            // Last: once `done` is signalled a stopped engine may take the loop's commands
            // itself, posting events, and the event queue takes one producer at a time.
            loop.post(.ended)
            done.signal()
        }
        thread.name = "haptics-audio"
        thread.qualityOfService = .userInteractive
        let reset = state.withLock { s -> (@Sendable () -> Void)? in
            let recovering = s.outputError != nil
            s.output = opened
            s.audioThread = thread
            s.audioThreadDone = done
            s.running = true
            s.stoppedForIdleness = false
            s.outputError = nil
            return recovering ? s.resetHandler : nil
        }
        clock.setRunning(true)
        thread.start()
        if let reset { DispatchQueue.global().async { reset() } }
    }

    /// Fades the output out over 5 ms, lets the device play what it holds, closes it and
    /// stops the audio thread. Every player stops (completion handlers are called); players
    /// stay valid, so start the engine again and start them to play again.
    public func stop() {
        lifecycle.lock()
        defer { lifecycle.unlock() }
        guard let (loop, done, output) = state.withLock({ s -> (RenderLoop, DispatchSemaphore, OpenSink)? in
            guard s.running, let loop = s.loop, let done = s.audioThreadDone, let output = s.output else { return nil }
            s.running = false
            return (loop, done, output)
        }) else { return }
        loop.requestFadeOutAndStop()
        // The fade, what the device holds, and a margin.
        let latency = configuration.latency.components
        let drainTime = 0.25 + Double(latency.seconds) + Double(latency.attoseconds) * 1e-18
        if done.wait(timeout: .now() + drainTime) == .timedOut {
            // A device that stopped taking samples: unblock the write and give up on draining.
            // From another thread, since the unblocking call may block as well.
            Thread.detachNewThread { output.interrupt() }
            if done.wait(timeout: .now() + 0.25) == .timedOut {
                // The device does not answer at all. Leave the thread and the device to close
                // themselves if it ever does; stop() returns rather than hang its caller.
                state.withLock { s in
                    s.output = nil
                    s.audioThread = nil
                    s.audioThreadDone = nil
                    s.stuckThread = done
                }
                Thread.detachNewThread {
                    done.wait()
                    output.close()
                    done.signal()
                }
                return
            }
        }
        output.close()
        state.withLock { s in
            s.output = nil
            s.audioThread = nil
            s.audioThreadDone = nil
        }
    }

    /// The audio thread: render a period, write it, publish the clock; until faded out or
    /// the device fails. Returns the device's error, if any.
    private static func runAudioThread(loop: RenderLoop, output: any AudioOutput, clock: EngineClock) -> AudioOutputError? {
        RealtimePriority.raiseCurrentThread(name: "haptics-audio", realtime: output.isPaced)
        let block = loop.blockFrames
        let startedAt = EngineClock.now()
        let startFrame = loop.frame
        while true {
            let samples = loop.renderBlock(frames: block)
            do {
                try output.write(samples)
            } catch {
                return error
            }
            clock.publish(rendered: loop.frame, pending: output.pendingFrames())
            if loop.hasFadedOut {
                output.drain()
                clock.publish(rendered: loop.frame, pending: 0)
                return nil
            }
            // Devices that do not pace (null, file) would spin while idle: hold the render
            // position at most 100 ms ahead of the wall clock when nothing plays.
            // Naps of 1 ms until back within that bound (a single nap per block let an idle
            // engine run about 5× faster than real time), ending at once when a command or a
            // stop arrives, and after 20 ms at most.
            if !loop.hasActivePlayers {
                var naps = 0
                while naps < 20, loop.commands.peek() == nil, !loop.isStopRequested {
                    let wall = Double(EngineClock.now() - startedAt) * 1e-9 * loop.sampleRate
                    guard Double(loop.frame - startFrame) > wall + 0.1 * loop.sampleRate else { break }
                    var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
                    nanosleep(&pause, nil)
                    naps += 1
                }
            }
        }
    }

    /// The rumble thread: every interval, advance the synths, map voices to motor levels and
    /// send them if they changed; paced by the monotonic clock. On the way out (stop, fade-out,
    /// failure) the motors go to zero.
    private static func runRumbleThread(loop: RenderLoop, output: any RumbleOutput, clock: EngineClock, gain: Double) -> RumbleOutputError? {
        RealtimePriority.raiseCurrentThread(name: "haptics-rumble")
        let interval = loop.blockFrames
        let intervalNanoseconds = interval * 1_000_000
        var deadline = EngineClock.now()
        var last: (strong: UInt16, weak: UInt16) = (0, 0)
        defer { output.stop() }
        while true {
            _ = loop.renderBlock(frames: interval)
            let levels = loop.motorLevels(gain: gain)
            if levels != last {
                do { try output.setMotors(strong: levels.strong, weak: levels.weak) } catch { return error }
                last = levels
            }
            clock.publish(rendered: loop.frame, pending: 0)
            if loop.hasFadedOut { return nil }
            deadline += intervalNanoseconds
            var wake = timespec(tv_sec: deadline / 1_000_000_000, tv_nsec: deadline % 1_000_000_000)
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nil) == EINTR {}
        }
    }

    // MARK: Players

    /// Creates a player for a pattern.
    public func makePlayer(with pattern: HapticPattern) throws(HapticError) -> HapticPatternPlayer {
        try HapticPatternPlayer(engine: self, pattern: pattern)
    }

    /// Creates a player that can also pause, resume, seek, loop and change speed.
    public func makeAdvancedPlayer(with pattern: HapticPattern) throws(HapticError) -> HapticAdvancedPatternPlayer {
        try HapticAdvancedPatternPlayer(engine: self, pattern: pattern)
    }

    /// Plays an AHAP file now, fire-and-forget.
    public func playPattern(from url: URL) throws {
        let document = try AHAPDecoder().decode(contentsOf: url)
        try playPattern(document.pattern)
    }

    /// Plays the AHAP file at a path now, fire-and-forget.
    public func playPattern(fromFile path: String) throws {
        try playPattern(from: URL(fileURLWithPath: path))
    }

    /// Plays AHAP data now, fire-and-forget.
    public func playPattern(from data: Data) throws {
        let document = try AHAPDecoder().decode(data)
        try playPattern(document.pattern)
    }

    /// Plays a pattern now, fire-and-forget (the engine holds the player until it finishes).
    public func playPattern(_ pattern: HapticPattern) throws(HapticError) {
        try makePlayer(with: pattern).start()
    }

    /// Calls `handler` once no player is active any more (immediately if none is); its
    /// answer stops the engine or leaves it running.
    public func notifyWhenPlayersFinished(_ handler: @escaping @Sendable (Error?) -> HapticEngineFinishedAction) {
        let idle = state.withLock { s -> Bool in
            s.finishedHandler = handler
            return s.activeSlots.isEmpty
        }
        if idle { handlePlayersFinished() }
    }

    // MARK: Internals used by players

    /// Prepares a pattern for this engine: with its audio events and their sound files, read
    /// now, unless the engine drives rumble motors (which play haptics only).
    func compile(_ pattern: HapticPattern) -> CompiledPattern {
        if case .rumble = sink { return CompiledPattern(pattern) }
        return CompiledPattern(pattern, includingAudio: true)
    }

    /// Claims a slot and hands a new synth for `pattern` to the audio thread.
    func attach(_ pattern: CompiledPattern) throws(HapticError) -> Int {
        let synth = PatternSynth(pattern: pattern, profile: configuration.profile, sampleRate: Double(sampleRate),
                                 minimumTransientLength: minimumTransientLength)
        guard let slot = state.withLock({ s -> Int? in
            guard let slot = s.freeSlots.popLast() else { return nil }
            s.synths[slot] = synth
            return slot
        }) else { throw .tooManyPlayers(limit: RenderLoop.slotCount) }
        let retained = Unmanaged.passRetained(synth)
        do {
            try send(EngineCommand(frame: EngineCommand.now, slot: slot, action: .attach(retained)))
        } catch {
            // Never reached the audio thread: give the slot and the retain back.
            retained.release()
            state.withLock { s in
                s.synths[slot] = nil
                s.freeSlots.append(slot)
            }
            throw error
        }
        return slot
    }

    /// Releases a slot (player deinit). The slot is free at once; the synth is freed when the
    /// audio thread confirms.
    func detach(slot: Int) {
        state.withLock { s in
            s.activeSlots.remove(slot)
            s.completionHandlers[slot] = nil
            s.latestRun[slot] = nil
            // Retiring before the detach is sent: the audio thread may confirm it at once.
            if let synth = s.synths.removeValue(forKey: slot) { s.retiring.append((slot, synth)) }
        }
        do {
            try send(EngineCommand(frame: EngineCommand.now, slot: slot, action: .detach))
            state.withLock { $0.freeSlots.append(slot) }
        } catch {
            // The queue is wedged: keep the slot reserved rather than risk reusing it.
        }
    }

    /// Starts a player's pattern at an engine time, and holds the player until it finishes.
    ///
    /// A stopped engine with auto-shutdown enabled starts on this request (Core Haptics:
    /// "starts and stops automatically on request from one of its pattern players"), whether
    /// it shut down when idle, was stopped, or never started; without auto-shutdown a player
    /// start on a stopped engine throws ``HapticError/engineNotRunning``.
    func start(_ player: HapticPatternPlayer, at time: TimeInterval, offset: Double) throws(HapticError) {
        let slot = player.slot
        let frame = try frame(for: time)
        let (running, startsOnRequest) = state.withLock { ($0.running, $0.autoShutdown || $0.stoppedForIdleness) }
        if !running {
            guard startsOnRequest else { throw .engineNotRunning }
            try start()
        }
        let run = state.withLock { s -> Int in
            let run = s.nextRun
            s.nextRun += 1
            s.latestRun[slot] = run
            s.activeSlots.insert(slot)
            s.playing[slot] = player
            return run
        }
        do {
            try send(EngineCommand(frame: frame, slot: slot, action: .start(offset: offset, run: run)))
        } catch {
            let released = state.withLock { s -> HapticPatternPlayer? in
                guard s.latestRun[slot] == run else { return nil }
                s.activeSlots.remove(slot)
                return s.playing.removeValue(forKey: slot)
            }
            // Released outside the lock: the player's deinit takes it.
            withExtendedLifetime(released) {}
            throw error
        }
    }

    func setCompletionHandler(slot: Int, _ handler: (@Sendable (Error?) -> Void)?) {
        state.withLock { $0.completionHandlers[slot] = handler }
    }

    /// The render frame for an engine time; in the past or 0 means now.
    func frame(for time: TimeInterval) throws(HapticError) -> Int {
        // Past 2^52 frames (thousands of years) a time no longer converts to a frame, and
        // converting it would trap: refuse it like any other invalid time.
        guard time.isFinite, time >= 0, time * Double(sampleRate) < 0x1p52 else { throw .invalidTime }
        return time == 0 ? EngineCommand.now : Int((time * Double(sampleRate)).rounded())
    }

    /// Queues a command for the audio thread, waiting at most 100 ms for room.
    func send(_ command: EngineCommand) throws(HapticError) {
        let loop = renderLoop()
        var command = command
        if command.frame != EngineCommand.now && command.frame > clock.renderedFrames {
            // It will wait in the audio thread's fixed pending list: refuse rather than let
            // far-future commands fill it and delay the ones that are due sooner.
            guard loop.scheduledCommands.add(1, ordering: .relaxed).newValue <= RenderLoop.schedulingLimit else {
                loop.scheduledCommands.subtract(1, ordering: .relaxed)
                throw .tooManyScheduledCommands(limit: RenderLoop.schedulingLimit)
            }
            command.isScheduled = true
        }
        let deadline = EngineClock.now() + 100_000_000
        while !producerLock.withLock({ _ in loop.commands.push(command) }) {
            if takeCommandsWhileStopped(loop) { continue }
            guard EngineClock.now() < deadline else {
                if command.isScheduled { loop.scheduledCommands.subtract(1, ordering: .relaxed) }
                command.releaseResources()
                throw .commandQueueFull
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
        takeCommandsWhileStopped(loop)
    }

    /// With no audio thread to take them, applies queued commands here (see
    /// ``RenderLoop/applyWhileStopped()``). Skipped when a start or stop is under way: the
    /// audio thread will take them. Returns whether it ran.
    @discardableResult
    private func takeCommandsWhileStopped(_ loop: RenderLoop) -> Bool {
        guard lifecycle.try() else { return false }
        defer { lifecycle.unlock() }
        guard !state.withLock({ $0.running }) else { return false }
        loop.applyWhileStopped()
        return true
    }

    /// The engine's render loop, created on first use and kept for the engine's life so
    /// commands queued while stopped survive to the next start.
    private func renderLoop() -> RenderLoop {
        let (loop, created) = state.withLock { s -> (RenderLoop, Bool) in
            if let loop = s.loop { return (loop, false) }
            let loop = RenderLoop(profile: configuration.profile, sampleRate: sampleRate, gain: configuration.gain)
            s.loop = loop
            return (loop, true)
        }
        // Before any command can produce an event: even a never-started engine hears back
        // (detached slots, dropped starts).
        if created { startNotifier(loop) }
        return loop
    }

    // MARK: Notifications

    private func startNotifier(_ loop: RenderLoop) {
        let thread = Thread { [weak self] in
            while true {
                loop.wake.wait()
                guard let engine = self else { return }
                while let event = loop.events.pop() {
                    engine.handle(event, loop: loop)
                }
            }
        }
        thread.name = "haptics-notify"
        state.withLock { $0.notifier = thread }
        thread.start()
    }

    private func handle(_ event: EngineEvent, loop: RenderLoop) {
        switch event {
        case .detached(let slot):
            let synth = state.withLock { s -> PatternSynth? in
                guard let index = s.retiring.firstIndex(where: { $0.slot == slot }) else { return nil }
                return s.retiring.remove(at: index).synth
            }
            withExtendedLifetime(synth) {}
        case .release(let curve):
            curve.release()
        case .finished(let slot, let run):
            let (handler, keepAlive, allDone) = state.withLock { s -> ((@Sendable (Error?) -> Void)?, HapticPatternPlayer?, Bool) in
                guard s.latestRun[slot] == run else { return (nil, nil, false) }
                s.activeSlots.remove(slot)
                let wasActive = s.finishedHandler != nil && s.activeSlots.isEmpty
                return (s.completionHandlers[slot], s.playing.removeValue(forKey: slot), wasActive)
            }
            handler?(nil)
            // The engine's hold on a started player ends here; a player nobody else holds is
            // released now, outside the lock (its deinit takes it).
            withExtendedLifetime(keepAlive) {}
            if allDone { handlePlayersFinished() }
        case .idle:
            // Marked before stopping, so a player start racing the stop restarts the engine
            // instead of failing with engineNotRunning.
            let handler = state.withLock { s -> (@Sendable (HapticEngineStoppedReason) -> Void)?? in
                guard s.autoShutdown && s.running else { return nil }
                s.stoppedForIdleness = true
                return .some(s.stoppedHandler)
            }
            if let handler {
                stop()
                handler?(.idleTimeout)
            }
        case .ended:
            guard let error = loop.takeEndError() else { return }
            let (handler, output) = state.withLock { s -> ((@Sendable (HapticEngineStoppedReason) -> Void)?, OpenSink?) in
                s.running = false
                s.outputError = error
                let output = s.output
                s.output = nil
                s.audioThread = nil
                s.audioThreadDone = nil
                return (s.stoppedHandler, output)
            }
            output?.close()
            switch error {
            case .output(.deviceLost), .rumble(.deviceLost): handler?(.deviceLost)
            default: handler?(.systemError)
            }
        }
    }

    private func handlePlayersFinished() {
        guard let handler = state.withLock({ s -> (@Sendable (Error?) -> HapticEngineFinishedAction)? in
            let handler = s.finishedHandler
            s.finishedHandler = nil
            return handler
        }) else { return }
        if handler(nil) == .stopEngine {
            let wasRunning = isRunning
            stop()
            if wasRunning { stoppedHandler?(.notifyWhenFinished) }
        }
    }

    /// The error that ended the audio thread, if the output failed.
    public var outputError: HapticError? { state.withLock { $0.outputError } }
}
