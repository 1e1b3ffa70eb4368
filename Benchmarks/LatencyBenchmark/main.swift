// End-to-end latency and playback CPU, in a release build:
//
//   swift build -c release --product haptics --product latency-benchmark
//   .build/release/latency-benchmark [plays] [--spawned]
//
// On a private PulseAudio null sink (no sound card needed), whose monitor a thread of this
// process reads as it arrives (see MonitorListener), alternating for each of `plays` rounds:
//
// 1. library: `player.start(atTime: 0)` of a click on a running engine, standard (20 ms)
//    and low-latency configurations → the click's first non-zero sample on the monitor;
// 2. CLI: spawning `haptics play click.ahap --device pulse` → the same;
// 3. anchor: spawning `paplay click.wav` (the same click, rendered by our renderer) → the same;
// 4. the floor under 2: spawning `pulse-floor` (beside this executable, when built), a static
//    Swift program that only connects (from its constructor, as play does), opens the stream
//    through CPulse and writes a click → the same.
//
// Then the CPU time (user + system) of `haptics play` of a long pattern against `aplay` of the
// same pattern rendered to WAV, with the same buffer and period sizes on the same device, in
// three pairs (the median of their ratios).
//
// With `--spawned`, only rounds 2 and 3 (for the tail of spawned plays on a loaded machine:
// the rounds over 20 ms are listed with their monotonic start, to find them in a trace).
import BenchmarkSupport
import Foundation
import Haptics
import Synchronization

let plays = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 200
/// Other builds of `haptics` (`HAPTICS_LATENCY_BASELINE=path[:path…]`), spawned in the same
/// rounds as this one's: a change's before and after, paired like the anchor, on one machine
/// state.
let baselines = (ProcessInfo.processInfo.environment["HAPTICS_LATENCY_BASELINE"] ?? "").split(separator: ":").map(String.init)
let spawnedOnly = CommandLine.arguments.contains("--spawned")
let rate = 48_000
let began = now()

let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let tool = binaries.appendingPathComponent("haptics").path
let floorProgram = binaries.appendingPathComponent("pulse-floor").path
let hasFloor = FileManager.default.isExecutableFile(atPath: floorProgram)
guard FileManager.default.isExecutableFile(atPath: tool) else {
    print("latency: skipped (\(tool) not built; run `swift build -c release --product haptics` first)")
    exit(0)
}
guard let paplay = executable("paplay"), let aplay = executable("aplay"), executable("parec") != nil else {
    print("latency: skipped (paplay, parec or aplay missing; Debian: pulseaudio-utils, alsa-utils)")
    exit(0)
}
guard let server = PulseServer(sampleRate: rate) else {
    print("latency: skipped (no pulseaudio to run a private null sink on)")
    exit(0)
}
defer { server.stop() }
let monitor = MonitorListener(server: server)
defer { monitor.stop() }

// MARK: The sounds

let files = try makePrivateFolder(prefix: "haptics-latency-files")
defer { try? FileManager.default.removeItem(at: files) }
func write(_ pattern: HapticPattern, named name: String) throws -> (ahap: String, wav: String) {
    let ahap = files.appendingPathComponent(name + ".ahap").path
    let wav = files.appendingPathComponent(name + ".wav").path
    try pattern.ahapData.write(to: URL(fileURLWithPath: ahap))
    // Float32, as the engine sends it: the player converts nothing either way.
    try HapticRenderer(pattern: pattern, profile: .wideband).writeWAV(to: wav, format: .f32)
    return (ahap, wav)
}
let click = HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 1)])
let clickFiles = try write(click, named: "click")
let longPlay = 5.0
let long = try write(HapticPattern(events: [.continuous(at: 0, duration: longPlay, intensity: 0.8, sharpness: 0.5)]), named: "long")

// MARK: Engines

