import Foundation
import HapticsPlayback

/// The tests' one fake audio output: it records every sample it is given and takes them at a
/// pace the test chooses. Not real time (it allocates while recording): a test double for the
/// engine's logic, not for its timing.
///
/// - ``manual(sampleRate:channelCount:)``: `write` blocks until the test lets more frames
///   through (``advance(frames:)``), so commands sent in between land at known frames;
/// - ``paced(failAfterFrames:)``: takes samples at the wall clock's pace once its buffer is
///   full, as a sound card does, for tests whose commands act "now" (seek), which an unpaced
///   output would place wherever rendering had raced to.
///
/// Either fails with `deviceLost` once closed, or once `failAfterFrames` frames were written
/// (an unplugged device).
public final class TestOutput: AudioOutput, @unchecked Sendable {
    /// How `write` takes samples.
    public enum Pacing: Sendable {
        /// As the test allows (``advance(frames:)``, ``release()``).
        case manual
        /// At the wall clock's pace once a buffer is full.
        case wallClock
    }

    public let sampleRate: Int
    public let channelCount: Int
    public let periodFrames: Int
    public let bufferFrames: Int
    public let pacing: Pacing
    /// The name in `deviceLost` errors.
    public let name: String
    private let condition = NSCondition()
    private var allowed = 0
    private var written = 0
    private var recorded: [Float] = []
    private var startedAt: ContinuousClock.Instant?
    private var stopped = false
    private var closed = false
    private var failAfter: Int?

    public init(
        sampleRate: Int, channelCount: Int, periodFrames: Int, bufferFrames: Int, pacing: Pacing, name: String, failAfterFrames: Int? = nil
    ) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.pacing = pacing
        self.name = name
        failAfter = failAfterFrames
    }

    /// An output the test paces by hand, held at frame 0 until ``advance(frames:)``.
    public static func manual(sampleRate: Int = 48_000, channelCount: Int = 1) -> TestOutput {
        TestOutput(sampleRate: sampleRate, channelCount: channelCount, periodFrames: 256, bufferFrames: 768, pacing: .manual, name: "manual")
    }

    /// A mono 48 kHz output paced by the wall clock, as a sound card is.
    public static func paced(failAfterFrames: Int? = nil) -> TestOutput {
        TestOutput(
            sampleRate: 48_000, channelCount: 1, periodFrames: 240, bufferFrames: 720, pacing: .wallClock, name: "paced",
            failAfterFrames: failAfterFrames)
    }

    /// Throw `deviceLost` once this many frames have been written.
    public var failAfterFrames: Int? {
        get { condition.withLock { failAfter } }
        set { condition.withLock { failAfter = newValue } }
    }

    public func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioOutputError) {
        let frames = samples.count / channelCount
        condition.lock()
        if pacing == .manual {
            while allowed < written + frames && !stopped && !closed { condition.wait() }
        }
        if closed {
            condition.unlock()
            throw .deviceLost(device: name, reason: "closed")
        }
        if let failAfter, written + frames > failAfter {
            condition.unlock()
            throw .deviceLost(device: name, reason: "unplugged")
        }
        recorded.append(contentsOf: samples)
        written += frames
        let start = startedAt ?? .now
        startedAt = start
        let due = start + .seconds(Double(written - bufferFrames) / Double(sampleRate))
        condition.broadcast()
        condition.unlock()
        // This fake device's pacing: the blocking write of a real one.
        if pacing == .wallClock, due > .now { Thread.sleep(forTimeInterval: Self.seconds(due - .now)) }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    public func pendingFrames() -> Int { 0 }
    public func drain() {}

    /// Lets every blocked and later write through (a manual output stops holding the engine).
    public func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    public func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// Lets `frames` more frames through, rounded up to whole periods: the audio thread
    /// writes a period at a time, so a partial one would never be taken.
    public func advance(frames: Int) {
        let whole = (frames + periodFrames - 1) / periodFrames * periodFrames
        condition.withLock {
            allowed += whole
            condition.broadcast()
        }
    }

    /// Lets everything through from now on (before stopping the engine).
    public func release() { advance(frames: Int.max / 2) }

    /// Waits until at least `frames` frames were written; false on timeout.
    @discardableResult
    public func waitUntilWritten(frames: Int, timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while written < frames {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// Frames written so far.
    public var framesWritten: Int { condition.withLock { written } }

    /// Samples recorded so far (interleaved).
    public var samples: [Float] { condition.withLock { recorded } }
}
