import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport
import Synchronization
import Testing

@Suite("CoreHaptics engine life cycle")
struct EngineLifecycleTests {
    @Test("with auto-shutdown the idle engine stops (idleTimeout) and a player's start starts it again")
    func autoShutdown() throws {
        let native = HapticEngine(configuration: .init(device: "null", idleTimeout: .milliseconds(300)))
        let engine = CHHapticEngine(hapticEngine: native)
        let reasons = Mutex<[CHHapticEngine.StoppedReason]>([])
        let stopped = DispatchSemaphore(value: 0)
        engine.stoppedHandler = { reason in
            reasons.withLock { $0.append(reason) }
            stopped.signal()
        }
        engine.isAutoShutdownEnabled = true
        try engine.start()
        wait(stopped, "the idle timeout")
        #expect(reasons.withLock { $0 } == [.idleTimeout])
        #expect(!native.isRunning)
        let player = try engine.makePlayer(with: try tapPattern())
        try player.start(atTime: CHHapticTimeImmediate)
        #expect(native.isRunning, "starting a player restarted the engine")
        engine.stop()  // in synchronous code, stop(completionHandler: nil), as on iOS
    }

    @Test("a lost output reports gameControllerDisconnect; starting again calls the reset handler")
    func deviceLost() throws {
        let output = TestOutput.paced(failAfterFrames: 4_800)
        let engine = CHHapticEngine(hapticEngine: output.nativeEngine())
        let reasons = Mutex<[CHHapticEngine.StoppedReason]>([])
        let stopped = DispatchSemaphore(value: 0)
        let reset = DispatchSemaphore(value: 0)
        engine.stoppedHandler = { reason in
            reasons.withLock { $0.append(reason) }
            stopped.signal()
        }
        engine.resetHandler = { reset.signal() }
        try engine.start()
        wait(stopped, "the lost device")
        #expect(reasons.withLock { $0 } == [.gameControllerDisconnect])
        // The paced output keeps failing; a fresh start still reports the reset first.
        try? engine.start()
        wait(reset, "the reset handler")
        engine.stop(completionHandler: nil)
    }
}
