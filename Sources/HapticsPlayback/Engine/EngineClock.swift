import FoundationEssentials
import Glibc
import Synchronization
import HapticsSystem

/// The engine's clock: the position, in seconds, of the frame being heard now.
///
/// After every write the audio thread publishes how many frames it has rendered, how many the
/// device still holds and when that was (monotonic clock). Any thread reads the three
/// consistently through a sequence lock (no waiting on the writer) and extrapolates to now,
/// never past what was rendered.
final class EngineClock: Sendable {
    let sampleRate: Double
    private let sequence = Atomic<Int>(0)
    private let rendered = Atomic<Int>(0)
    private let pending = Atomic<Int>(0)
    private let stamp = Atomic<Int>(0)
    private let running = Atomic<Bool>(false)
    /// The latest time any reader was given, as the bits of a non-negative Double (which
    /// order like the Doubles): a device's delay estimate jumps (a sound server adds its
    /// latency, the hardware pointer moves by periods, a restart begins with a full buffer),
    /// and the clock must still never go back, nor below zero.
    private let latest = Atomic<UInt64>(0)

    init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// Monotonic nanoseconds.
    static func now() -> Int { SystemClock.nanoseconds }

    /// Audio thread: frames rendered so far and frames the device still holds.
    func publish(rendered frames: Int, pending held: Int) {
        let s = sequence.load(ordering: .relaxed)
        sequence.store(s + 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        rendered.store(frames, ordering: .relaxed)
        pending.store(held, ordering: .relaxed)
        stamp.store(Self.now(), ordering: .relaxed)
        sequence.store(s + 2, ordering: .releasing)
    }

    /// Whether the audio thread runs (the clock advances) or the engine is stopped (it holds).
    func setRunning(_ value: Bool) {
        // Everything rendered before a stop counts as heard: a restart continues from there.
        if !value { _ = monotonic(Double(rendered.load(ordering: .acquiring)) / sampleRate) }
        running.store(value, ordering: .releasing)
    }

    /// `candidate`, or the latest time already given if that is later.
    private func monotonic(_ candidate: Double) -> Double {
        var seen = latest.load(ordering: .relaxed)
        let bits = max(0, candidate).bitPattern
        while bits > seen {
            let (exchanged, original) = latest.compareExchange(expected: seen, desired: bits, ordering: .relaxed)
            if exchanged { return Double(bitPattern: bits) }
            seen = original
        }
        return Double(bitPattern: seen)
    }

    /// Seconds on the engine's timeline that are being heard now.
    var time: Double {
        while true {
            let s1 = sequence.load(ordering: .acquiring)
            if s1 & 1 == 1 { continue }
            let frames = rendered.load(ordering: .relaxed)
            let held = pending.load(ordering: .relaxed)
            let at = stamp.load(ordering: .relaxed)
            atomicMemoryFence(ordering: .acquiring)
            guard sequence.load(ordering: .relaxed) == s1 else { continue }
            guard running.load(ordering: .acquiring), at > 0 else { return monotonic(Double(frames) / sampleRate) }
            let heard = Double(frames - held) + Double(Self.now() - at) * 1e-9 * sampleRate
            return monotonic(min(max(heard, Double(frames - held)), Double(frames)) / sampleRate)
        }
    }

    /// The frame the audio thread will render next, as last published.
    var renderedFrames: Int { rendered.load(ordering: .acquiring) }
}