/// An engine on the `pulse` device, and the output it opened (for its negotiated sizes): the
/// output the engine itself opens for that name (libpulse, see `AudioDevice`).
func openEngine(latency: Duration) throws -> (HapticEngine, any AudioOutput) {
    let opened = Mutex<(any AudioOutput)?>(nil)
    let engine = HapticEngine(configuration: .init(device: "pulse", latency: latency)) { rate, channels, latency throws(AudioOutputError) in
        let output = try AudioDevice.open("pulse", sampleRate: rate, channelCount: channels, latency: latency)
        opened.withLock { $0 = output }
        return output
    }
    try engine.start()
    return (engine, opened.withLock { $0! })
}
func describe(_ output: any AudioOutput) -> String {
    String(
        format: "%@, period %d frames (%.2f ms), buffer %d frames (%.2f ms)", output is PulseOutput ? "libpulse" : "ALSA's pulse plugin",
        output.periodFrames, Double(output.periodFrames) * 1000 / Double(rate), output.bufferFrames, Double(output.bufferFrames) * 1000 / Double(rate))
}
/// Times the output's buffer ran dry (and the output recovered) since it opened.
func underruns(_ output: any AudioOutput) -> Int {
    (output as? PulseOutput)?.underflowCount ?? (output as? ALSAOutput)?.recoveryCount ?? 0
}
let (standardEngine, standardOutput) = try openEngine(latency: .milliseconds(20))
let (lowEngine, lowOutput) = try openEngine(latency: HapticEngine.Configuration.lowLatency)
print("pulse device, standard configuration: \(describe(standardOutput))")
print("pulse device, low-latency configuration: \(describe(lowOutput))")
usleep(300_000)

// MARK: Latency

/// When the last measurement began (monotonic nanoseconds).
nonisolated(unsafe) var lastBegin = 0
/// Milliseconds from `start` running to the first non-zero sample on the monitor.
func measure(_ start: () throws -> Void) rethrows -> Double? {
    monitor.waitForSilence()
    monitor.arm()
    let begin = now()
    lastBegin = begin
    try start()
    guard let heard = monitor.heardTime() else { return nil }
    return Double(heard - begin) / 1e6
}
func play(on engine: HapticEngine) throws -> Double? {
    let player = try engine.makePlayer(with: click)
    return try measure { try player.start(atTime: 0) }
}
func spawn(_ arguments: [String]) -> Double? {
    var child: ChildProcess?
    let latency = measure { child = ChildProcess(arguments) }
    let status = child!.wait().status
    guard status == 0 else { fatalError("\(arguments.joined(separator: " ")) exited with \(status)") }
    return latency
}

