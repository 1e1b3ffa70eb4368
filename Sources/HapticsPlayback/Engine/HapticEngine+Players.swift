import FoundationEssentials
import HapticsCore
import HapticsRender

// Players: making them, and the steps of their life the engine carries out for them (a slot
// claimed, a run started, a slot let go).
extension HapticEngine {
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
            return s.players.isIdle
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
        let synth = PatternSynth(
            pattern: pattern, profile: configuration.profile, sampleRate: Double(sampleRate),
            minimumTransientLength: minimumTransientLength)
        guard
            let slot = state.withLock({ s -> Int? in
                s.players.claim(for: synth)
            })
        else { throw .tooManyPlayers(limit: RenderLoop.slotCount) }
        let retained = Unmanaged.passRetained(synth)
        do {
            try send(EngineCommand(frame: EngineCommand.now, slot: slot, action: .attach(retained)))
        } catch {
            // Never reached the audio thread: give the slot and the retain back.
            retained.release()
            state.withLock { $0.players.unclaim(slot) }
            throw error
        }
        return slot
    }

    /// Releases a slot (player deinit). The slot is free at once; the synth is freed when the
    /// audio thread confirms.
    func detach(slot: Int) {
        // Retired before the detach is sent: the audio thread may confirm it at once.
        state.withLock { $0.players.retire(slot) }
        do {
            try send(EngineCommand(frame: EngineCommand.now, slot: slot, action: .detach))
            state.withLock { $0.players.free(slot) }
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
        if !running && !startsOnRequest { throw .engineNotRunning }
        let run = state.withLock { $0.players.begin(slot, player: player) }
        let command = EngineCommand(frame: frame, slot: slot, action: .start(offset: offset, run: run))
        do {
            var queued = false
            if !running {
                // The start is queued before the audio thread runs, so the first period it
                // renders holds this player's sound: a period sooner than behind the silence
                // a thread already running writes first. And without the idle countdown until
                // then: a device that takes samples as fast as they come let the thread render
                // the whole timeout of silence before the start arrived, and the engine stopped
                // again at once (seen on a loaded machine).
                defer { resumeIdleCountdown() }
                queued = try start(countingIdleness: false) { () throws(HapticError) in try self.send(command) }
            }
            // Running already, or another thread started it meanwhile.
            if !queued { try send(command) }
        } catch {
            let released = state.withLock { $0.players.cancel(slot, run: run) }
            // Released outside the lock: the player's deinit takes it.
            withExtendedLifetime(released) {}
            throw error
        }
    }

    func setCompletionHandler(slot: Int, _ handler: (@Sendable (Error?) -> Void)?) {
        state.withLock { $0.players.setCompletionHandler(handler, for: slot) }
    }
}
