import Foundation
import Haptics
import HapticsSystem

/// The connection to the haptic output, as in Apple's SDK: it starts and stops the output,
/// makes players, and reports when it stopped on its own.
///
/// ```swift
/// guard CHHapticEngine.capabilitiesForHardware().supportsHaptics else { return }
/// engine = try CHHapticEngine()
/// engine?.stoppedHandler = { reason in print("stopped: \(reason)") }
/// engine?.resetHandler = { [weak self] in try? self?.engine?.start() }
/// try engine?.start()
/// let player = try engine?.makePlayer(with: pattern)
/// try player?.start(atTime: CHHapticTimeImmediate)
/// ```
///
/// On Linux the engine plays through a native `HapticEngine` (``hapticEngine``) on the
/// output `HapticOutputSelection` chooses: the `HAPTICS_DEVICE` environment variable (any
/// ALSA name, including `null` and `file:'/tmp/x.wav',wav`, or an evdev node), then the user's
/// settings, then the best haptic actuator found (a vibration motor, the DualSense's audio
/// haptics, a gamepad's rumble), else nothing (`null`: never the speakers unless configured).
/// Several engines may exist at once, each with its own output.
///
/// Threads: methods may be called from any thread (the class is not `Sendable`, as in Apple's
/// SDK, so that subclasses need not be). ``start(completionHandler:)`` and
/// ``stop(completionHandler:)`` run in order on the engine's own queue, and `start()` waits
/// for a stop requested before it. Handlers (`stoppedHandler`, `resetHandler`, finished and
/// completion handlers) are not `@Sendable`, as in Apple's SDK, so closures written in
/// main-actor code that capture `self` compile unchanged; as there, they are called on the
/// engine's background threads, never the main thread. A closure written in main-actor code
/// is isolated to the main actor, and Swift 6 checks isolation at run time in some places
/// (closures nested in it, such as a `Mutex.withLock` body, trap off the main thread), so
/// touch main-actor state from a handler through `Task { @MainActor in … }` or
/// `DispatchQueue.main.async { … }`, as Swift 6 apps must on Apple's platforms too.
open class CHHapticEngine {
    /// Called after ``start(completionHandler:)`` or ``stop(completionHandler:)`` completes,
    /// with the error if it failed.
    public typealias CompletionHandler = ((any Error)?) -> Void
    /// Called when no player is active any more; the answer stops the engine or not.
    public typealias FinishedHandler = ((any Error)?) -> CHHapticEngine.FinishedAction
    /// Called when the engine stopped on its own, with why.
    public typealias StoppedHandler = (CHHapticEngine.StoppedReason) -> Void
    /// Called after the engine reset itself following a failure of its output.
    public typealias ResetHandler = () -> Void

    /// What ``notifyWhenPlayersFinished(finishedHandler:)``'s handler asks for.
    public enum FinishedAction: Int, Sendable {
        /// Stop the engine (``stoppedHandler`` is then called with ``StoppedReason/notifyWhenFinished``).
        case stopEngine = 1
        /// Keep it running.
        case leaveEngineRunning = 2
    }

    /// Why the engine stopped on its own.
    public enum StoppedReason: Int, Sendable {
        /// Another client interrupted the output (not raised on Linux).
        case audioSessionInterrupt = 1
        /// The app was suspended (not raised on Linux: processes are not suspended).
        case applicationSuspended = 2
        /// Auto-shutdown stopped the idle engine (``isAutoShutdownEnabled``).
        case idleTimeout = 3
        /// A finished handler returned ``FinishedAction/stopEngine``.
        case notifyWhenFinished = 4
        /// The engine was released while running.
        case engineDestroyed = 5
        /// The output device went away: an unplugged gamepad or sound card.
        case gameControllerDisconnect = 6
        /// The output failed for another reason.
        case systemError = -1
    }