print("underruns after opening and 0.3 s idle: standard \(underruns(standardOutput)), low latency \(underruns(lowOutput))")
var library: [Double] = []
var libraryLow: [Double] = []
var cli: [Double] = []
var cliBaselines = [[Double]](repeating: [], count: baselines.count)
var floor: [Double] = []
var anchor: [Double] = []
var missed = 0
@MainActor func record(_ value: Double?, into series: inout [Double]) {
    if let value { series.append(value) } else { missed += 1 }
}
/// Spawned rounds over 20 ms: which program, when it started (monotonic ns), how long.
var slowRounds: [(program: String, start: Int, milliseconds: Double)] = []
@MainActor func printSlowRounds() {
    for round in slowRounds { print("  slow: \(round.program) started at \(round.start) ns: " + String(format: "%.1f ms", round.milliseconds)) }
}
/// A baseline's rounds against the same rounds of this build's play and of the floor: the
/// median of the per-round differences (milliseconds), which the machine's drift between rounds
/// moves less than a difference of medians (every series has a round of each kind in each
/// round; none when a play was never heard, since the rounds no longer pair).
@MainActor func pairedDifferences(_ values: [Double]) -> String {
    var parts: [String] = []
    for (name, other) in [("haptics play", cli), ("pulse-floor", floor)] where other.count == values.count && !other.isEmpty {
        parts.append(String(format: "%+.2f ms against %@", percentile(zip(values, other).map { $0 - $1 }, 0.5), name))
    }
    return parts.isEmpty ? "" : "; per round, median " + parts.joined(separator: ", ")
}
@MainActor func spawnRound(_ arguments: [String], into series: inout [Double]) {
    let latency = spawn(arguments)
    if let latency, latency > 20 { slowRounds.append((URL(fileURLWithPath: arguments[0]).lastPathComponent, lastBegin, latency)) }
    record(latency, into: &series)
}
for _ in 0..<plays {
    if !spawnedOnly {
        record(try play(on: standardEngine), into: &library)
        record(try play(on: lowEngine), into: &libraryLow)
    }
    spawnRound([tool, "play", clickFiles.ahap, "--device", "pulse"], into: &cli)
    spawnRound([paplay, clickFiles.wav], into: &anchor)
    // With play's words: its constructor connects early, as play's does (see PulseFloor).
    if hasFloor { spawnRound([floorProgram, "play", "--device", "pulse"], into: &floor) }
    for (i, baseline) in baselines.enumerated() { spawnRound([baseline, "play", clickFiles.ahap, "--device", "pulse"], into: &cliBaselines[i]) }
}
/// p50, p99, min and max of a series of latencies, and how many rounds were over 20 ms (the tail).
func summary(_ values: [Double]) -> String {
    String(format: "p50 %.1f ms, p99 %.1f ms, min %.1f ms, max %.1f ms", percentile(values, 0.5), percentile(values, 0.99), values.min()!, values.max()!)
        + "; over 20 ms: \(values.filter { $0 > 20 }.count)"
}
/// The spawned programs' rows (this build's play, paplay, the floor, the baselines) and the slow rounds.
@MainActor func printSpawnedRows() {
    print("  haptics play (CLI):        \(summary(cli))")
    print("  paplay:                    \(summary(anchor))")
    if !floor.isEmpty { print("  pulse-floor:               \(summary(floor))") }
    for (baseline, values) in zip(baselines, cliBaselines) where !values.isEmpty {
        print("  \(baseline) play: \(summary(values))\(pairedDifferences(values))")
    }
    printSlowRounds()
}
if spawnedOnly {
    print("\(plays) alternated rounds, spawned → first non-zero sample\(missed > 0 ? " (\(missed) plays never heard)" : ""):")
    printSpawnedRows()
    exit(0)
}
let underrunCounts = (standard: underruns(standardOutput), low: underruns(lowOutput))
// Both engines idle together (from 0.5 s after their last clicks), the low-latency one's
// 2.5 ms periods beside the standard one's: their wake-ups against the periods of both.
usleep(500_000)
let bothBefore = (standard: underruns(standardOutput), low: underruns(lowOutput))
let both = idleCost(seconds: 3)
let bothPeriods = [standardOutput, lowOutput].map { Int(both.seconds * Double(rate) / Double($0.periodFrames)) + 1 }.reduce(0, +)
print(
    String(
        format: "both engines idle for %.1f s: %d wake-ups of their threads for %d periods (%.3f×), %.0f ms/h of CPU; underruns: standard %d, low latency %d",
        both.seconds, both.switches, bothPeriods, Double(both.switches) / Double(bothPeriods), both.cpuPerHour,
        underruns(standardOutput) - bothBefore.standard, underruns(lowOutput) - bothBefore.low))
lowEngine.stop()

// MARK: Idle

