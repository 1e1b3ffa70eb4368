import FoundationEssentials
import Dispatch
import HapticsCore
import HapticsRender
import Synchronization
import HapticsSystem

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
        /// The output: an ALSA device name (`default`, `hw:…`, `plughw:…`, `null`,
        /// `file:'out.wav',wav`), or `pulse` for the PulseAudio (or PipeWire) server, played
        /// through libpulse when it is installed.
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
        public init(
            device: String = "default", profile: ActuatorProfile = .wideband, sampleRate: Int? = nil,
            latency: Duration = .milliseconds(20), gain: Double = 1, idleTimeout: Duration = .seconds(10)
        ) {
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
    let sink: Sink
    let sampleRate: Int
    /// Shortest transient the synths make (rumble motors need 40 ms to spin up).
    let minimumTransientLength: Double
    let clock: EngineClock

    struct State {
        var loop: RenderLoop?
        var output: OpenSink?
        var audioThread: SystemThread?
        var audioThreadDone: SystemSemaphore?
        /// An audio thread that did not end when stopped (its device stopped answering: a
        /// frozen sound server blocks alsa-lib's write, drop and close alike). It still holds
        /// the render loop, so no new one may start until it has ended.
        var stuckThread: SystemSemaphore?
        var running = false
        /// Which start of the render loop the running output is (``RenderLoop/startCount``).
        var outputStart = 0
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
        var players = PlayerTable<PatternSynth, HapticPatternPlayer>(slotCount: RenderLoop.slotCount)
        var notifier: SystemThread?
    }

    let state = Locked(State())
    /// Serialises producers of the command queue (the audio thread never takes it).
    let producerLock = SystemLock()
    /// Serialises ``start()`` and ``stop()`` (held while the output opens or drains; never
    /// taken by the audio thread, nor while a handler runs).
    let lifecycle = SystemLock()

    /// Creates an engine for a device: an ALSA PCM name, or `pulse` for the PulseAudio server
    /// (see ``Configuration/device``). Nothing opens until ``start()``.
    public convenience init(configuration: Configuration = Configuration()) {
        let device = configuration.device
        self.init(configuration: configuration) { rate, channels, latency throws(AudioOutputError) in
            try AudioDevice.open(device, sampleRate: rate, channelCount: channels, latency: latency)
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
    public init(
        rumble output: @escaping RumbleOutputFactory, intervalMilliseconds: Int = 10, gain: Double = 1,
        idleTimeout: Duration = .seconds(10)
    ) {
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
            loop.mailbox.requestFadeOutAndStop()
            if done?.wait(nanoseconds: 500_000_000) == false {
                output?.interrupt()
                _ = done?.wait(nanoseconds: 500_000_000)
            }
            // No `.ended` from here: the audio thread posts its own, and the events queue
            // takes one producer (the notification thread, seeing the engine gone, ignores it).
        }
        output?.close()
        if wasRunning { handler?(.engineDestroyed) }
        // Wake the notification thread so it sees the engine gone and ends (it holds the loop).
        if let loop = state.withLock({ $0.notifier != nil ? $0.loop : nil }) { loop.mailbox.wake.signal() }
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
            let loop = state.withLock { s -> RenderLoop? in
                s.autoShutdown = newValue
                return s.loop
            }
            loop?.mailbox.idleTimeoutFrames.store(newValue ? idleTimeoutFrames : 0, ordering: .relaxed)
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

    /// The error that ended the audio thread, if the output failed.
    public var outputError: HapticError? {
        // The loop's record first: the notification thread copies it here before taking it,
        // so between the two reads one of them holds it.
        if let recorded = state.withLock({ $0.loop })?.mailbox.endErrorRecorded() { return recorded }
        return state.withLock { $0.outputError }
    }

    /// Samples clipped at the output so far.
    public var clippedSamples: Int { state.withLock { $0.loop?.mailbox.clippedSamples ?? 0 } }

    var idleTimeoutFrames: Int {
        let c = configuration.idleTimeout.components
        return max(1, Int((Double(c.seconds) + Double(c.attoseconds) * 1e-18) * Double(sampleRate)))
    }

    // MARK: Start and stop

    /// Opens the output and starts the audio thread. Does nothing if already running.
    ///
    /// - Throws: ``HapticError/output(_:)`` naming the device when it is missing, busy or
    ///   cannot play the profile's format.
    public func start() throws(HapticError) {
        try start(countingIdleness: true)
    }

    /// The auto-shutdown countdown of the running loop, back on after a start that held it
    /// (see ``start(countingIdleness:)``).
    func resumeIdleCountdown() {
        state.withLock { $0.loop }?.mailbox.idleTimeoutFrames.store(isAutoShutdownEnabled ? idleTimeoutFrames : 0, ordering: .relaxed)
    }

    /// ``start()``; with `countingIdleness` false the auto-shutdown countdown stays off until
    /// ``resumeIdleCountdown()``, for a start on a player's request. `prime`, when this call
    /// starts the engine, runs just before the audio thread does (and its error is thrown once
    /// the thread runs): what it queues is in the first period the thread renders. Returns
    /// whether it ran (not when the engine was running already).
    @discardableResult
    func start(countingIdleness: Bool, prime: (() throws(HapticError) -> Void)? = nil) throws(HapticError) -> Bool {
        // One start or stop at a time: two racing starts would each open the device and run
        // an audio thread on the same render loop, and a start during a stop's fade-out would
        // re-arm the loop under the thread that is ending.
        lifecycle.lock()
        defer { lifecycle.unlock() }
        if state.withLock({ $0.running }) { return false }
        if let stuck = state.withLock({ $0.stuckThread }) {
            guard stuck.wait(nanoseconds: 0) else {
                throw .output(
                    .deviceUnavailable(
                        device: configuration.device,
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
            var interrupt: (@Sendable () -> Void)?
            if let pulse = output as? PulseOutput { interrupt = { [weak pulse] in pulse?.interruptWait() } }
            loop.mailbox.deviceWaitInterrupt.withLock { $0 = interrupt }
        case .rumble:
            if case .rumble(_, let interval) = sink { loop.configureOutput(channelCount: 1, periodFrames: interval) }
        }
        let families = state.withLock { (haptics: !$0.playsAudioOnly, audio: !$0.playsHapticsOnly) }
        loop.setFamilies(haptics: families.haptics, audio: families.audio)
        loop.prepareForStart()
        let outputStart = loop.startCount
        loop.mailbox.idleTimeoutFrames.store(countingIdleness && isAutoShutdownEnabled ? idleTimeoutFrames : 0, ordering: .relaxed)
        let done = SystemSemaphore(value: 0)
        let clock = self.clock
        let gain = configuration.gain
        let thread = SystemThread {
            let error: HapticError?
            switch opened {
            case .audio(let output): error = Self.runAudioThread(loop: loop, output: output, clock: clock).map { .output($0) }
            case .rumble(let output): error = Self.runRumbleThread(loop: loop, output: output.base, clock: clock, gain: gain).map { .rumble($0) }
            }
            // The error first: a player's completion, which the stop below posts, may lead its
            // handler to ask for `outputError` before the notification thread takes the end.
            loop.mailbox.setEndError(error)
            loop.stopAllPlayers()
            clock.setRunning(false)
            // Last: once `done` is signalled a stopped engine may take the loop's commands
            // itself, posting events, and the event queue takes one producer at a time.
            loop.mailbox.post(.ended)
            done.signal()
        }
        thread.name = "haptics-audio"
        let reset = state.withLock { s -> (@Sendable () -> Void)? in
            let recovering = s.outputError != nil
            s.output = opened
            s.audioThread = thread
            s.audioThreadDone = done
            s.running = true
            s.outputStart = outputStart
            s.stoppedForIdleness = false
            s.outputError = nil
            return recovering ? s.resetHandler : nil
        }
        clock.setRunning(true)
        var primingError: HapticError?
        do throws(HapticError) { try prime?() } catch { primingError = error }
        thread.start()
        if let reset { DispatchQueue.global().async { reset() } }
        if let primingError { throw primingError }
        return true
    }

    /// Fades the output out over 5 ms, lets the device play what it holds, closes it and
    /// stops the audio thread. Every player stops (completion handlers are called); players
    /// stay valid, so start the engine again and start them to play again.
    public func stop() {
        lifecycle.lock()
        defer { lifecycle.unlock() }
        guard
            let (loop, done, output) = state.withLock({ s -> (RenderLoop, SystemSemaphore, OpenSink)? in
                guard s.running, let loop = s.loop, let done = s.audioThreadDone, let output = s.output else { return nil }
                s.running = false
                return (loop, done, output)
            })
        else { return }
        loop.mailbox.requestFadeOutAndStop()
        // The fade, what the device holds, and a margin.
        let latency = configuration.latency.components
        let drainTime = 0.25 + Double(latency.seconds) + Double(latency.attoseconds) * 1e-18
        if !done.wait(nanoseconds: Int(drainTime * 1e9)) {
            // A device that stopped taking samples: unblock the write and give up on draining.
            // From another thread, since the unblocking call may block as well.
            SystemThread.detachNewThread { output.interrupt() }
            if !done.wait(nanoseconds: 250_000_000) {
                // The device does not answer at all. Leave the thread and the device to close
                // themselves if it ever does; stop() returns rather than hang its caller.
                state.withLock { s in
                    s.output = nil
                    s.audioThread = nil
                    s.audioThreadDone = nil
                    s.stuckThread = done
                }
                SystemThread.detachNewThread {
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
}
