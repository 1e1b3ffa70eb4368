// Start-up and peak memory of the `haptics` binary against programs that do the same job with
// nothing of ours (issue #15), in a release build:
//
//   swift build -c release --static-swift-stdlib --product haptics   (and the products below)
//   .build/release/startup-benchmark
//
// Next to this executable it needs `haptics`, `hello-foundation` and `peak-rss`; `aplay`
// (alsa-utils) comes from the PATH.
//
// 1. `haptics play success --device null` against `aplay -q -D null` of the same sound (the
//    WAV `haptics render success` writes: same rate, channels and length);
// 2. `haptics validate`, `list` and `show` of a small file against a Foundation "hello";
// 3. peak resident memory of that `play` against that `aplay`.
//
// Wall time from posix_spawn to waitpid, medians over `rounds` runs of each. Every command
// runs next to its anchor, in an order that alternates from round to round, so that the load
// of a shared machine drifts over both alike.
import BenchmarkSupport
import Foundation

let rounds = 40
let warmUpRounds = 3
let memoryRuns = 15

let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let tool = folder.appendingPathComponent("haptics").path
let hello = folder.appendingPathComponent("hello-foundation").path
let peakRSS = folder.appendingPathComponent("peak-rss").path

/// Runs a program to its end; its standard output goes to `output` (a file descriptor) or
/// /dev/null, its standard error to /dev/null. Returns the wall time in milliseconds and
/// whether it exited with 0.
func run(_ arguments: [String], output: Int32? = nil) -> (milliseconds: Double, succeeded: Bool) {
    let start = now()
    let status = ChildProcess(arguments, standardOutput: output).wait().status
    return (Double(now() - start) / 1e6, status == 0)
}

/// Peak resident memory of a run in MiB, through `peak-rss` (see its source for why).
func peakMemory(_ arguments: [String]) -> Double? {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return nil }
    let result = run([peakRSS] + arguments, output: fds[1])
    close(fds[1])
    var text = ""
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
        let n = read(fds[0], &buffer, buffer.count)
        if n <= 0 { break }
        text += String(decoding: buffer[0..<n], as: UTF8.self)
    }
    close(fds[0])
    guard result.succeeded, let kib = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
    return kib / 1024
}

func ratioText(_ ratio: Double) -> String {
    ratio >= 10 ? String(format: "%.0f×", ratio) : String(format: "%.2f×", ratio)
}

/// One result row of the benchmark table (`| figure | haptics | anchor | ratio | goal | met |`).
func row(_ figure: String, ours: Double, anchorName: String, anchor: Double, unit: String, goal: Double) {
    let ratio = ours / anchor
    print(
        "| \(figure) | \(String(format: "%.1f", ours)) \(unit) | \(anchorName): \(String(format: "%.1f", anchor)) \(unit) | \(ratioText(ratio)) | ≤ \(String(format: "%.1f", goal))× | \(ratio <= goal ? "✅" : "❌") |"
    )
}

for (path, product) in [(tool, "haptics"), (hello, "hello-foundation"), (peakRSS, "peak-rss")] where !FileManager.default.isExecutableFile(atPath: path) {
    print("startup-benchmark: skipped (\(path) not built; run `swift build -c release --static-swift-stdlib --product \(product)` first)")
    exit(0)
}

let scratch = try makePrivateFolder(prefix: "haptics-startup")
defer { try? FileManager.default.removeItem(at: scratch) }
let wav = scratch.appendingPathComponent("success.wav").path
let ahap = scratch.appendingPathComponent("success.ahap").path
guard run([tool, "render", "success", "-o", wav, "--format", "s16"]).succeeded,
    run([tool, "export", "success", "-o", ahap]).succeeded
else {
    fatalError("haptics could not write the benchmark's inputs")
}
let aplay = executable("aplay")
if aplay == nil {
    print("startup-benchmark: aplay not found (alsa-utils; scripts/install-dependencies.sh installs it): play rows skipped")
}

/// A command and the anchor it is compared with; times of both, run after run.
struct Pair {
    var figure: String
    var ours: [String]
    var anchorName: String
    var anchor: [String]
    var oursTimes: [Double] = []
    var anchorTimes: [Double] = []
}

var pairs: [Pair] = []
if let aplay {
    pairs.append(
        Pair(
            figure: "start-up, `play success --device null`", ours: [tool, "play", "success", "--device", "null"],
            anchorName: "`aplay -D null`, same sound", anchor: [aplay, "-q", "-D", "null", wav]))
}
for command in [["validate", ahap], ["list"], ["show", ahap]] {
    let shown = command.count > 1 ? "\(command[0]) <small file>" : command[0]
    pairs.append(Pair(figure: "start-up, `\(shown)`", ours: [tool] + command, anchorName: "Foundation hello", anchor: [hello]))
}

for round in 0..<(warmUpRounds + rounds) {
    for i in pairs.indices {
        let oursFirst = round % 2 == 0
        var times: (ours: Double, anchor: Double) = (0, 0)
        for turn in 0..<2 {
            let isOurs = (turn == 0) == oursFirst
            let result = run(isOurs ? pairs[i].ours : pairs[i].anchor)
            guard result.succeeded else { fatalError("failed: \((isOurs ? pairs[i].ours : pairs[i].anchor).joined(separator: " "))") }
            if isOurs { times.ours = result.milliseconds } else { times.anchor = result.milliseconds }
        }
        if round >= warmUpRounds {
            pairs[i].oursTimes.append(times.ours)
            pairs[i].anchorTimes.append(times.anchor)
        }
    }
}

for pair in pairs {
    print(
        "\(pair.figure): median \(String(format: "%.1f", median(pair.oursTimes))) ms (min \(String(format: "%.1f", pair.oursTimes.min()!))), "
            + "\(pair.anchorName) \(String(format: "%.1f", median(pair.anchorTimes))) ms (min \(String(format: "%.1f", pair.anchorTimes.min()!))), \(rounds) runs each"
    )
}

// Peak memory: alternated like the times, median of the runs.
var memory: (ours: [Double], anchor: [Double]) = ([], [])
if let aplay {
    for _ in 0..<memoryRuns {
        guard let ours = peakMemory([tool, "play", "success", "--device", "null"]),
            let anchor = peakMemory([aplay, "-q", "-D", "null", wav])
        else { fatalError("peak-rss failed") }
        memory.ours.append(ours)
        memory.anchor.append(anchor)
    }
    print(
        String(
            format: "peak memory of `play success --device null`: median %.1f MiB (max %.1f), aplay %.1f MiB (max %.1f), %d runs each",
            median(memory.ours), memory.ours.max()!, median(memory.anchor), memory.anchor.max()!, memoryRuns))
}

print("")
for pair in pairs {
    let goal = 1.5
    row(pair.figure, ours: median(pair.oursTimes), anchorName: pair.anchorName, anchor: median(pair.anchorTimes), unit: "ms", goal: goal)
}
if !memory.ours.isEmpty {
    row(
        "peak memory, `play success --device null`", ours: median(memory.ours), anchorName: "`aplay -D null`, same sound",
        anchor: median(memory.anchor), unit: "MiB", goal: 2)
}
