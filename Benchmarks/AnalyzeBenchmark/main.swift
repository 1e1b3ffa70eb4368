// Analyses a one-minute stereo 48 kHz sound (a synthesised mix: a bass line, a chord with a
// moving filter, noise, and drum hits) and prints how long reading it (libsndfile) and
// analysing it (kissfft) take.
//
//   swift run -c release analyze-benchmark [seconds] [file.wav]
//
// With a file argument that file is analysed instead of the synthesised one.
import Foundation
import HapticsFormats
import HapticsRender
import HapticsSystem

let arguments = CommandLine.arguments.dropFirst()
let seconds = arguments.first.flatMap(Double.init) ?? 60
var path = arguments.dropFirst().first ?? ""
/// The synthesised sound's private folder, removed at the end: a fixed name in the shared
/// temporary folder could be a link another user planted (issue #24).
var scratch: String?

if path.isEmpty {
    let folder = try PrivateFolder.makeTemporary(prefix: "haptics-analyze-benchmark")
    scratch = folder
    path = folder + "/noise.wav"
    let rate = 48_000.0
    let frames = Int(seconds * rate)
    var samples = [Float](repeating: 0, count: frames * 2)
    var seed: UInt64 = 0x9e3779b97f4a7c15
    func noise() -> Float {
        seed ^= seed << 13
        seed ^= seed >> 7
        seed ^= seed << 17
        return Float(Double(seed >> 11) / Double(1 << 53) * 2 - 1)
    }
    for i in 0..<frames {
        let t = Double(i) / rate
        let beat = t.truncatingRemainder(dividingBy: 0.5)
        // A kick: pitch falling from 130 to 50 Hz (phase integrated), decaying.
        let kick = beat < 0.12 ? sin(2 * .pi * (50 * beat + 2 * (1 - exp(-beat * 40)))) * exp(-beat * 25) : 0
        let bass = 0.25 * sin(2 * .pi * 55 * t * (1 + 0.5 * Double(Int(t / 2) % 3)))
        let chord = 0.1 * (sin(2 * .pi * 440 * t) + sin(2 * .pi * 554 * t) + sin(2 * .pi * 659 * t)) * (0.5 + 0.5 * sin(2 * .pi * 0.1 * t))
        let hat = beat > 0.25 && beat < 0.28 ? Double(noise()) * 0.3 : 0
        let left = Float(0.6 * kick + bass + chord + hat) + noise() * 0.01
        let right = Float(0.6 * kick + bass * 0.8 + chord * 1.2 + hat) + noise() * 0.01
        samples[2 * i] = left * 0.7
        samples[2 * i + 1] = right * 0.7
    }
    let writer = try WAVWriter(path: path, sampleRate: Int(rate), channelCount: 2, format: .s16, frameCount: frames)
    try samples.withUnsafeBufferPointer { try writer.write($0) }
    try writer.finish()
}

let clock = ContinuousClock()
var best = Duration.seconds(1000)
var bestRead = Duration.seconds(1000)
var result: AudioAnalyzer.Result?
var audio: AudioFile?
for _ in 0..<5 {
    let start = clock.now
    let file = try AudioFile(contentsOf: path)
    let read = clock.now
    let analysed = try AudioAnalyzer().analyze(file)
    let end = clock.now
    if end - start < best {
        best = end - start
        bestRead = read - start
    }
    result = analysed
    audio = file
}
func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
let total = ms(best)
let read = ms(bestRead)
print(
    String(
        format: "%.1f s of sound, %d channel(s) at %.0f Hz: %.0f ms (read %.0f ms, analysis %.0f ms), %.0f× real time",
        audio!.duration, audio!.channelCount, Double(audio!.sampleRate), total, read, total - read, audio!.duration * 1000 / total))
print("\(result!.onsets.count) onsets, \(result!.layers.intensity.count) intensity and \(result!.layers.sharpness.count) sharpness points")
if let scratch { PrivateFolder.remove(scratch) }
