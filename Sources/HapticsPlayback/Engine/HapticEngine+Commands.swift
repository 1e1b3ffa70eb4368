import FoundationEssentials
import Glibc

// The way in to the audio thread: commands stamped with their render frame, through a
// single-producer queue; a stopped engine applies them itself.
extension HapticEngine {
    /// The render frame for an engine time; in the past or 0 means now.
    func frame(for time: TimeInterval) throws(HapticError) -> Int {
        // Past 2^52 frames (thousands of years) a time no longer converts to a frame, and
        // converting it would trap: refuse it like any other invalid time.
        guard time.isFinite, time >= 0, time * Double(sampleRate) < 0x1p52 else { throw .invalidTime }
        return time == 0 ? EngineCommand.now : Int((time * Double(sampleRate)).rounded())
    }

    /// Queues a command for the audio thread, waiting at most 100 ms for room.
    func send(_ command: EngineCommand) throws(HapticError) {
        let mailbox = renderLoop().mailbox
        var command = command
        if command.frame != EngineCommand.now && command.frame > clock.renderedFrames {
            // It will wait in the audio thread's fixed pending list: refuse rather than let
            // far-future commands fill it and delay the ones that are due sooner.
            guard mailbox.scheduledCommands.add(1, ordering: .relaxed).newValue <= RenderLoop.schedulingLimit else {
                mailbox.scheduledCommands.subtract(1, ordering: .relaxed)
                throw .tooManyScheduledCommands(limit: RenderLoop.schedulingLimit)
            }
            command.isScheduled = true
        }
        let deadline = EngineClock.now() + 100_000_000
        while !producerLock.withLock({ mailbox.commands.push(command) }) {
            if takeCommandsWhileStopped() { continue }
            guard EngineClock.now() < deadline else {
                if command.isScheduled { mailbox.scheduledCommands.subtract(1, ordering: .relaxed) }
                command.releaseResources()
                throw .commandQueueFull
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
        }
        mailbox.endNap()
        takeCommandsWhileStopped()
    }

    /// With no audio thread to take them, applies queued commands here (see
    /// ``RenderLoop/applyWhileStopped()``). Skipped when a start or stop is under way (the
    /// audio thread will take them) and while a stuck audio thread still holds the loop.
    /// Returns whether it ran.
    @discardableResult
    func takeCommandsWhileStopped() -> Bool {
        guard lifecycle.tryLock() else { return false }
        defer { lifecycle.unlock() }
        // The loop is this side's only while no audio thread holds it (see RenderLoop.swift's
        // table): not while one runs, nor while one that stopped answering has not ended.
        let loop = state.withLock { s -> RenderLoop? in
            guard !s.running, let loop = s.loop else { return nil }
            if let stuck = s.stuckThread {
                guard stuck.wait(nanoseconds: 0) else { return nil }
                stuck.signal()
                s.stuckThread = nil
            }
            return loop
        }
        guard let loop else { return false }
        loop.applyWhileStopped()
        return true
    }

    /// The engine's render loop, created on first use and kept for the engine's life so
    /// commands queued while stopped survive to the next start.
    func renderLoop() -> RenderLoop {
        let (loop, created) = state.withLock { s -> (RenderLoop, Bool) in
            if let loop = s.loop { return (loop, false) }
            let loop = RenderLoop(profile: configuration.profile, sampleRate: sampleRate, gain: configuration.gain)
            s.loop = loop
            return (loop, true)
        }
        // Before any command can produce an event: even a never-started engine hears back
        // (detached slots, dropped starts).
        if created { startNotifier(loop.mailbox) }
        return loop
    }
}
