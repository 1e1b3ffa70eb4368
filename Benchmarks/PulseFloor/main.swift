// The floor under a spawned `haptics play --device pulse` (issue #28): a static Swift program,
// linked like `haptics`, that does only what any such program must before the click is heard:
// start (exec → main), load libpulse and its libraries, connect, open the stream as
// `PulseOutput` does (CPulse, 20 ms buffer, 48 kHz mono) and write one buffer holding the
// click. LatencyBenchmark spawns it with play's words (`play --device pulse`), so that its
// constructor begins loading libpulse and connecting before the runtime starts, as `haptics`'s
// does (CStartup), and the open takes that connection; nothing else reads the arguments, no
// pattern is compiled, no engine or thread started. What it measures above paplay is the cost
// of a static Swift binary's start before its first constructor, and of the runtime's start
// beside the loading; what `haptics play` measures above it is play's own work (the command
// line, the pattern, the engine and its audio thread).
import CPulse
import Glibc

let rate: UInt32 = 48_000
let buffer: UInt32 = 960
var message = [CChar](repeating: 0, count: 256)
guard let stream = haptics_pulse_open(HAPTICS_PULSE_APPLICATION, rate, 1, buffer, buffer / 3, HAPTICS_PULSE_OPEN_TIMEOUT_MS, &message, message.count) else {
    let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let line = Array("pulse-floor: \(reason)\n".utf8)
    _ = line.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
    exit(69)
}
// A 1 ms click, then silence to the end of the buffer.
var samples = [Float](repeating: 0, count: Int(buffer))
for i in 0..<Int(rate / 1000) { samples[i] = 0.9 }
_ = samples.withUnsafeBufferPointer { haptics_pulse_write(stream, $0.baseAddress, $0.count) }
// Heard within the buffer: the stream is closed after it has played (the latency is measured
// at its first sample, so this wait is not in the figure).
usleep(40_000)
haptics_pulse_close(stream)
