import Foundation
import CoreHaptics
import Haptics

/// An output that takes samples at the pace of the wall clock, as a sound card does, and keeps
/// them: for tests whose commands act "now" (seek), which the unpaced file plugin would place
/// wherever rendering had raced to.
final class PacedOutput: AudioOutput, @unchecked Sendable {
    let sampleRate: Int
    let channelCount: Int
    let periodFrames = 240
    let bufferFrames = 720
    private let lock = NSLock()
    private var recorded: [Float] = []
    private var written = 0
    private var startedAt: Date?
    private var closed = false
    /// Fails with `deviceLost` once this many frames were written (an unplugged device).
    let failAfterFrames: Int?

    init(failAfterFrames: Int? = nil) {
        sampleRate = 48_000
        channelCount = 1
        self.failAfterFrames = failAfterFrames
    }

    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioOutputError) {
        let (due, isClosed) = lock.withLock { () -> (Date, Bool) in
            let start = startedAt ?? Date()
            startedAt = start
            recorded.append(contentsOf: samples)
            written += samples.count / channelCount
            return (start.addingTimeInterval(Double(written - bufferFrames) / Double(sampleRate)), closed)
        }
        if isClosed { throw .deviceLost(device: "paced", reason: "closed") }
        if let limit = failAfterFrames, lock.withLock({ written }) > limit {
            throw .deviceLost(device: "paced", reason: "unplugged")
        }
        let wait = due.timeIntervalSinceNow
        // Kept: this fake device's pacing, the blocking write of a real one.
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
    }

    func pendingFrames() -> Int { 0 }
    func drain() {}
    func stop() {}
    func close() { lock.withLock { closed = true } }

    /// The samples so far (interleaved).
    var samples: [Float] { lock.withLock { recorded } }

    /// A native engine playing into this output.
    func nativeEngine() -> HapticEngine {
        HapticEngine(configuration: .init(device: "paced", profile: .wideband)) { _, _, _ in self }
    }

    /// A Core Haptics engine playing into a new paced output.
    static func engine() -> (engine: CHHapticEngine, output: PacedOutput) {
        let output = PacedOutput()
        return (CHHapticEngine(hapticEngine: output.nativeEngine()), output)
    }

    /// Runs `body` with every `CHHapticEngine()` it makes playing into this output.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        try HapticOutputSelection.$override.withValue(HapticOutputSelection(device: "paced")) {
            try CHHapticEngine.$nativeEngineFactory.withValue({ self.nativeEngine() }, operation: body)
        }
    }

    /// Runs `body` with every `CHHapticEngine()` it makes playing into this output.
    func run<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        try await HapticOutputSelection.$override.withValue(
            HapticOutputSelection(device: "paced"),
            operation: {
                try await CHHapticEngine.$nativeEngineFactory.withValue({ self.nativeEngine() }, operation: body, isolation: isolation)
            }, isolation: isolation)
    }
}
