import Foundation
import HapticsCore
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// The render loop has one owner at a time (the table at the top of `RenderLoop.swift`): the
/// audio thread while it runs, the control side only once no audio thread holds it.
@Suite("Render loop ownership")
struct RenderLoopOwnershipTests {
    /// A device whose write never returns until the test lets it, whatever the engine does
    /// (`stop`, `close`): a frozen sound server.
    final class FrozenOutput: AudioOutput, @unchecked Sendable {
        let sampleRate = 48_000
        let channelCount = 1
        let periodFrames = 256
        let bufferFrames = 768
        private let condition = NSCondition()
        private var frozen = true
        private var writes = 0

        func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioOutputError) {
            condition.lock()
            defer { condition.unlock() }
            writes += 1
            condition.broadcast()
            while frozen { condition.wait() }
        }

        func pendingFrames() -> Int { 0 }
        func drain() {}
        func stop() {}
        func close() {}

        /// Whether the audio thread is inside a write.
        var isWriting: Bool { condition.withLock { writes > 0 } }

        func thaw() {
            condition.withLock {
                frozen = false
                condition.broadcast()
            }
        }
    }

    @Test("while a stuck audio thread holds the loop, a stopped engine leaves its commands to that thread")
    func stuckThreadKeepsTheLoop() throws {
        let output = FrozenOutput()
        let engine = HapticEngine(configuration: .init(latency: .milliseconds(1))) { _, _, _ throws(AudioOutputError) in output }
        try engine.start()
        try Wait.require("the audio thread writes", timeout: .seconds(10)) { output.isWriting }
        // The device does not answer: stop gives up waiting and returns, the thread still in
        // its write, holding the loop.
        engine.stop()
        #expect(!engine.isRunning)
        let loop = try #require(engine.renderLoopIfCreated)
        // A player made and dropped now sends an attach and a detach. The stopped engine may
        // not apply them itself while the stuck thread holds the loop: they stay queued.
        do { _ = try engine.makePlayer(with: HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 1)])) }
        #expect(loop.mailbox.commands.peek() != nil, "the control side took the loop from a thread that still holds it")
        #expect(!engine.takeCommandsWhileStopped())

        // Once the thread has ended, the loop is the control side's again.
        output.thaw()
        try Wait.require("the stuck thread lets go of the loop", timeout: .seconds(10)) { engine.takeCommandsWhileStopped() }
        #expect(loop.mailbox.commands.peek() == nil)
    }
}