    /// The native engine everything plays on.
    public let hapticEngine: HapticEngine
    /// The output this engine was made for.
    package let outputSelection: HapticOutputSelection
    private let handlers = Handlers()
    private let resources = AudioResources()
    /// Reopens a failed output by itself, as Apple's engine resets, then calls the reset handler.
    private lazy var recovery = Recovery(engine: hapticEngine)
    /// Runs start and stop requests in order.
    private let lifecycle = DispatchQueue(label: "CHHapticEngine.lifecycle")

    /// Creates an engine on the output chosen by `HapticOutputSelection.current`. Nothing
    /// opens until `start()`, so on Linux this never throws; a missing device is reported
    /// by `start()` (``CHHapticError/Code/serverInitFailed``).
    public init() throws {
        (hapticEngine, outputSelection) = Self.makeNativeEngine()
        installHandlers()
    }

    /// For tests of code that makes its own engines: inside `$nativeEngineFactory.withValue`,
    /// ``init()`` and ``init(audioSession:)`` use the factory's native engine (say one on a
    /// recording output) instead of the selected ALSA device.
    @TaskLocal package static var nativeEngineFactory: (@Sendable () -> HapticEngine)?

    private static func makeNativeEngine() -> (HapticEngine, HapticOutputSelection) {
        if let factory = nativeEngineFactory {
            let engine = factory()
            return (engine, HapticOutputSelection(device: engine.configuration.device, profile: engine.configuration.profile))
        }
        let selection = HapticOutputSelection.current
        return (selection.makeEngine(), selection)
    }

    /// Creates an engine; the audio session has no meaning on Linux (see ``AVAudioSession``):
    /// the engine is the same as ``init()``'s.
    public init(audioSession: AVAudioSession?) throws {
        (hapticEngine, outputSelection) = Self.makeNativeEngine()
        installHandlers()
    }

    /// Creates an engine over a native engine, such as one on a gamepad's rumble motors
    /// (`HapticEngine(rumble:)`) or a custom output. The native engine's stopped and reset
    /// handlers are replaced by this engine's.
    public init(hapticEngine: HapticEngine) {
        self.hapticEngine = hapticEngine
        outputSelection = HapticOutputSelection(device: hapticEngine.configuration.device, profile: hapticEngine.configuration.profile)
        installHandlers()
    }

    private func installHandlers() {
        let recovery = self.recovery
        // A program that exits without stopping the engine still has its output closed, after
        // what it started has been heard (within 2 s): a file device then holds a valid WAV.
        EnginesAtExit.register(hapticEngine)
        let handlers = self.handlers
        hapticEngine.stoppedHandler = { reason in
            let mapped: StoppedReason =
                switch reason {
                case .audioSessionInterrupt: .audioSessionInterrupt
                case .applicationSuspended: .applicationSuspended
                case .idleTimeout: .idleTimeout
                case .notifyWhenFinished: .notifyWhenFinished
                case .engineDestroyed: .engineDestroyed
                case .deviceLost: .gameControllerDisconnect
                case .systemError: .systemError
                }
            // Before the handler, so that an app stopping the engine there cancels the reset.
            if mapped == .gameControllerDisconnect || mapped == .systemError { recovery.begin() }
            handlers.lock.withLock { handlers.stopped }.value(mapped)
        }
        hapticEngine.resetHandler = { handlers.lock.withLock { handlers.reset }.value() }
    }

    deinit { recovery.cancel() }

    // MARK: Capabilities

    /// What this machine can play: haptics exactly when the chosen output is a haptic
    /// actuator (one found, or a configured device other than the sound system's `default`,
    /// `pulse`: speakers are not one), audio when it plays sound; the attributes describe the
    /// chosen output.
    open class func capabilitiesForHardware() -> any CHHapticDeviceCapability {
        let selection = HapticOutputSelection.current
        return OutputCapability(selection: selection, supportsHaptics: selection.isHapticActuator)
    }

    // MARK: Handlers and flags