/// Context switches (each a wake-up) and CPU time of this process's engine threads (named
/// `haptics-…`: audio, notification), from /proc/self/task/*/status and schedstat.
func engineThreads() -> (switches: Int, cpuNanoseconds: Int) {
    var total = (switches: 0, cpuNanoseconds: 0)
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    for task in tasks {
        let base = "/proc/self/task/\(task)/"
        guard let name = try? String(contentsOfFile: base + "comm", encoding: .utf8), name.hasPrefix("haptics-") else { continue }
        let status = (try? String(contentsOfFile: base + "status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
            total.switches += Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
        }
        let schedstat = (try? String(contentsOfFile: base + "schedstat", encoding: .utf8)) ?? ""
        total.cpuNanoseconds += Int(schedstat.split(separator: " ").first ?? "") ?? 0
    }
    return total
}
/// Wake-ups per second and CPU milliseconds per hour of the engine threads over about
/// `seconds`, with the wake-ups counted and the seconds that really passed.
func idleCost(seconds: Double) -> (wakeUps: Double, cpuPerHour: Double, switches: Int, seconds: Double) {
    let before = engineThreads()
    let begin = now()
    usleep(UInt32(seconds * 1e6))
    let after = engineThreads()
    let elapsed = Double(now() - begin) / 1e9
    let switches = after.switches - before.switches
    return (Double(switches) / elapsed, Double(after.cpuNanoseconds - before.cpuNanoseconds) / 1e6 * 3600 / elapsed, switches, elapsed)
}
// The standard engine alone (the low-latency one is stopped), started and idle after a click;
// measured from 0.5 s after the click, once the engine has gone from playing to idle (its first
// wait after a start anchors on the server's request, one wake-up more).
let idleSeconds = 3.0
usleep(500_000)
let idleUnderrunsBefore = underruns(standardOutput)
let pacedBefore = (standardOutput as? PulseOutput)?.pacedWaits ?? (onTime: 0, early: 0, precise: 0)
let idle = idleCost(seconds: idleSeconds)
let pacedAfter = (standardOutput as? PulseOutput)?.pacedWaits ?? (onTime: 0, early: 0, precise: 0)
let idleUnderruns = underruns(standardOutput) - idleUnderrunsBefore
let pacedOnTime = pacedAfter.onTime - pacedBefore.onTime
let pacedEarly = pacedAfter.early - pacedBefore.early
let pacedPrecise = pacedAfter.precise - pacedBefore.precise
print(
    "underruns of the standard engine while idle for \(Int(idleSeconds)) s: \(idleUnderruns); its waits for room paced by the clock:"
        + " \(pacedOnTime) on time, \(pacedEarly) too early (then waiting for the server's request);"
        + " \(pacedPrecise) not paced, taking the server's request as it came to anchor the model on it (one in 1,024)")
let idlePeriod = Double(standardOutput.periodFrames) / Double(rate)
// Once a period: a window of n periods and a bit holds n + 1 period boundaries at most; and
// one more for each wait that took the server's request as it came (one in 1,024, to keep the
// model on the server's clock), which also wakes for the packets before the request.
let idleAllowed = Int(idle.seconds / idlePeriod) + 1 + pacedPrecise
standardEngine.stop()
// With auto-shutdown, after its idle timeout: the device closed and the thread ended.
var shutdownConfiguration = HapticEngine.Configuration(device: "pulse", idleTimeout: .milliseconds(500))
shutdownConfiguration.latency = .milliseconds(20)
let shutdownEngine = HapticEngine(configuration: shutdownConfiguration)
shutdownEngine.isAutoShutdownEnabled = true
try shutdownEngine.makePlayer(with: click).start(atTime: 0)
usleep(1_500_000)
let parked = idleCost(seconds: idleSeconds)
let shutdownRunning = shutdownEngine.isRunning
print(
    String(
        format:
            "| Idle engine on pulse (standard, started, nothing playing, %.0f s): wake-ups per second of its threads, CPU per hour | %.1f/s (%d), %.0f ms/h | once a period: %.1f/s (%d periods begin in the window, %d waits anchored on a request) | %.3f× | ≤ 1× | %@ |",
        idleSeconds, idle.wakeUps, idle.switches, idle.cpuPerHour, 1 / idlePeriod, idleAllowed - pacedPrecise, pacedPrecise, idle.wakeUps * idlePeriod,
        idle.switches <= idleAllowed ? "✅" : "❌"))
print(
    String(
        format: "| Idle engine after its idle timeout (auto-shutdown, 0.5 s; %@): wake-ups per second, CPU per hour | %.1f/s, %.0f ms/h | – | – | 0 | %@ |",
        shutdownRunning ? "still running" : "stopped", parked.wakeUps, parked.cpuPerHour, parked.wakeUps == 0 && !shutdownRunning ? "✅" : "❌"))

print("\(plays) rounds, start → first non-zero sample on the null sink's monitor\(missed > 0 ? " (\(missed) plays never heard)" : ""):")
print("  library, standard (20 ms): \(summary(library))")
print("  library, low latency:      \(summary(libraryLow))")
printSpawnedRows()
print(
    "  underruns the engines' outputs recovered from meanwhile (mostly while idle, between clicks): standard \(underrunCounts.standard), low latency \(underrunCounts.low)"
)

/// A row comparing p50s (p99s shown alongside). Issue #15 asks for these figures against
/// paplay's; being as quick as paplay is a goal of our own beyond it, marked as such. A row
/// without a goal (`hasGoal: false`) is a measurement beside one, such as the floor.
@MainActor func latencyRow(_ figure: String, _ values: [Double], hasGoal: Bool = true) {
    let ours = percentile(values, 0.5)
    let theirs = percentile(anchor, 0.5)
    let ratio = ours / theirs
    print(
        String(
            format: "| %@ | %.1f ms (p99 %.1f ms, max %.1f ms) | paplay: %.1f ms (p99 %.1f ms, max %.1f ms) | %.2f× | %@ | %@ |",
            figure, ours, percentile(values, 0.99), values.max()!, theirs, percentile(anchor, 0.99), anchor.max()!, ratio,
            hasGoal ? "stretch: ≤ 1×" : "–", hasGoal ? (ratio <= 1 ? "✅" : "❌") : "–"))
}
latencyRow("Latency to the device, `player.start(atTime: 0)` → first sample, p50 of \(plays) (standard, 20 ms buffer)", library)
latencyRow("Latency to the device, `player.start(atTime: 0)` → first sample, p50 of \(plays) (low latency)", libraryLow)
latencyRow("Latency to the device, `haptics play` spawned → first sample, p50 of \(plays)", cli)
if !floor.isEmpty {
    latencyRow(
        "Its floor: a static Swift program spawned that only connects (from its constructor, as play does), opens the stream (CPulse) and writes the click, p50 of \(plays)",
        floor, hasGoal: false)
}

// MARK: Low latency under load

// The low-latency configuration as #15 asks for it: periods of 2.5 ms at most in a buffer of
// 10 ms at most, holding without an underrun through a tone while both cores are kept busy.
let (loadedEngine, loadedOutput) = try openEngine(latency: HapticEngine.Configuration.lowLatency)
usleep(200_000)
let load = BusyThreads(count: 2)
usleep(200_000)
let toneSeconds = 5.0
let underrunsBefore = underruns(loadedOutput)
let tonePlayer = try loadedEngine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: toneSeconds, intensity: 1, sharpness: 0.5)]))
try tonePlayer.start(atTime: 0)
while loadedEngine.currentTime < toneSeconds + 0.2 { usleep(50_000) }
let loadedUnderruns = underruns(loadedOutput) - underrunsBefore
load.stop()
loadedEngine.stop()
let loadedPeriod = Double(loadedOutput.periodFrames) * 1000 / Double(rate)
let loadedBuffer = Double(loadedOutput.bufferFrames) * 1000 / Double(rate)
let loadedMet = loadedPeriod <= 2.5 && loadedBuffer <= 10 && loadedUnderruns == 0
print(
    String(
        format:
            "| Low-latency engine on pulse, a %.0f s tone while two threads spin: period, buffer, underruns | %.2f ms, %.1f ms, %d | – | – | ≤ 2.5 ms, ≤ 10 ms, 0 | %@ |",
        toneSeconds, loadedPeriod, loadedBuffer, loadedUnderruns, loadedMet ? "✅" : "❌"))

