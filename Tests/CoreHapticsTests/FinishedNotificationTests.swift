import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport
import Synchronization
import Testing

@Suite("CoreHaptics notifyWhenPlayersFinished is asynchronous")
struct FinishedNotificationTests {
    @Test("with nothing playing, the handler runs on another thread, not inside the call, and .stopEngine stops the engine there")
    func idleEngineAnswersLater() throws {
        let native = HapticEngine(configuration: .init(device: "null"))
        let engine = CHHapticEngine(hapticEngine: native)
        let reasons = Mutex<[CHHapticEngine.StoppedReason]>([])
        let stopped = DispatchSemaphore(value: 0)
        engine.stoppedHandler = { reason in
            reasons.withLock { $0.append(reason) }
            stopped.signal()
        }
        try engine.start()
        let callerThread = pthread_self()
        let otherThread = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
        engine.notifyWhenPlayersFinished { error in
            #expect(error == nil)
            otherThread.store(pthread_equal(pthread_self(), callerThread) == 0, ordering: .sequentiallyConsistent)
            finished.signal()
            return .stopEngine
        }
        // The engine keeps running until the handler has answered.
        wait(finished, "the finished handler")
        let ranElsewhere = otherThread.load(ordering: .sequentiallyConsistent)
        #expect(ranElsewhere, "the handler ran on the caller's thread, inside notifyWhenPlayersFinished")
        wait(stopped, "the stopped handler")
        #expect(reasons.withLock { $0 } == [.notifyWhenFinished])
        #expect(!native.isRunning)
    }

    @Test("asked before the engine starts (Apple's single-tap sample), .stopEngine does not stop the engine started right after")
    func askedBeforeStart() throws {
        let native = HapticEngine(configuration: .init(device: "null"))
        let engine = CHHapticEngine(hapticEngine: native)
        let finished = DispatchSemaphore(value: 0)
        engine.notifyWhenPlayersFinished { _ in
            finished.signal()
            return .stopEngine
        }
        try engine.start()
        wait(finished, "the finished handler")
        // Kept: the answer is applied on the handler's queue right after it returns; give it
        // that moment before checking that it did not stop the engine.
        Thread.sleep(forTimeInterval: 0.1)
        #expect(native.isRunning)
        engine.stop()
    }

    @Test("with nothing playing, .leaveEngineRunning leaves it running and the handler runs on another thread")
    func idleEngineLeftRunning() throws {
        let native = HapticEngine(configuration: .init(device: "null"))
        let engine = CHHapticEngine(hapticEngine: native)
        try engine.start()
        let callerThread = pthread_self()
        let onCaller = Atomic<Bool>(true)
        let finished = DispatchSemaphore(value: 0)
        engine.notifyWhenPlayersFinished { _ in
            onCaller.store(pthread_equal(pthread_self(), callerThread) != 0, ordering: .sequentiallyConsistent)
            finished.signal()
            return .leaveEngineRunning
        }
        wait(finished, "the finished handler")
        let inside = onCaller.load(ordering: .sequentiallyConsistent)
        #expect(!inside, "the handler ran on the caller's thread")
        #expect(native.isRunning)
        engine.stop()
    }
}

@Suite("CoreHaptics continuous events made in code without a duration")
struct OpenEndedContinuousTests {
    @Test("a haptic continuous event without a duration sounds until its player stops, as Apple's 'no fixed end'")
    func hapticContinuousSoundsUntilStopped() throws {
        let output = FileOutput()
        let (x, stopTime) = try output.run { () throws -> ([Float], Double) in
            let engine = try CHHapticEngine()
            return try withExtendedLifetime(engine) {
                try engine.start()
                let event = CHHapticEvent(
                    eventType: .hapticContinuous,
                    parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: 1)], relativeTime: 0)
                let player = try engine.makePlayer(with: try CHHapticPattern(events: [event], parameters: []))
                let start = engine.currentTime + 0.05
                try player.start(atTime: start)
                try player.stop(atTime: start + 0.5)
                let x = try output.samples(seconds: start + 0.8)
                return (x, start + 0.5)
            }
        }
        let stopFrame = Int(stopTime * 48_000)
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 1, "onsets \(onsets)")
        // Sounding all along (before, nothing played at all) and silent once stopped.
        #expect(Signal.peak(x, (stopFrame - 4800)..<(stopFrame - 2400)) > 0.5)
        #expect(Signal.peak(x, (stopFrame + 2400)..<(stopFrame + 9600)) == 0)
    }

    @Test("continuous events without a duration (haptic and audio) last to the pattern limit; with one, or transients, keep theirs")
    func durations() throws {
        let pattern = try CHHapticPattern(
            events: [
                CHHapticEvent(eventType: .audioContinuous, parameters: [CHHapticEventParameter(parameterID: .sustained, value: 0)], relativeTime: 0),
                CHHapticEvent(eventType: .hapticContinuous, parameters: [], relativeTime: 1),
                CHHapticEvent(eventType: .hapticContinuous, parameters: [], relativeTime: 0, duration: 0.3),
                CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: 0.2),
            ], parameters: [])
        let durations = pattern.hapticPattern.events.map(\.duration).sorted()
        #expect(durations == [0, 0.3, 3599, 3600])
        // The open events' end, plus the release that follows it.
        #expect(pattern.duration >= 3600 && pattern.duration < 3601)
    }
}