    /// Called when the engine stops on its own (idle timeout, a finished handler's answer,
    /// a lost device, release while running), not after ``stop(completionHandler:)``.
    /// Runs on the engine's notification thread.
    open var stoppedHandler: StoppedHandler {
        get { handlers.lock.withLock { handlers.stopped.value } }
        set { handlers.lock.withLock { handlers.stopped = Unchecked(value: newValue) } }
    }

    /// Called after the engine was reset, as on iOS: when its output fails (a device unplugged,
    /// the sound server restarted), ``stoppedHandler`` is called, then the engine tries to
    /// open the output again by itself (after 0.1 s, then at doubling intervals up to 2 s,
    /// until the app stops or releases it) and calls this once it runs again. Also after a
    /// `start()` that reopened a failed output. Players are kept, but what was playing
    /// stopped: restart it here (calling `start()` here, as apps do, is harmless). Runs on a
    /// background queue.
    open var resetHandler: ResetHandler {
        get { handlers.lock.withLock { handlers.reset.value } }
        set { handlers.lock.withLock { handlers.reset = Unchecked(value: newValue) } }
    }

    /// Whether the engine ignores audio events; takes effect at the next start.
    open var playsHapticsOnly: Bool {
        get { hapticEngine.playsHapticsOnly }
        set { hapticEngine.playsHapticsOnly = newValue }
    }

    /// Whether the engine plays audio events only; takes effect at the next start.
    open var playsAudioOnly: Bool {
        get { hapticEngine.playsAudioOnly }
        set { hapticEngine.playsAudioOnly = newValue }
    }

    /// Silences audio events without stopping players.
    open var isMutedForAudio: Bool {
        get { hapticEngine.isMutedForAudio }
        set { hapticEngine.isMutedForAudio = newValue }
    }

    /// Silences haptic events without stopping players.
    open var isMutedForHaptics: Bool {
        get { hapticEngine.isMutedForHaptics }
        set { hapticEngine.isMutedForHaptics = newValue }
    }

    /// Whether the engine stops after 10 s without an active player (calling
    /// ``stoppedHandler`` with ``StoppedReason/idleTimeout``) and starts again when a player
    /// starts. Off by default.
    open var isAutoShutdownEnabled: Bool {
        get { hapticEngine.isAutoShutdownEnabled }
        set { hapticEngine.isAutoShutdownEnabled = newValue }
    }

    /// The engine clock in seconds, for scheduling player commands.
    open var currentTime: TimeInterval { hapticEngine.currentTime }

    // MARK: Start and stop

    /// Starts the engine, blocking until it runs (after any stop requested before).
    /// - Throws: ``CHHapticError/Code/serverInitFailed`` when the output cannot be opened.
    open func start() throws {
        let native = hapticEngine
        try lifecycle.sync { try Self.start(native) }
    }

    /// Starts the engine in the background and calls `completionHandler` (on a background
    /// queue) with nil or the error.
    open func start(completionHandler: CompletionHandler? = nil) {
        let handler = Unchecked(value: completionHandler)
        let native = hapticEngine
        lifecycle.async {
            var failure: (any Error)?
            do { try Self.start(native) } catch { failure = error }
            let result = Unchecked(value: failure)
            DispatchQueue.global().async { handler.value?(result.value) }
        }
    }