// MARK: CPU

// Same buffer and period as the engine's standard configuration negotiated on this device.
let period = standardOutput.periodFrames
let buffer = standardOutput.bufferFrames
var ourCPU: [Double] = []
var aplayCPU: [Double] = []
var ratios: [Double] = []
// Pairs, ours then aplay's: one pair was at the mercy of the machine's mood (the same binary
// measured 150 and 430 ms on one afternoon); the median of the pairs' ratios is the figure.
for _ in 0..<3 {
    let ours = ChildProcess([tool, "play", long.ahap, "--device", "pulse"]).wait()
    let theirs = ChildProcess([aplay, "-q", "-D", "pulse", "--period-size=\(period)", "--buffer-size=\(buffer)", long.wav]).wait()
    guard ours.status == 0, theirs.status == 0 else { fatalError("a long play failed: haptics \(ours.status), aplay \(theirs.status)") }
    ourCPU.append(ours.cpuSeconds * 1000)
    aplayCPU.append(theirs.cpuSeconds * 1000)
    ratios.append(ours.cpuSeconds / theirs.cpuSeconds)
}
let cpuRatio = median(ratios)
print(
    "CPU of a \(Int(longPlay)) s play, 3 pairs: haptics \(ourCPU.map { String(format: "%.0f", $0) }.joined(separator: ", ")) ms; aplay \(aplayCPU.map { String(format: "%.0f", $0) }.joined(separator: ", ")) ms"
)
print(
    String(
        format:
            "| Playback CPU (user + system), %.0f s pattern on pulse, %d/%d-frame period/buffer, median of 3 pairs | %.0f ms | aplay: %.0f ms | %.2f× | ≤ 1× | %@ |",
        longPlay, period, buffer, median(ourCPU), median(aplayCPU), cpuRatio, cpuRatio <= 1 ? "✅" : "❌"))
print(String(format: "(benchmark took %.0f s)", Double(now() - began) / 1e9))
