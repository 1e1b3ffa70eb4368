import Foundation
import HapticsCore
import HapticsRender
import Synchronization
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// Edge cases of the engine's scheduling and lifecycle: extreme inputs, pause and seek
/// mid-event, cancel, stop under load, restarts. Measured on the samples the engine writes.
@Suite("Engine edge cases")
struct EngineEdgeCaseTests {
    let rate = 48_000.0

    /// Runs `body` on a started engine, lets `seconds` of output through, returns the samples
    /// (nil when the audio thread stopped writing).
    func capture(seconds: Double, timeout: TimeInterval = 10, _ body: (HapticEngine, TestOutput) throws -> Void) throws -> [Float]? {
        let (engine, output) = try makeManualEngine()
        try body(engine, output)
        let frames = Int(seconds * rate)
        output.advance(frames: frames)
        let wrote = output.waitUntilWritten(frames: frames, timeout: timeout)
        output.release()
        engine.stop()
        return wrote ? Array(output.samples.prefix(frames)) : nil
    }

    static let tap = HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 1)])

    @Test("a start time too far away to count in frames is refused, not a crash")
    func hugeTimes() throws {
        let engine = HapticEngine(configuration: .init()) { _, _, _ throws(AudioOutputError) in TestOutput.manual() }
        let player = try engine.makePlayer(with: Self.tap)
        #expect(throws: HapticError.invalidTime) { try player.start(atTime: 1e300) }
        #expect(throws: HapticError.invalidTime) { try player.stop(atTime: 1e19) }
        #expect(throws: HapticError.invalidTime) {
            try player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, 0.5, at: 1e300)], atTime: 1)
        }
    }

    @Test("a loop shorter than a frame at a high playback rate still lets the audio thread run")
    func tinyLoopAtHighRate() throws {
        let x = try capture(seconds: 0.2, timeout: 3) { _, _ in }
        #expect(x != nil)
        let y = try capture(seconds: 0.2, timeout: 3) { engine, _ in
            let player = try engine.makeAdvancedPlayer(with: Self.tap)
            player.loopEnd = 0.001
            player.loopEnabled = true
            player.playbackRate = 100
            try player.start()
            keep(player)
        }
        #expect(y != nil, "the audio thread stopped writing: a loop wrapped without advancing")
    }

    @Test("extreme playback rates and seeks far past the end neither crash nor hang")
    func extremeRateAndSeek() throws {
        let x = try capture(seconds: 0.2, timeout: 3) { engine, _ in
            let slow = try engine.makeAdvancedPlayer(with: HapticPattern(events: [.transient(at: 1, intensity: 1, sharpness: 1)]))
            slow.loopEnabled = true
            slow.playbackRate = 1e-300
            try slow.start()
            keep(slow)
            let far = try engine.makeAdvancedPlayer(with: Self.tap)
            far.loopEnabled = true
            try far.start()
            try far.seek(toOffset: 1e300)
            keep(far)
        }
        #expect(x != nil, "the audio thread stopped writing")
    }

    @Test("resume continues a continuous event that was sounding when paused")
    func resumeMidContinuous() throws {
        let x = try #require(
            try capture(seconds: 1.2) { engine, _ in
                let player = try engine.makeAdvancedPlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5)]))
                try player.start(atTime: 0.1)
                try player.pause(atTime: 0.3)
                try player.resume(atTime: 0.5)
                keep(player)
            })
        #expect(Signal.peak(x, Int(0.2 * rate)..<Int(0.29 * rate)) > 0.9, "plays before the pause")
        #expect(Signal.peak(x, Int(0.31 * rate)..<Int(0.49 * rate)) == 0, "silent while paused")
        // 0.2 s played before the pause, 0.8 s left: sounds from 0.5 to 1.3.
        #expect(Signal.peak(x, Int(0.52 * rate)..<Int(1.15 * rate)) > 0.9, "continues after resume")
        #expect(Signal.maximumStep(x) < 0.045, "no click at pause or resume")
    }

    @Test("seeking a paused player stays silent until it resumes, then plays from the new offset")
    func seekWhilePaused() throws {
        let x = try #require(
            try capture(seconds: 1.0) { engine, output in
                let player = try engine.makeAdvancedPlayer(
                    with: HapticPattern(events: [
                        .continuous(at: 0.5, duration: 1, intensity: 1, sharpness: 0.5)
                    ]))
                try player.start(atTime: 0.05)
                try player.pause(atTime: 0.1)
                keep(player)
                // Seek (a "now" command) once the pause has applied.
                output.advance(frames: Int(0.2 * rate))
                output.waitUntilWritten(frames: Int(0.2 * rate))
                try player.seek(toOffset: 0.8)
                try player.resume(atTime: 0.6)
            })
        #expect(Signal.peak(x, 0..<Int(0.6 * rate)) == 0, "nothing sounds while paused, seek included")
        #expect(Signal.peak(x, Int(0.62 * rate)..<Int(0.95 * rate)) > 0.9, "the event plays from its middle after resume")
    }

    @Test("start right after cancel plays: cancel drops only the commands sent before it")
    func cancelThenStart() throws {
        let x = try #require(
            try capture(seconds: 0.6) { engine, output in
                let player = try engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5)]))
                try player.start()
                keep(player)
                output.advance(frames: Int(0.1 * rate))
                output.waitUntilWritten(frames: Int(0.1 * rate))
                // Both land in the same block.
                try player.cancel()
                try player.start()
            })
        #expect(Signal.peak(x, Int(0.2 * rate)..<Int(0.55 * rate)) > 0.9, "the restarted player plays")
    }

    @Test("the engine stops at once even when a thousand commands wait for future frames")
    func stopWithFullPendingList() throws {
        let (engine, output) = try makeManualEngine()
        let lost = Mutex(false)
        engine.stoppedHandler = { _ in lost.withLock { $0 = true } }
        let player = try engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 30, intensity: 1, sharpness: 0.5)]))
        try player.start()
        keep(player)
        // As many future commands as the engine accepts (it refuses past its scheduling limit).
        var sent = 0
        while (try? player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, 0.5)], atTime: 100 + Double(sent) * 0.001)) != nil {
            sent += 1
        }
        #expect(sent == RenderLoop.schedulingLimit)
        output.advance(frames: 4096)
        output.waitUntilWritten(frames: 4096)
        let before = output.framesWritten
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            engine.stop()
            stopped.signal()
        }.start()
        // A bounded allowance, so the check does not depend on when the stopping thread runs:
        // the fade (5 ms, one block) fits in it.
        output.advance(frames: 8 * output.periodFrames)
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(
            output.framesWritten - before <= 10 * output.periodFrames,
            "\(output.framesWritten - before) frames written after the stop")
        #expect(!lost.withLock { $0 }, "a requested stop reported a stop of its own")
    }

    @Test("scheduling ahead is refused past a limit, so a stop meant for now is never delayed")
    func playerStopWithFullSchedule() throws {
        let (engine, output) = try makeManualEngine()
        let player = try engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 30, intensity: 1, sharpness: 0.5)]))
        try player.start()
        output.advance(frames: 4096)
        #expect(output.waitUntilWritten(frames: 4096))
        // Fill the schedule with far-future changes until the engine refuses more.
        var refused: HapticError?
        var sent = 0
        while refused == nil && sent <= RenderLoop.pendingCapacity {
            do {
                try player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, 0.5)], atTime: 100 + Double(sent) * 0.001)
                sent += 1
            } catch {
                refused = error
            }
        }
        #expect(refused == .tooManyScheduledCommands(limit: RenderLoop.schedulingLimit))
        try player.stop()
        output.advance(frames: 4096)
        #expect(output.waitUntilWritten(frames: 8192))
        output.release()
        engine.stop()
        let x = output.samples
        #expect(Signal.peak(x, 3000..<4000) > 0.9, "playing before the stop")
        // The audio thread had already rendered the block after 4096 when the stop was sent.
        let last = try #require(x.lastIndex { $0 != 0 })
        #expect(last < 4096 + 2 * 256 + 96, "sound until frame \(last), stop sent at 4096")
        keep(player)
    }

    @Test("a value sent to a looping player holds in later repetitions")
    func sentValueSurvivesLoop() throws {
        let captured = try capture(seconds: 0.75) { engine, _ in
            let player = try engine.makeAdvancedPlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 0.2, intensity: 1, sharpness: 1)]))
            player.loopEnabled = true
            player.loopEnd = 0.25
            try player.start(atTime: 0.05)
            try player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, 0.5)], atTime: 0.1)
            keep(player)
        }
        let x = try #require(captured)
        // First repetition: full level before the send (0.05–0.1 s), a quarter after it.
        let full = Signal.rms(x, Int(0.06 * rate)..<Int(0.095 * rate))
        #expect(abs(Signal.rms(x, Int(0.11 * rate)..<Int(0.24 * rate)) / full - 0.25) < 0.01)
        // Second and third repetitions (from 0.30 s and 0.55 s): still a quarter.
        for start in [0.30, 0.55] {
            let level = Signal.rms(x, Int((start + 0.02) * rate)..<Int((start + 0.18) * rate))
            #expect(abs(level / full - 0.25) < 0.01, "repetition at \(start) s: \(level / full)")
        }
    }

    @Test("runtime curve points given out of order are played in time order")
    func unsortedRuntimeCurve() {
        let element = RuntimeControls.Element(curve: [.init(at: 0.2, 1), .init(at: 0, 0), .init(at: 0.1, 0.5)], at: 0)
        #expect(element.value(at: 0.05) == 0.25)
        #expect(element.value(at: 0.15) == 0.75)
    }

    @Test("start from many threads at once opens one output and one audio thread")
    func concurrentStart() throws {
        let outputs = Mutex<[TestOutput]>([])
        let engine = HapticEngine(configuration: .init()) { _, _, _ throws(AudioOutputError) in
            // Kept: slow to open, like a real device, so that every racing start gets past its
            // check.
            usleep(50_000)
            let output = TestOutput.manual()
            outputs.withLock { $0.append(output) }
            return output
        }
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            Thread {
                try? engine.start()
                group.leave()
            }.start()
        }
        #expect(group.wait(timeout: .now() + 10) == .success)
        let opened = outputs.withLock { $0 }
        #expect(opened.count == 1, "\(opened.count) outputs opened")
        for output in opened { output.release() }
        engine.stop()
        #expect(!engine.isRunning)
    }

    @Test("the engine clock never goes backwards nor below zero, whatever delay the device reports")
    func clockIsMonotonic() {
        let clock = EngineClock(sampleRate: 48_000)
        clock.setRunning(true)
        clock.publish(rendered: 256, pending: 0)
        let first = clock.time
        // A sound server reporting its own latency on top of what was written.
        clock.publish(rendered: 512, pending: 48_000)
        let second = clock.time
        #expect(second >= first, "went from \(first) to \(second)")
        #expect(second >= 0)
        clock.publish(rendered: 768, pending: 0)
        clock.setRunning(false)
        let stopped = clock.time
        clock.setRunning(true)
        clock.publish(rendered: 1024, pending: 4800)
        #expect(clock.time >= stopped, "a restart moved the clock back")
    }
}
