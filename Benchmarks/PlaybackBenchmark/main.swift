// Playback figures, in a release build:
//
//   swift build -c release && .build/release/playback-benchmark
//
// 1. latency: from `player.start()` to the first non-silent frame handed to the device;
// 2. jitter: scheduled onsets vs where they land on the device clock (the written stream).
// (The CLI's start-up is startup-benchmark's.)
//
// Latency and jitter use ALSA's `pulse` device on a private PulseAudio null sink when
// `pulseaudio` is installed (real-time pacing, no sound card needed), else the `null` device.
import BenchmarkSupport
import Foundation
import Haptics
import Synchronization

let runs = 30

func milliseconds(_ nanoseconds: Int) -> Double { Double(nanoseconds) / 1e6 }

// MARK: A probe between the engine and the device

/// Forwards to a real output; records the whole stream (preallocated) and when the first
/// non-silent frame after arming went to the device.
final class ProbeOutput: AudioOutput, @unchecked Sendable {
    let base: any AudioOutput
    var sampleRate: Int { base.sampleRate }
    var channelCount: Int { base.channelCount }
    var periodFrames: Int { base.periodFrames }
    var bufferFrames: Int { base.bufferFrames }
    let capacity = 48_000 * 30
    let stream: UnsafeMutablePointer<Float>
    let written = Atomic<Int>(0)
    let armed = Atomic<Bool>(false)
    let firstSound = Atomic<Int>(0)
    let pendingAtFirstSound = Atomic<Int>(0)

    init(_ base: any AudioOutput) {
        self.base = base
        stream = .allocate(capacity: capacity)
    }

    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioOutputError) {
        let frames = samples.count / channelCount
        let offset = written.load(ordering: .relaxed)
        let sounding = samples.contains { $0 != 0 }
        if offset + frames <= capacity {
            for i in 0..<frames { stream[offset + i] = samples[i * channelCount] }
        }
        try base.write(samples)
        if sounding && armed.load(ordering: .acquiring) {
            firstSound.store(now(), ordering: .relaxed)
            pendingAtFirstSound.store(base.pendingFrames(), ordering: .relaxed)
            armed.store(false, ordering: .releasing)
        }
        written.store(offset + frames, ordering: .releasing)
    }

    func pendingFrames() -> Int { base.pendingFrames() }
    func drain() { base.drain() }
    func stop() { base.stop() }
    func close() { base.close() }
}

// MARK: 2. Latency and 3. jitter

let server = PulseServer(sampleRate: 48_000)
let device = server == nil ? "null" : "pulse"
let probe = Mutex<ProbeOutput?>(nil)
let engine = HapticEngine(configuration: .init(device: device, latency: .milliseconds(20))) { rate, channels, latency throws(AudioOutputError) in
    let output = ProbeOutput(try ALSAOutput(device: device, sampleRate: rate, channelCount: channels, latency: latency))
    probe.withLock { $0 = output }
    return output
}
try engine.start()
let output = probe.withLock { $0! }
print(
    String(
        format: "device '%@': period %d frames (%.1f ms), buffer %d frames (%.1f ms)", device,
        output.periodFrames, Double(output.periodFrames) / 48, output.bufferFrames, Double(output.bufferFrames) / 48))
usleep(300_000)

let tap = HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 1)])
var handoffs: [Double] = []
var heard: [Double] = []
for _ in 0..<runs {
    let player = try engine.makePlayer(with: tap)
    usleep(UInt32.random(in: 20_000...40_000))
    output.armed.store(true, ordering: .releasing)
    let start = now()
    try player.start()
    while output.armed.load(ordering: .acquiring) { usleep(100) }
    let handoff = milliseconds(output.firstSound.load(ordering: .relaxed) - start)
    handoffs.append(handoff)
    heard.append(handoff + Double(output.pendingAtFirstSound.load(ordering: .relaxed)) / 48)
    usleep(60_000)
}
print(
    String(
        format: "latency on '%@', player.start() → first non-silent frame handed to ALSA: median %.2f ms, p99 %.2f ms, max %.2f ms",
        device, percentile(handoffs, 0.5), percentile(handoffs, 0.99), handoffs.max()!))
if server != nil {
    print(
        String(
            format: "  plus what the device still held then: heard after median %.1f ms, max %.1f ms (20 ms buffer)",
            percentile(heard, 0.5), heard.max()!))
}

// Jitter: 100 onsets scheduled ahead on the engine clock; where do they land in the stream?
let base = engine.currentTime + 0.3
let streamStart = output.written.load(ordering: .acquiring)
var scheduled: [Int] = []
var players: [HapticPatternPlayer] = []
for i in 0..<100 {
    let time = base + Double(i) * 0.023
    let player = try engine.makePlayer(with: tap)
    try player.start(atTime: time)
    players.append(player)
    scheduled.append(Int((time * 48_000).rounded()))
}
let end = scheduled.last! + 4800
let deadline = Date().addingTimeInterval(20)
while engine.currentTime * 48_000 < Double(end) && Date() < deadline { usleep(10_000) }
let total = output.written.load(ordering: .acquiring)
var onsets: [Int] = []
var silent = 96
for frame in streamStart..<min(total, output.capacity) {
    if output.stream[frame] != 0 {
        if silent >= 96 { onsets.append(frame) }
        silent = 0
    } else {
        silent += 1
    }
}
// The stream's frame n is engine frame n: the engine clock counts frames written.
let errors = zip(onsets, scheduled).map { Double($0 - $1) / 48 }
if onsets.count == scheduled.count {
    let mean = errors.reduce(0, +) / Double(errors.count)
    let deviation = (errors.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(errors.count)).squareRoot()
    print(
        String(
            format: "jitter of 100 scheduled onsets on the device clock: max |error| %.3f ms, mean %.3f ms, std dev %.3f ms (1 frame = 0.021 ms)",
            errors.map(abs).max()!, mean, deviation))
} else {
    print("jitter: found \(onsets.count) onsets for \(scheduled.count) scheduled")
}
engine.stop()
server?.stop()
