// Renders a long, dense pattern to a 48 kHz 16-bit WAV and prints how many seconds of signal
// it renders per wall-clock second, and the process's peak memory.
//
//   swift run -c release render-benchmark [minutes] [output.wav]
//
// The pattern: 10 minutes (by default) with 12,000 transients and 600 continuous events with
// envelopes, plus intensity and sharpness curves, as issue #3 specifies.
import Foundation
import HapticsCore
import HapticsRender

let arguments = CommandLine.arguments.dropFirst()
let minutes = arguments.first.flatMap(Double.init) ?? 10
let outputPath = arguments.dropFirst().first ?? "/tmp/haptics-render-benchmark.wav"
let seconds = minutes * 60

var events: [HapticEvent] = []
let transients = Int(seconds * 20)    // 12,000 in 10 minutes
let continuous = Int(seconds)         // 600 in 10 minutes
for i in 0..<transients {
    let t = Double(i) * seconds / Double(transients)
    events.append(.transient(at: t, intensity: 0.3 + 0.5 * Double(i % 7) / 6, sharpness: Double(i % 11) / 10))
}
for i in 0..<continuous {
    let t = Double(i) * seconds / Double(continuous) + 0.013
    events.append(.continuous(at: t, duration: 0.6, intensity: 0.4 + 0.4 * Double(i % 3) / 2,
                              sharpness: Double(i % 5) / 4, attack: 0.2, decay: 0.3, release: 0.25))
}
var curves: [HapticParameterCurve] = []
for i in stride(from: 0.0, to: seconds, by: 2.0) {
    curves.append(HapticParameterCurve(.hapticIntensityControl, at: i, points: [(0, 1), (0.5, 0.6), (1, 0.9), (2, 1)]))
    curves.append(HapticParameterCurve(.hapticSharpnessControl, at: i + 1, points: [(0, 0), (0.5, 0.3), (1, 0)]))
}
let pattern = HapticPattern(events: events.shuffled(), curves: curves)

func peakMemoryMiB() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
}

let memoryBefore = peakMemoryMiB()
let clock = ContinuousClock()
var renderer: HapticRenderer!
let compileTime = clock.measure { renderer = HapticRenderer(pattern: pattern, profile: .wideband, sampleRate: 48_000) }
let renderTime = try clock.measure { try renderer.writeWAV(to: outputPath, format: .s16) }
let wall = Double(renderTime.components.seconds) + Double(renderTime.components.attoseconds) * 1e-18
let signal = renderer.statistics.duration
print(String(format: "pattern: %.0f s, %d transients, %d continuous events, %d curves", seconds, transients, continuous, curves.count))
print(String(format: "compile: %.1f ms", Double(compileTime.components.attoseconds) * 1e-15 + Double(compileTime.components.seconds) * 1000))
print(String(format: "render + write 48 kHz s16 WAV: %.3f s wall for %.1f s of signal = %.0f× real time", wall, signal, signal / wall))
print(String(format: "peak memory: %.1f MiB (%.1f MiB before rendering); clipped samples: %d; dropped events: %d",
             peakMemoryMiB(), memoryBefore, renderer.statistics.clippedSamples, renderer.droppedEvents))
