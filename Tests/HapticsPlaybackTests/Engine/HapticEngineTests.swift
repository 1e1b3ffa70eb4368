import Foundation
import HapticsCore
import HapticsRender
import Synchronization
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// The engine's scheduling, measured on the samples it writes.
@Suite("Engine scheduling")
struct HapticEngineTests {
    let rate = 48_000.0

    /// Runs `body` on a started engine, lets `seconds` of output through, returns the samples.
    func capture(seconds: Double, _ body: (HapticEngine, TestOutput) throws -> Void) throws -> [Float] {
        let (engine, output) = try makeManualEngine()
        try body(engine, output)
        let frames = Int(seconds * rate)
        output.advance(frames: frames)
        #expect(output.waitUntilWritten(frames: frames), "the audio thread stopped writing")
        output.release()
        engine.stop()
        return Array(output.samples.prefix(frames))
    }

    @Test("a player started at a future time sounds from that exact frame")
    func startAtTime() throws {
        let x = try capture(seconds: 0.5) { engine, _ in
            let player = try engine.makePlayer(with: HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 0.5)]))
            try player.start(atTime: 0.1)
            keep(player)
        }
        #expect(x.firstIndex { $0 != 0 } == 4800)
    }

    @Test("what the engine plays equals the offline render, sample for sample")
    func playEqualsRender() throws {
        let pattern = HapticPattern(
            events: [
                .transient(at: 0, intensity: 0.8, sharpness: 0.3),
                .continuous(at: 0.05, duration: 0.2, intensity: 0.7, sharpness: 0.8, attack: 0.2, release: 0.3),
                .transient(at: 0.123, intensity: 1, sharpness: 1),
            ],
            curves: [HapticParameterCurve(.hapticIntensityControl, at: 0.1, points: [(0, 1), (0.1, 0.3)])])
        let x = try capture(seconds: 1) { engine, _ in
            let player = try engine.makePlayer(with: pattern)
            try player.start(atTime: 0.0375)
            keep(player)
        }
        let offline = HapticRenderer.render(pattern).samples
        let start = 1800
        #expect(x[..<start].allSatisfy { $0 == 0 })
        let played = Array(x[start..<(start + offline.count)])
        let mismatch = zip(played, offline).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(mismatch == nil, "first difference at sample \(mismatch ?? -1)")
        #expect(x[(start + offline.count)...].allSatisfy { $0 == 0 })
    }

    @Test("stop(atTime:) fades out over 2 ms at that time")
    func stopAtTime() throws {
        let x = try capture(seconds: 0.6) { engine, _ in
            let player = try engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5)]))
            try player.start(atTime: 0.1)
            try player.stop(atTime: 0.3)
            keep(player)
        }
        #expect(Signal.peak(x, 13000..<14400) > 0.99)
        let last = try #require(x.lastIndex { $0 != 0 })
        #expect(last >= 14400 && last < 14400 + 96, "last sound at \(last), stop at 14400")
        #expect(Signal.maximumStep(x) < 0.03)
    }

    @Test("sendParameters halves intensity from its time on")
    func sendParametersMidEvent() throws {
        let x = try capture(seconds: 1.2) { engine, _ in
            let player = try engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5)]))
            try player.start(atTime: 0.1)
            try player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, 0.5)], atTime: 0.5)
            keep(player)
        }
        let before = Signal.rms(x, Int(0.2 * rate)..<Int(0.49 * rate))
        let after = Signal.rms(x, Int(0.51 * rate)..<Int(1.0 * rate))
        #expect(abs(after / before - 0.25) < 0.005, "intensity 0.5 is amplitude 0.25: ratio \(after / before)")
    }

    @Test("a scheduled curve replaces its own start time")
    func scheduledCurve() throws {
        let x = try capture(seconds: 1.2) { engine, _ in
            let player = try engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0)]))
            try player.start(atTime: 0.1)
            let curve = HapticParameterCurve(.hapticSharpnessControl, at: 5, points: [(0, 0), (0.1, 1)])
            try player.scheduleParameterCurve(curve, atTime: 0.4)
            keep(player)
        }
        #expect(abs(Signal.frequency(x, Int(0.15 * rate)..<Int(0.39 * rate), sampleRate: rate) - 60) < 0.5)
        #expect(abs(Signal.frequency(x, Int(0.55 * rate)..<Int(1.0 * rate), sampleRate: rate) - 300) < 1)
    }

    @Test("64 players play at once, each on its own schedule")
    func sixtyFourPlayers() throws {
        let times = (0..<64).map { 0.05 + Double($0) * 0.015 }
        let x = try capture(seconds: 1.1) { engine, _ in
            for time in times {
                let player = try engine.makePlayer(with: HapticPattern(events: [.transient(at: 0, intensity: 0.5, sharpness: 1)]))
                try player.start(atTime: time)
                keep(player)
            }
        }
        let onsets = Signal.onsets(x, gap: 48)
        #expect(onsets == times.map { Int(($0 * rate).rounded()) })
    }

    @Test("pause holds the pattern and resume continues it")
    func pauseResume() throws {
        let x = try capture(seconds: 1.6) { engine, _ in
            let player = try engine.makeAdvancedPlayer(
                with: HapticPattern(events: [
                    .transient(at: 0, intensity: 1, sharpness: 1), .transient(at: 0.4, intensity: 1, sharpness: 1),
                ]))
            try player.start(atTime: 0.1)
            try player.pause(atTime: 0.3)
            try player.resume(atTime: 0.8)
            keep(player)
        }
        // Second tap: 0.2 s of pattern left after the pause, so at 0.8 + 0.2.
        #expect(Signal.onsets(x, gap: 48) == [4800, 48000])
    }

    @Test("a looping player wraps at the pattern's end on the exact frame")
    func looping() throws {
        let x = try capture(seconds: 0.6) { engine, _ in
            let player = try engine.makeAdvancedPlayer(
                with: HapticPattern(events: [HapticEvent(.transient, at: 0, duration: 0.1, parameters: [.init(.hapticIntensity, 1)])]))
            player.loopEnabled = true
            try player.start(atTime: 0.05)
            try player.stop(atTime: 0.48)
            keep(player)
        }
        #expect(Signal.onsets(x, gap: 48) == [2400, 7200, 12000, 16800, 21600])
    }

    @Test("a loop count plays the pattern that many times, then the player completes")
    func loopCount() throws {
        let completed = DispatchSemaphore(value: 0)
        let x = try capture(seconds: 0.6) { engine, _ in
            let player = try engine.makeAdvancedPlayer(
                with: HapticPattern(events: [
                    HapticEvent(.transient, at: 0, duration: 0.1, parameters: [.init(.hapticIntensity, 1), .init(.hapticSharpness, 1)])
                ]))
            player.loopCount = 3
            player.loopEnabled = true
            player.completionHandler = { _ in completed.signal() }
            try player.start(atTime: 0.05)
            keep(player)
        }
        #expect(Signal.onsets(x, gap: 48) == [2400, 7200, 12000])
        #expect(completed.wait(timeout: .now() + 2) == .success)
    }

    @Test("playback rate 2 plays the pattern's times twice as fast")
    func playbackRate() throws {
        let x = try capture(seconds: 0.5) { engine, _ in
            let player = try engine.makeAdvancedPlayer(
                with: HapticPattern(events: [
                    .transient(at: 0, intensity: 1, sharpness: 1), .transient(at: 0.2, intensity: 1, sharpness: 1),
                ]))
            player.playbackRate = 2
            try player.start(atTime: 0.1)
            keep(player)
        }
        #expect(Signal.onsets(x, gap: 48) == [4800, 9600])
    }

    @Test("a muted player is silent, and the engine-wide mute silences everything")
    func muting() throws {
        let x = try capture(seconds: 0.3) { engine, _ in
            let player = try engine.makePlayer(with: HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 1)]))
            player.isMuted = true
            try player.start(atTime: 0.1)
            keep(player)
        }
        #expect(x.allSatisfy { $0 == 0 })
        let y = try capture(seconds: 0.3) { engine, _ in
            engine.isMutedForHaptics = true
            let player = try engine.makePlayer(with: HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 1)]))
            try player.start(atTime: 0.1)
            keep(player)
        }
        #expect(y.allSatisfy { $0 == 0 })
    }

    @Test("completion handlers and notifyWhenPlayersFinished report the end")
    func completion() throws {
        let (engine, output) = try makeManualEngine()
        let completed = DispatchSemaphore(value: 0)
        let allFinished = DispatchSemaphore(value: 0)
        let player = try engine.makeAdvancedPlayer(with: HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 1)]))
        player.completionHandler = { _ in completed.signal() }
        try player.start(atTime: 0.01)
        engine.notifyWhenPlayersFinished { _ in
            allFinished.signal()
            return .stopEngine
        }
        output.release()
        #expect(completed.wait(timeout: .now() + 5) == .success)
        #expect(allFinished.wait(timeout: .now() + 5) == .success)
        Wait.until(timeout: .seconds(5), interval: .milliseconds(1)) { !engine.isRunning }
        #expect(!engine.isRunning, "the handler asked the engine to stop")
    }

    @Test("a device lost mid-play reaches the stopped handler")
    func deviceLost() throws {
        let (engine, output) = try makeManualEngine()
        let reason = Mutex<HapticEngineStoppedReason?>(nil)
        let stopped = DispatchSemaphore(value: 0)
        engine.stoppedHandler = { r in
            reason.withLock { $0 = r }
            stopped.signal()
        }
        output.failAfterFrames = 4800
        let player = try engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 1)]))
        try player.start()
        output.release()
        #expect(stopped.wait(timeout: .now() + 5) == .success)
        #expect(reason.withLock { $0 } == .deviceLost)
        #expect(!engine.isRunning)
        #expect(throws: HapticError.engineNotRunning) { try player.start() }
    }

    @Test("starting again after a lost device re-opens the output and calls the reset handler")
    func resetAfterDeviceLoss() throws {
        let outputs = Mutex<[TestOutput]>([])
        let engine = HapticEngine(configuration: .init()) { _, _, _ throws(AudioOutputError) in
            let output = TestOutput.manual()
            outputs.withLock { $0.append(output) }
            return output
        }
        let stopped = DispatchSemaphore(value: 0)
        let reset = DispatchSemaphore(value: 0)
        engine.stoppedHandler = { _ in stopped.signal() }
        engine.resetHandler = { reset.signal() }
        try engine.start()
        let first = try #require(outputs.withLock { $0.first })
        first.failAfterFrames = 1024
        first.release()
        #expect(stopped.wait(timeout: .now() + 5) == .success)
        #expect(reset.wait(timeout: .now() + 0.2) == .timedOut, "no reset before the engine restarts")
        try engine.start()
        #expect(reset.wait(timeout: .now() + 5) == .success)
        #expect(outputs.withLock { $0.count } == 2, "a new output was opened")
        let player = try engine.makePlayer(with: HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 1)]))
        try player.start()
        let second = try #require(outputs.withLock { $0.last })
        second.advance(frames: 4096)
        #expect(second.waitUntilWritten(frames: 4096))
        #expect(second.samples.contains { $0 != 0 }, "the restarted engine plays")
        second.release()
        engine.stop()
    }

    @Test("with auto-shutdown, an idle engine stops and a player start restarts it")
    func autoShutdown() throws {
        // A new output on each start, as a device would be: the idle stop closes the first,
        // and a restart writing into it would fail at once and race the check below.
        let engine = HapticEngine(configuration: .init(idleTimeout: .milliseconds(50))) { _, _, _ throws(AudioOutputError) in
            let output = TestOutput.manual()
            output.release()
            return output
        }
        engine.isAutoShutdownEnabled = true
        let stopped = DispatchSemaphore(value: 0)
        engine.stoppedHandler = { reason in if reason == .idleTimeout { stopped.signal() } }
        try engine.start()
        #expect(stopped.wait(timeout: .now() + 5) == .success)
        #expect(!engine.isRunning)
        // Long enough that the engine cannot go idle again before the check.
        let player = try engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 5)]))
        try player.start()
        #expect(engine.isRunning)
        engine.stop()
    }

    @Test("stopping the engine fades the output to zero within 10 ms, without a click")
    func engineStopFades() throws {
        let (engine, output) = try makeManualEngine()
        let player = try engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 5, intensity: 1, sharpness: 1)]))
        try player.start()
        output.advance(frames: 9728)
        #expect(output.waitUntilWritten(frames: 9728))
        // The audio thread has rendered the block after frame 9728 and waits to write it; the
        // stop command queues behind it and applies at the start of the next block.
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            engine.stop()
            stopped.signal()
        }.start()
        // Kept: gives the stop time to queue behind the blocked block; a queued command is not
        // observable from here.
        usleep(50_000)
        output.release()
        #expect(stopped.wait(timeout: .now() + 5) == .success)
        let x = output.samples
        let fadeStart = 9728 + output.periodFrames
        let sounding = try #require(x.lastIndex { $0 != 0 })
        #expect(sounding < fadeStart + 480, "sound until \(sounding), fade from \(fadeStart)")
        #expect(Signal.peak(x, (fadeStart - 400)..<(fadeStart - 80)) > 0.99, "full level until the stop")
        #expect(Signal.maximumStep(x) < 0.045)
    }

    @Test("a released engine leaves no thread or loop behind, whether it was running or stopped")
    func releaseCleansUp() throws {
        for stopFirst in [true, false] {
            weak var loop: RenderLoop?
            do {
                let (engine, output) = try makeManualEngine()
                loop = engine.renderLoopIfCreated
                output.release()
                if stopFirst {
                    engine.stop()
                    // Let the notification thread take the stop's own wake-up and wait again,
                    // so only the release can wake it.
                    usleep(100_000)
                }
            }
            Wait.until(timeout: .seconds(3)) { loop == nil }
            #expect(loop == nil, "the render loop outlived its engine (stopped first: \(stopFirst))")
        }
    }

    @Test("stopping the engine stops its players: they complete, and do not resume on restart")
    func stopEndsPlayers() throws {
        let outputs = Mutex<[TestOutput]>([])
        let engine = HapticEngine(configuration: .init()) { _, _, _ throws(AudioOutputError) in
            let output = TestOutput.manual()
            outputs.withLock { $0.append(output) }
            return output
        }
        try engine.start()
        let completed = DispatchSemaphore(value: 0)
        let player = try engine.makeAdvancedPlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 10, intensity: 1, sharpness: 1)]))
        player.completionHandler = { _ in completed.signal() }
        try player.start()
        let first = try #require(outputs.withLock { $0.first })
        first.advance(frames: 4096)
        #expect(first.waitUntilWritten(frames: 4096))
        first.release()
        engine.stop()
        #expect(completed.wait(timeout: .now() + 5) == .success, "the player completed when the engine stopped")
        try engine.start()
        let second = try #require(outputs.withLock { $0.last })
        second.advance(frames: 9728)
        #expect(second.waitUntilWritten(frames: 9728))
        #expect(second.samples.prefix(9728).allSatisfy { $0 == 0 }, "nothing resumed after the restart")
        second.release()
        engine.stop()
    }

    @Test("a custom output factory's own errors are reported as the device being unavailable")
    func foreignFactoryErrors() throws {
        struct Unplugged: Error, CustomStringConvertible { var description: String { "adapter unplugged" } }
        let audio = HapticEngine(configuration: .init(device: "my-amp")) { _, _, _ in throw Unplugged() }
        #expect(throws: HapticError.output(.deviceUnavailable(device: "my-amp", reason: "adapter unplugged"))) { try audio.start() }
        let rumble = HapticEngine(rumble: { throw Unplugged() })
        #expect(throws: HapticError.rumble(.deviceUnavailable(device: "rumble", reason: "adapter unplugged"))) { try rumble.start() }
    }

    @Test("bad requests fail clearly")
    func errors() throws {
        let engine = HapticEngine(configuration: .init()) { _, _, _ throws(AudioOutputError) in TestOutput.manual() }
        #expect(throws: HapticError.self) { try engine.makePlayer(with: HapticPattern(events: [])) }
        let player = try engine.makePlayer(with: HapticPattern(events: [.transient(at: 0)]))
        #expect(throws: HapticError.engineNotRunning) { try player.start() }
        #expect(throws: HapticError.invalidTime) { try player.stop(atTime: -1) }
        #expect(throws: HapticError.invalidTime) { try player.start(atTime: .nan) }
        let failing = HapticEngine(configuration: .init(device: "x")) { _, _, _ throws(AudioOutputError) in
            throw .deviceUnavailable(device: "x", reason: "No such device")
        }
        #expect(throws: HapticError.output(.deviceUnavailable(device: "x", reason: "No such device"))) { try failing.start() }
    }
}

/// Keeps players alive until the end of the test process, so their slots stay attached while
/// the engine renders (a released player detaches).
func keep(_ player: HapticPatternPlayer) { keptPlayers.withLock { $0.append(player) } }
let keptPlayers = Mutex<[HapticPatternPlayer]>([])
