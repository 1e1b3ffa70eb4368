import Foundation
@testable import HapticsPlayback
import HapticsRender

/// An output the test paces by hand: `write` blocks until the test allows more frames, so
/// commands sent in between land at known frames. Records every sample. Not real time (it
/// allocates while recording): a test double for the engine's logic, not for its timing.
final class ManualOutput: AudioOutput, @unchecked Sendable {
    let sampleRate: Int
    let channelCount: Int
    let periodFrames = 256
    let bufferFrames = 768
    private let condition = NSCondition()
    private var allowed = 0
    private var written = 0
    private var recorded: [Float] = []
    private var stopped = false
    private var closed = false
    /// Throw `deviceLost` once this many frames have been written.
    var failAfterFrames: Int?

    init(sampleRate: Int = 48_000, channelCount: Int = 1) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }

    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioOutputError) {
        let frames = samples.count / channelCount
        condition.lock()
        defer { condition.unlock() }
        while allowed < written + frames && !stopped && !closed { condition.wait() }
        if closed { throw .deviceLost(device: "manual", reason: "closed") }
        if let limit = failAfterFrames, written + frames > limit {
            throw .deviceLost(device: "manual", reason: "unplugged")
        }
        recorded.append(contentsOf: samples)
        written += frames
        condition.broadcast()
    }

    func pendingFrames() -> Int { 0 }
    func drain() {}
    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// Lets `frames` more frames through, rounded up to whole periods: the audio thread
    /// writes a period at a time, so a partial one would never be taken.
    func advance(frames: Int) {
        let whole = (frames + periodFrames - 1) / periodFrames * periodFrames
        condition.withLock {
            allowed += whole
            condition.broadcast()
        }
    }

    /// Lets everything through from now on (before stopping the engine).
    func release() { advance(frames: Int.max / 2) }

    /// Waits until at least `frames` frames were written; false on timeout.
    @discardableResult
    func waitUntilWritten(frames: Int, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while written < frames {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// Frames written so far.
    var framesWritten: Int { condition.withLock { written } }

    /// Samples recorded so far (interleaved).
    var samples: [Float] { condition.withLock { recorded } }
}

/// An engine on a manual output, started, with the output held at frame 0.
func makeManualEngine(profile: ActuatorProfile = .wideband) throws -> (HapticEngine, ManualOutput) {
    let output = ManualOutput(sampleRate: profile.sampleRate, channelCount: profile.channelCount)
    let engine = HapticEngine(configuration: .init(profile: profile)) { _, _, _ throws(AudioOutputError) in output }
    try engine.start()
    return (engine, output)
}
