import Foundation
import HapticsCore
import HapticsRender
import Synchronization
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// How code ported from iOS holds engines and players: players kept only in local variables,
/// engines stopped and started again, parameters sent before a start, long runtime curves,
/// players made and dropped in a loop. Each case is measured on the samples written.
@Suite("Engine and player lifetimes")
struct EngineLifetimeTests {
    let rate = 48_000.0

    static let tap = HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 1)])
    static let buzz = HapticPattern(events: [.continuous(at: 0, duration: 0.3, intensity: 1, sharpness: 0.5)])

    /// Lets `seconds` of output through and returns what was written in that time.
    func run(_ output: TestOutput, seconds: Double) -> [Float] {
        let start = output.framesWritten
        let frames = Int(seconds * rate)
        output.advance(frames: frames)
        let wrote = output.waitUntilWritten(frames: start + frames, timeout: 5)
        #expect(wrote, "the audio thread stopped writing")
        guard wrote else { return Array(repeating: 0, count: frames) }
        return Array(output.samples[start..<(start + frames)])
    }

    /// Plays the way nearly every tutorial does: the player lives only in this function.
    func playAndForget(_ pattern: HapticPattern, on engine: HapticEngine, completion: (@Sendable (Error?) -> Void)? = nil) throws {
        let player = try engine.makeAdvancedPlayer(with: pattern)
        player.completionHandler = completion
        try player.start(atTime: 0)
    }

    @Test("a player held only in a local variable plays to its end and calls its completion handler")
    func localPlayerPlays() throws {
        let (engine, output) = try makeManualEngine()
        let finished = Atomic<Int>(0)
        try playAndForget(Self.buzz, on: engine) { _ in finished.add(1, ordering: .relaxed) }
        let x = run(output, seconds: 0.6)
        #expect(Signal.peak(x, 4800..<9600) > 0.95, "the continuous event did not sound")
        #expect(Signal.rms(x, Int(0.4 * rate)..<Int(0.6 * rate)) == 0)
        #expect(
            Wait.until(timeout: .seconds(5), interval: .milliseconds(1)) { finished.load(ordering: .relaxed) == 1 }, "the completion handler was not called")
        output.release()
        engine.stop()
        #expect(finished.load(ordering: .relaxed) == 1, "the completion handler ran more than once")
    }

    @Test("play(_:) async and playAndWait(_:) return once the whole pattern has been played")
    func playToEnd() async throws {
        let (engine, output) = try makeManualEngine()
        output.release()
        let rendered = HapticRenderer.render(Self.buzz).samples
        let lastSound = try #require(rendered.lastIndex { $0 != 0 })
        let before = output.framesWritten
        try await engine.play(Self.buzz)
        #expect(output.framesWritten - before > lastSound, "returned before the pattern's last sample was written")
        #expect(engine.currentTime * rate >= Double(before + lastSound))
        let again = output.framesWritten
        try engine.playAndWait(Self.buzz)
        #expect(output.framesWritten - again > lastSound)
        engine.stop()
    }

    @Test("a stopped engine started again plays new and existing players")
    func restartAfterStop() throws {
        let outputs = OutputSequence()
        let engine = HapticEngine(configuration: .init(), output: outputs.factory)
        let kept = try engine.makePlayer(with: Self.tap)
        try engine.start()
        try kept.start(atTime: 0)
        #expect(Signal.peak(run(outputs.latest, seconds: 0.1), 0..<4800) > 0.9)
        outputs.latest.release()
        engine.stop()

        try engine.start()
        #expect(outputs.count == 2)
        try kept.start(atTime: 0)
        try playAndForget(Self.buzz, on: engine)
        let x = run(outputs.latest, seconds: 0.2)
        #expect(Signal.peak(x, 0..<480) > 0.9, "the existing player was silent after the restart")
        #expect(Signal.rms(x, 2400..<9600) > 0.5, "a new player was silent after the restart")
        outputs.latest.release()
        engine.stop()
    }

    @Test("an engine that shut itself down when idle starts again with start() and plays")
    func restartAfterIdleShutdown() throws {
        let outputs = OutputSequence()
        let engine = HapticEngine(configuration: .init(idleTimeout: .milliseconds(50)), output: outputs.factory)
        engine.isAutoShutdownEnabled = true
        let stopped = Atomic<Int>(0)
        engine.stoppedHandler = { reason in if reason == .idleTimeout { stopped.add(1, ordering: .relaxed) } }
        try engine.start()
        outputs.latest.release()
        #expect(
            Wait.until(timeout: .seconds(5), interval: .milliseconds(1)) { stopped.load(ordering: .relaxed) == 1 }, "the engine did not shut down when idle")
        #expect(Wait.until(timeout: .seconds(5), interval: .milliseconds(1)) { !engine.isRunning })

        try engine.start()
        try playAndForget(Self.buzz, on: engine)
        let x = run(outputs.latest, seconds: 0.2)
        #expect(Signal.rms(x, 2400..<9600) > 0.5, "silent after start() following an idle shutdown")
        outputs.latest.release()
        engine.stop()
    }

    @Test("an idle report from before a restart, handled late, does not stop the restarted engine")
    func staleIdleReportIsIgnored() throws {
        let outputs = OutputSequence()
        let engine = HapticEngine(configuration: .init(idleTimeout: .milliseconds(50)), output: outputs.factory)
        engine.isAutoShutdownEnabled = true
        let idleStops = Atomic<Int>(0)
        engine.stoppedHandler = { reason in if reason == .idleTimeout { idleStops.add(1, ordering: .relaxed) } }
        try engine.start()
        // Hold the notification thread in a completion handler, so the idle report that
        // follows waits behind it, as on a loaded machine.
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        try playAndForget(Self.tap, on: engine) { _ in
            entered.signal()
            gate.wait()
        }
        _ = run(outputs.latest, seconds: 0.05)
        #expect(entered.wait(timeout: .now() + 5) == .success, "the tap did not finish")
        // 0.3 s idle: past the 50 ms timeout, so the audio thread has reported idleness.
        _ = run(outputs.latest, seconds: 0.3)
        outputs.latest.release()
        engine.stop()
        try engine.start()
        gate.signal()
        // Events are handled in order: once this tap's completion has run, so has the report.
        let marker = DispatchSemaphore(value: 0)
        try playAndForget(Self.tap, on: engine) { _ in marker.signal() }
        _ = run(outputs.latest, seconds: 0.02)
        #expect(marker.wait(timeout: .now() + 5) == .success, "the second tap did not finish")
        #expect(engine.isRunning, "a stale idle report stopped the restarted engine")
        #expect(idleStops.load(ordering: .relaxed) == 0)
        outputs.latest.release()
        engine.stop()
    }

    @Test("an engine stopped by notifyWhenPlayersFinished starts again with start() and plays")
    func restartAfterNotifyStop() throws {
        let outputs = OutputSequence()
        let engine = HapticEngine(configuration: .init(), output: outputs.factory)
        try engine.start()
        let reason = Mutex<HapticEngineStoppedReason?>(nil)
        engine.stoppedHandler = { r in reason.withLock { $0 = r } }
        try playAndForget(Self.tap, on: engine)
        engine.notifyWhenPlayersFinished { _ in .stopEngine }
        outputs.latest.release()
        #expect(Wait.until(timeout: .seconds(5), interval: .milliseconds(1)) { reason.withLock { $0 } == .notifyWhenFinished })
        #expect(!engine.isRunning)

        try engine.start()
        try playAndForget(Self.buzz, on: engine)
        let x = run(outputs.latest, seconds: 0.2)
        #expect(Signal.rms(x, 2400..<9600) > 0.5, "silent after start() following notifyWhenPlayersFinished(.stopEngine)")
        outputs.latest.release()
        engine.stop()
    }

    @Test("with auto-shutdown a player start starts an engine that was never started, and one that stopped")
    func autoShutdownStartsOnRequest() throws {
        let outputs = OutputSequence()
        let engine = HapticEngine(configuration: .init(), output: outputs.factory)
        engine.isAutoShutdownEnabled = true
        try playAndForget(Self.buzz, on: engine)
        #expect(engine.isRunning)
        #expect(Signal.rms(run(outputs.latest, seconds: 0.2), 2400..<9600) > 0.5)
        outputs.latest.release()
        engine.stop()
        try playAndForget(Self.buzz, on: engine)
        #expect(engine.isRunning && outputs.count == 2)
        #expect(Signal.rms(run(outputs.latest, seconds: 0.2), 2400..<9600) > 0.5)
        outputs.latest.release()
        engine.stop()
    }

    @Test("without auto-shutdown a player start on a stopped engine throws engineNotRunning")
    func startOnStoppedEngineThrows() throws {
        let outputs = OutputSequence()
        let engine = HapticEngine(configuration: .init(), output: outputs.factory)
        let player = try engine.makePlayer(with: Self.tap)
        #expect(throws: HapticError.engineNotRunning) { try player.start(atTime: 0) }
        #expect(outputs.count == 0)
    }

    @Test("a value sent before start applies from the start, as Core Haptics does")
    func parametersBeforeStart() throws {
        let (engine, output) = try makeManualEngine()
        let reference = try engine.makePlayer(with: Self.buzz)
        try reference.start(atTime: 0)
        let full = Signal.rms(run(output, seconds: 0.4), 2400..<12000)

        let player = try engine.makePlayer(with: Self.buzz)
        try player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, 0.5)], atTime: 0)
        try player.start(atTime: 0)
        let halved = Signal.rms(run(output, seconds: 0.4), 2400..<12000)
        // Amplitude is intensity², so half the intensity is a quarter of the RMS.
        #expect(abs(halved / full - 0.25) < 0.02, "RMS ratio \(halved / full)")
        keep(reference)
        keep(player)
        output.release()
        engine.stop()
    }

    @Test("a value sent before the engine started applies once it starts")
    func parametersBeforeEngineStart() throws {
        let outputs = OutputSequence()
        let engine = HapticEngine(configuration: .init(), output: outputs.factory)
        engine.isAutoShutdownEnabled = true
        let player = try engine.makePlayer(with: Self.buzz)
        try player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, 0)], atTime: 0)
        try player.start(atTime: 0)
        let x = run(outputs.latest, seconds: 0.4)
        #expect(Signal.peak(x, 0..<x.count) == 0, "intensity control 0 sent before start was ignored")
        keep(player)
        outputs.latest.release()
        engine.stop()
    }

    @Test("a runtime curve honours every control point, past 16, like a curve in a pattern")
    func longRuntimeCurve() throws {
        // 40 points: intensity control steps down every 10 ms from 1 to 0.025.
        let points = (0..<40).map { HapticParameterCurve.ControlPoint(at: Double($0) * 0.01, 1 - Double($0) * 0.025) }
        let curve = HapticParameterCurve(.hapticIntensityControl, at: 0, controlPoints: points)
        let long = HapticPattern(events: [.continuous(at: 0, duration: 0.6, intensity: 1, sharpness: 0.5)])
        let (engine, output) = try makeManualEngine()
        let player = try engine.makePlayer(with: long)
        // Both at a time ahead, so they land on the same frame however the audio thread runs.
        try player.start(atTime: 0.1)
        try player.scheduleParameterCurve(curve, atTime: 0.1)
        let played = Array(run(output, seconds: 0.8).dropFirst(Int(0.1 * rate)))
        var inPattern = long
        inPattern.curves = [curve]
        let rendered = HapticRenderer.render(inPattern).samples
        // At 0.35 s the curve is at point 35 (0.125): amplitude (1 × 0.125)² ≈ 0.016.
        let late = Int(0.35 * rate)..<Int(0.38 * rate)
        #expect(Signal.peak(played, late) < 0.03, "points past 16 were dropped: peak \(Signal.peak(played, late))")
        let mismatch = zip(played, rendered).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(mismatch == nil, "the engine differs from the offline render from sample \(mismatch ?? -1)")
        keep(player)
        output.release()
        engine.stop()
    }

    @Test("players made and dropped in a loop never run out of slots, on a running or a stopped engine")
    func slotsAreReusedAtOnce() throws {
        let (engine, output) = try makeManualEngine()
        output.release()
        for _ in 0..<1000 { _ = try engine.makePlayer(with: Self.tap) }
        engine.stop()
        for _ in 0..<1000 { _ = try engine.makePlayer(with: Self.tap) }
        let fresh = HapticEngine(configuration: .init()) { _, _, _ throws(AudioOutputError) in TestOutput.manual() }
        for _ in 0..<5000 { _ = try fresh.makePlayer(with: Self.tap) }
    }

    // 100: a started player counts against the 128-player cap until it ends, as it should
    // (it is still playing); the soak test drives the cap for a minute in real time.
    @Test("players started and dropped in a loop each play to the end and complete exactly once")
    func droppedStartedPlayersComplete() throws {
        let (engine, output) = try makeManualEngine()
        output.release()
        let completions = Atomic<Int>(0)
        for i in 0..<100 {
            let pattern = HapticPattern(events: [.transient(at: Double(i % 7) * 0.001, intensity: 0.2, sharpness: 1)])
            try playAndForget(pattern, on: engine) { _ in completions.add(1, ordering: .relaxed) }
        }
        #expect(
            Wait.until(timeout: .seconds(20), interval: .milliseconds(1)) { completions.load(ordering: .relaxed) == 100 },
            "\(completions.load(ordering: .relaxed)) of 100 completion handlers called")
        engine.stop()
        #expect(completions.load(ordering: .relaxed) == 100)
    }
}

/// Outputs made one per engine start, so a test can follow an engine through restarts.
final class OutputSequence: @unchecked Sendable {
    private let outputs = Mutex<[TestOutput]>([])
    let channelCount: Int

    init(channelCount: Int = 1) { self.channelCount = channelCount }

    var factory: HapticEngine.OutputFactory {
        { [self] rate, _, _ in
            let output = TestOutput.manual(sampleRate: rate, channelCount: channelCount)
            outputs.withLock { $0.append(output) }
            return output
        }
    }

    /// The output of the latest start.
    var latest: TestOutput { outputs.withLock { $0.last! } }
    /// How many times the engine opened an output.
    var count: Int { outputs.withLock { $0.count } }
}
