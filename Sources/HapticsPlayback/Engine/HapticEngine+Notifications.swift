import FoundationEssentials
import HapticsRender
import HapticsSystem

// The notification thread: what the audio thread reports (runs finished, synths detached,
// idleness, its own end) is handled here, where handlers may run and memory may be freed.
extension HapticEngine {
    func startNotifier(_ mailbox: EngineMailbox) {
        let thread = SystemThread { [weak self] in
            while true {
                mailbox.wake.wait()
                guard let engine = self else { return }
                while let event = mailbox.events.pop() {
                    engine.handle(event, mailbox: mailbox)
                }
            }
        }
        thread.name = "haptics-notify"
        state.withLock { $0.notifier = thread }
        thread.start()
    }

    private func handle(_ event: EngineEvent, mailbox: EngineMailbox) {
        switch event {
        case .detached(let slot):
            let synth = state.withLock { $0.players.detached(slot) }
            withExtendedLifetime(synth) {}
        case .release(let curve):
            curve.release()
        case .finished(let slot, let run):
            let (finished, allDone) = state.withLock { s -> (PlayerTable<PatternSynth, HapticPatternPlayer>.Finished?, Bool) in
                guard let finished = s.players.finish(slot, run: run) else { return (nil, false) }
                return (finished, s.finishedHandler != nil && s.players.isIdle)
            }
            finished?.completionHandler?(nil)
            // The engine's hold on a started player ends here; a player nobody else holds is
            // released now, outside the lock (its deinit takes it).
            withExtendedLifetime(finished?.player) {}
            if allDone { handlePlayersFinished() }
        case .idle(let start):
            // Marked before stopping, so a player start racing the stop restarts the engine
            // instead of failing with engineNotRunning.
            let handler = state.withLock { s -> (@Sendable (HapticEngineStoppedReason) -> Void)?? in
                guard s.autoShutdown && s.running && s.outputStart == start else { return nil }
                s.stoppedForIdleness = true
                return .some(s.stoppedHandler)
            }
            if let handler {
                stop()
                handler?(.idleTimeout)
            }
        case .ended:
            // Recorded in the engine before the loop lets go of it (see `outputError`).
            guard let error = mailbox.endErrorRecorded() else { return }
            let (handler, output) = state.withLock { s -> ((@Sendable (HapticEngineStoppedReason) -> Void)?, OpenSink?) in
                s.running = false
                s.outputError = error
                let output = s.output
                s.output = nil
                s.audioThread = nil
                s.audioThreadDone = nil
                return (s.stoppedHandler, output)
            }
            _ = mailbox.takeEndError()
            output?.close()
            switch error {
            case .output(.deviceLost), .rumble(.deviceLost): handler?(.deviceLost)
            default: handler?(.systemError)
            }
        }
    }

    func handlePlayersFinished() {
        guard
            let handler = state.withLock({ s -> (@Sendable (Error?) -> HapticEngineFinishedAction)? in
                let handler = s.finishedHandler
                s.finishedHandler = nil
                return handler
            })
        else { return }
        if handler(nil) == .stopEngine {
            let wasRunning = isRunning
            stop()
            if wasRunning { stoppedHandler?(.notifyWhenFinished) }
        }
    }
}