    /// Starts the engine. Runs on the caller's actor (`nonisolated(nonsending)`), so
    /// main-actor code can await it on the engine it holds.
    nonisolated(nonsending) open func start() async throws {
        let native = hapticEngine
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            lifecycle.async {
                do {
                    try Self.start(native)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Stops the engine in the background: players stop (sounds fade out over 5 ms), the
    /// output closes, then `completionHandler` is called (on a background queue). The
    /// ``stoppedHandler`` is not called. Players stay valid: start the engine again to use them.
    open func stop(completionHandler: CompletionHandler? = nil) {
        let handler = Unchecked(value: completionHandler)
        let native = hapticEngine
        recovery.cancel()
        lifecycle.async {
            native.stop()
            DispatchQueue.global().async { handler.value?(nil) }
        }
    }

    /// Stops the engine (see ``stop(completionHandler:)``). Runs on the caller's actor.
    nonisolated(nonsending) open func stop() async throws {
        let native = hapticEngine
        recovery.cancel()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lifecycle.async {
                native.stop()
                continuation.resume()
            }
        }
    }

    private static func start(_ native: HapticEngine) throws(CHHapticError) {
        do { try native.start() } catch { throw CHHapticError(error) }
    }

    /// Calls `finishedHandler` once no player is active (soon if none is or the engine is
    /// stopped); its answer stops the engine or leaves it running. Asynchronous, as Apple's
    /// header says: the handler runs on the engine's notification thread, or, when nothing
    /// was playing, on a background queue after this call has returned; never on the caller's
    /// thread inside this call.
    open func notifyWhenPlayersFinished(finishedHandler: @escaping CHHapticEngine.FinishedHandler) {
        let handler = Unchecked(value: finishedHandler)
        let native = hapticEngine
        // The native engine answers at once, on this thread, when nothing plays: hand that
        // answer to a background queue, where the engine is stopped if the handler asks.
        let caller = pthread_self()
        let call = CallInProgress()
        native.notifyWhenPlayersFinished { error in
            let mappedError = Unchecked(value: error.map { CHHapticError.wrapping($0) })
            let synchronous = call.isInProgress && pthread_equal(pthread_self(), caller) != 0
            guard synchronous else {
                return handler.value(mappedError.value) == .stopEngine ? .stopEngine : .leaveEngineRunning
            }
            // The answer applies to the engine as it was at the call: a stopped engine stays
            // as the app leaves it (Apple's single-tap sample asks before it starts the
            // engine, and its tap plays), a running one stops.
            let wasRunning = native.isRunning
            DispatchQueue.global().async {
                call.waitUntilEnded()
                guard handler.value(mappedError.value) == .stopEngine, wasRunning, native.isRunning else { return }
                native.stop()
                native.stoppedHandler?(.notifyWhenFinished)
            }
            return .leaveEngineRunning
        }
        call.end()
    }

    // MARK: Players

    /// Creates a player for a pattern.
    /// - Throws: ``CHHapticError/Code/invalidPatternData`` for an empty pattern, or a wrapped
    ///   native pattern with a time, duration or value that is not finite or a time past
    ///   3,600 s; ``CHHapticError/Code/invalidAudioResource`` for an unregistered audio resource,
    ///   ``CHHapticError/Code/memoryError`` when every player slot is in use.
    open func makePlayer(with pattern: CHHapticPattern) throws -> any CHHapticPatternPlayer {
        let (native, release) = try prepare(pattern)
        do {
            return NativePatternPlayer(try hapticEngine.makePlayer(with: native), pattern: native, onRelease: release)
        } catch {
            release?()
            throw CHHapticError(error)
        }
    }

    /// Creates a player that can also pause, resume, seek, loop and change rate.
    /// - Throws: as ``makePlayer(with:)``.
    open func makeAdvancedPlayer(with pattern: CHHapticPattern) throws -> any CHHapticAdvancedPatternPlayer {
        let (native, release) = try prepare(pattern)
        do {
            return NativeAdvancedPatternPlayer(try hapticEngine.makeAdvancedPlayer(with: native), pattern: native, onRelease: release)
        } catch {
            release?()
            throw CHHapticError(error)
        }
    }

    /// The native pattern with this engine's audio resources, and what releases them.
    private func prepare(_ pattern: CHHapticPattern) throws(CHHapticError) -> (HapticPattern, (@Sendable () -> Void)?) {
        // What the pattern's events held that cannot play, found when it was made.
        if let unplayable = pattern.unplayable { throw unplayable }
        // A wrapped native pattern was never checked: a time of 10¹⁴ s would trap the audio thread.
        try NumericInput.checkPlayable(pattern.hapticPattern)
        let ids = Set(pattern.audioResourceIDs.values)
        guard !ids.isEmpty else { return (pattern.hapticPattern, nil) }
        let resources = self.resources
        resources.lock.lock()
        defer { resources.lock.unlock() }
        let native = try pattern.resolved { resources.registered[$0] }
        for id in ids { resources.users[id, default: 0] += 1 }
        return (native, { resources.release(ids) })
    }

    /// Plays an AHAP file now, fire-and-forget, starting the engine if needed.
    /// - Throws: ``CHHapticError/Code/fileNotFound``, ``CHHapticError/Code/invalidPatternData``
    ///   or the code naming the element at fault; or the engine's start error.
    open func playPattern(from fileURL: URL) throws {
        let pattern = try CHHapticPattern(contentsOf: fileURL)
        try play(pattern.hapticPattern)
    }

    /// Plays AHAP data now, fire-and-forget, starting the engine if needed. A relative
    /// `EventWaveformPath` is relative to the top of the app's bundle, as on iOS.
    /// - Throws: as ``playPattern(from:)-(URL)``.
    open func playPattern(from data: Data) throws {
        let pattern: HapticPattern
        do {
            pattern = try AHAPDecoder().decode(data, baseDirectory: PatternDictionary.bundleFolder).pattern
        } catch {
            throw CHHapticError(error, fallback: .invalidPatternData)
        }
        try play(pattern)
    }

    private func play(_ pattern: HapticPattern) throws {
        if !hapticEngine.isRunning { try start() }
        do { try hapticEngine.playPattern(pattern) } catch { throw CHHapticError(error) }
    }

    // MARK: Audio resources

    /// Registers a sound file for ``CHHapticEvent/init(audioResourceID:parameters:relativeTime:)``.
    ///
    /// Every format libsndfile reads plays (WAV, AIFF, CAF, FLAC, Ogg, MP3, …), mono or stereo,
    /// resampled to the output's rate by libsoxr.
    ///
    /// - Parameters:
    ///   - resourceURL: a local sound file.
    ///   - options: ``CHHapticAudioResourceKeyUseVolumeEnvelope`` and
    ///     ``CHHapticAudioResourceKeyLoopEnabled`` (`Bool`s).
    /// - Returns: the resource's ID (never 0).
    /// - Throws: ``CHHapticError/Code/fileNotFound`` when there is no such file,
    ///   ``CHHapticError/Code/invalidAudioResource`` for a URL that is not a local file or a
    ///   file that is not a sound that can be decoded (the error names the file and why).
    open func registerAudioResource(_ resourceURL: URL, options: [AnyHashable: Any] = [:]) throws -> CHHapticAudioResourceID {
        guard resourceURL.isFileURL else {
            throw CHHapticError(.invalidAudioResource, "only local files can be audio resources, not \(resourceURL.absoluteString)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resourceURL.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw CHHapticError(.fileNotFound, "no such audio file: \(resourceURL.path)")
        }
        // Decoded now, as Apple verifies the file at registration: a sound that cannot be
        // decoded is an error here, never silence when it plays.
        do {
            _ = try AudioClip.load(path: resourceURL.path)
        } catch {
            throw CHHapticError(error.reason == .missing ? .fileNotFound : .invalidAudioResource, error.description)
        }
        func flag(_ key: String) -> Bool? {
            for (candidate, value) in options {
                let name = (candidate.base as? String) ?? (candidate.base as? NSString).map(String.init)
                guard name == key else { continue }
                if let flag = value as? Bool { return flag }
                if let number = value as? NSNumber { return number.boolValue }
            }
            return nil
        }
        let resource = HapticEvent.AudioResource(
            path: resourceURL.path,
            usesVolumeEnvelope: flag(CHHapticAudioResourceKeyUseVolumeEnvelope),
            loopEnabled: flag(CHHapticAudioResourceKeyLoopEnabled))
        return resources.register(resource)
    }

    /// Unregisters an audio resource.
    /// - Throws: ``CHHapticError/Code/invalidAudioResource`` for an ID that is not
    ///   registered, ``CHHapticError/Code/operationNotPermitted`` while a player made with it
    ///   still exists (release the player first).
    open func unregisterAudioResource(_ resourceID: CHHapticAudioResourceID) throws {
        try resources.unregister(resourceID)
    }

    // MARK: NSObject's identity

    /// The instance's class and address (`<CHHapticEngine: 0x…>`), as `NSObject` describes it.
    open var description: String { instanceDescription(self) }
    /// The same as ``description``.
    open var debugDescription: String { description }
    /// Whether `object` is this very instance (override to compare by value, with ``hash``).
    open func isEqual(_ object: Any?) -> Bool { object.map { $0 as AnyObject } === self }
    /// The instance's identity as a number (override with ``isEqual(_:)``).
    open var hash: Int { ObjectIdentifier(self).hashValue }
}

/// The engine's handlers, shared with the native engine's callbacks (which may run while the
/// engine is being released, to report ``CHHapticEngine/StoppedReason/engineDestroyed``).
private final class Handlers: @unchecked Sendable {
    let lock = SystemLock()
    var stopped = Unchecked<CHHapticEngine.StoppedHandler>(value: { _ in })
    var reset = Unchecked<CHHapticEngine.ResetHandler>(value: {})
}

/// Brings an engine whose output failed (a device unplugged, the sound server restarted, an
/// output error) back, as Apple's engine resets itself: it tries to start the native engine
/// again, 0.1 s after the failure and then at doubling intervals of at most 2 s, until it runs,
/// the app stops the engine or the engine is released. The native engine calls the reset
/// handler when such a start succeeds; apps restart their players there.
private final class Recovery: @unchecked Sendable {
    private let lock = SystemLock()
    private weak var engine: HapticEngine?
    /// Bumped by each failure and each cancel: an attempt of an older generation gives up.
    private var generation = 0

    init(engine: HapticEngine) { self.engine = engine }

    func begin() {
        let current = lock.withLock {
            generation += 1
            return generation
        }
        attempt(current, after: 0.1)
    }

    func cancel() { lock.withLock { generation += 1 } }

    private func attempt(_ current: Int, after delay: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, self.lock.withLock({ self.generation == current }), let engine = self.engine, !engine.isRunning else { return }
            do {
                try engine.start()
            } catch {
                self.attempt(current, after: min(2, delay * 2))
            }
        }
    }
}

/// Whether a call is still running, for a callback to tell whether it runs inside it, and
/// to wait until it has returned.
private final class CallInProgress: @unchecked Sendable {
    private let lock = SystemLock()
    private var inProgress = true
    private let ended = SystemSemaphore(value: 0)
    var isInProgress: Bool { lock.withLock { inProgress } }

    func end() {
        lock.withLock { inProgress = false }
        ended.signal()
    }

    func waitUntilEnded() {
        ended.wait()
        ended.signal()
    }
}

/// Registered audio resources and how many players use each.
private final class AudioResources: @unchecked Sendable {
    let lock = SystemLock()
    var registered: [CHHapticAudioResourceID: HapticEvent.AudioResource] = [:]
    var users: [CHHapticAudioResourceID: Int] = [:]
    private var nextID = 1

    func register(_ resource: HapticEvent.AudioResource) -> CHHapticAudioResourceID {
        lock.withLock {
            let id = nextID
            nextID += 1
            registered[id] = resource
            return id
        }
    }

    func unregister(_ id: CHHapticAudioResourceID) throws(CHHapticError) {
        lock.lock()
        defer { lock.unlock() }
        guard registered[id] != nil else {
            throw CHHapticError(.invalidAudioResource, "audio resource \(id) is not registered")
        }
        guard (users[id] ?? 0) == 0 else {
            throw CHHapticError(.operationNotPermitted, "audio resource \(id) is used by a player; release the player first")
        }
        registered[id] = nil
    }

    func release(_ ids: Set<CHHapticAudioResourceID>) {
        lock.withLock {
            for id in ids { users[id, default: 1] -= 1 }
        }
    }
}
