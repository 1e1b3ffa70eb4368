import FoundationEssentials
import Glibc
import HapticsRender
import HapticsSystem

// The bodies of the engine's real-time threads: the only code that runs on them besides the
// render loop. Short and linear; no allocation, lock or I/O other than the device's own write.
extension HapticEngine {
    /// The audio thread: render a period, write it, publish the clock; until faded out or
    /// the device fails. Returns the device's error, if any.
    static func runAudioThread(loop: RenderLoop, output: any AudioOutput, clock: EngineClock) -> AudioOutputError? {
        RealtimePriority.raiseCurrentThread(name: "haptics-audio", realtime: output.isPaced)
        let block = loop.blockFrames
        let startedAt = EngineClock.now()
        let startFrame = loop.frame
        // What an idle paced device keeps queued (see below): a period, and never under 5 ms,
        // since a wake-up a few milliseconds late on a busy machine would empty a shorter queue
        // (one 2.5 ms period underran about once every two seconds while idle).
        let idleQueue = max(output.periodFrames, Int(loop.sampleRate * 0.005))
        let pulse = output as? PulseOutput
        let skipping: (any QueuedSilenceSkipping)? = pulse
        var wrote = false
        while true {
            // A player started now on an idle engine is heard at the next frame the device can
            // still take, not behind the silence queued while idle (about a period and a half:
            // it made the standard engine slower to sound than a new paplay). Only when nothing
            // is scheduled ahead: the skipped silence moves the timeline closer to the wall
            // clock, which a start at a chosen time must not feel.
            let idleBefore = wrote && !loop.hasActivePlayers && loop.mailbox.scheduledCommands.load(ordering: .relaxed) == 0
            let samples = loop.renderBlock(frames: block)
            if idleBefore, loop.hasActivePlayers, let skipping { skipping.skipQueuedSilence() }
            wrote = true
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
            // stop arrives, and after 20 ms at most. Not on an output that skips queued silence
            // (it waits for its device): having skipped, it has rendered more than it played,
            // and these naps then let its queue run dry (3 to 11 underruns in 3 s idle, and
            // 150 in 60 rounds of the latency benchmark).
            if skipping == nil && !loop.hasActivePlayers {
                var naps = 0
                while naps < 20 {
                    let wall = Double(EngineClock.now() - startedAt) * 1e-9 * loop.sampleRate
                    guard Double(loop.frame - startFrame) > wall + 0.1 * loop.sampleRate else { break }
                    if loop.nap(nanoseconds: 1_000_000) { break }
                    naps += 1
                }
            }
            // A paced device's queue, while nothing plays, drains to `idleQueue` before more
            // silence is written: a player started now is then heard after that period rather
            // than behind a whole buffer of silence (20 ms: about as late as a new `paplay`
            // process). Naps of at most 1 ms, ending at once when a command or a stop arrives;
            // once anything plays, the buffer fills again as the device allows. An output that
            // skips its queued silence needs none of it: its buffer stays full, the write
            // waits in the device's poll for its request, and the thread wakes once a period
            // with the whole buffer as margin (these naps woke it 986 times a second; one nap
            // per period timed from the lagging queue count underran under load).
            // On pulse the wait for the server's request is the nap, so that a command renders
            // at once (waiting for the request inside the write left a start behind the silent
            // block already rendered: 4.4 ms p50 instead of 0.7 ms).
            if let pulse, !loop.hasActivePlayers { loop.nap { pulse.waitForRoom(frames: block) } }
            if output.isPaced && skipping == nil && !loop.hasActivePlayers {
                var naps = 0
                while naps < 100 {
                    let excess = output.queuedFrames() - idleQueue
                    guard excess > 0 else { break }
                    let nanoseconds = min(1_000_000, Int(Double(excess) * 1e9 / loop.sampleRate))
                    if loop.nap(nanoseconds: max(50_000, nanoseconds)) { break }
                    naps += 1
                }
            }
        }
    }

    /// The rumble thread: every interval, advance the synths, map voices to motor levels and
    /// send them if they changed; paced by the monotonic clock. On the way out (stop, fade-out,
    /// failure) the motors go to zero.
    static func runRumbleThread(loop: RenderLoop, output: any RumbleOutput, clock: EngineClock, gain: Double) -> RumbleOutputError? {
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
            SystemClock.sleep(until: deadline)
        }
    }
}
