// Renders a long, dense pattern to a 48 kHz 16-bit WAV file and prints how many seconds of
// signal that takes per wall-clock second, and the peak memory of the process doing it, next to
// sox synthesising a sine of the same length into a file of the same format in the same run.
//
//   swift run -c release render-benchmark [--runs N] [--minutes M] [--output FILE]
//
// The pattern: 10 minutes (by default) with 12,000 transients and 600 continuous events with
// envelopes, plus intensity and sharpness curves, as issue #3 specifies. Each run is a fresh
// child process (this executable again, with `--child`), so its peak memory (ru_maxrss) is its
// own and its time is the whole command: start-up, building the pattern, compiling it,
// rendering, writing, fsync and rename. Ours and sox alternate, and the medians are printed.
//
// The goal's figure writes into a tmpfs folder (/dev/shm), as sox's anchor does: what is
// measured is the toolkit's work, with the very code `haptics render` runs (temporary file,
// fsync, rename), and not the disk. Three figures of it, each named in its row: the child as a
// whole process (the goal's), the child's own timing of compile + render + write, and
// `haptics render` reading the pattern from its AHAP file. A durable file is measured as well,
// against dd copying the same bytes with fsync in alternated pairs, on the file system the
// output is on, which the row names: only on a disk is that the disk's ceiling (on tmpfs,
// fsync is free and dd copies memory).
import BenchmarkSupport
import Foundation
import HapticsCore
import HapticsRender
import HapticsSystem
import Synchronization

// MARK: ChildProcess: one render

/// How a child writes: as `haptics render` does (`writeWAV`: a temporary file, fsync, rename),
/// or into memory only.
enum Sink: String { case file, memory }

/// SplitMix64: the benchmark's pattern is the same in every run and every process (and cheap
/// to make: the system generator's `getrandom` per draw cost more than compiling the pattern).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The pattern: one transient every 50 ms, one continuous event with an envelope a second, an
/// intensity and a sharpness curve every 2 s; the events given in a shuffled order, so that
/// compiling sorts them.
func benchmarkPattern(seconds: Double) -> HapticPattern {
    let transients = Int(seconds * 20)  // 12,000 in 10 minutes
    let continuous = Int(seconds)  // 600 in 10 minutes
    var order = Array(0..<(transients + continuous))
    var generator = SeededGenerator(state: 15)
    order.shuffle(using: &generator)
    let events: [HapticEvent] = order.map { n in
        if n < transients {
            let t = Double(n) * seconds / Double(transients)
            return .transient(at: t, intensity: 0.3 + 0.5 * Double(n % 7) / 6, sharpness: Double(n % 11) / 10)
        }
        let i = n - transients
        let t = Double(i) * seconds / Double(continuous) + 0.013
        return .continuous(
            at: t, duration: 0.6, intensity: 0.4 + 0.4 * Double(i % 3) / 2,
            sharpness: Double(i % 5) / 4, attack: 0.2, decay: 0.3, release: 0.25)
    }
    var curves: [HapticParameterCurve] = []
    for i in stride(from: 0.0, to: seconds, by: 2.0) {
        curves.append(HapticParameterCurve(.hapticIntensityControl, at: i, points: [(0, 1), (0.5, 0.6), (1, 0.9), (2, 1)]))
        curves.append(HapticParameterCurve(.hapticSharpnessControl, at: i + 1, points: [(0, 0), (0.5, 0.3), (1, 0)]))
    }
    return HapticPattern(events: events, curves: curves)
}

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

/// Renders and prints `seconds-of-signal in-process-seconds clipped dropped peak-KiB
/// fsync-seconds` on one line; the last is how long the file's `fsync` waited (0 into memory).
func runChild(sink: Sink, minutes: Double, path: String, repetitions: Int) throws {
    let pattern = benchmarkPattern(seconds: minutes * 60)
    let clock = ContinuousClock()
    var statistics: RenderStatistics?
    var dropped = 0
    // The code writeWAV runs, with its fsync timed: what of the disk's work the render did not
    // overlap.
    let syncNanoseconds = Atomic<Int>(0)
    let timedSync = AtomicFile.IO(sync: { fd in
        let start = now()
        let result = fsync(fd)
        syncNanoseconds.add(Int(now() - start), ordering: .relaxed)
        return result
    })
    let elapsed = try clock.measure {
        let renderer = HapticRenderer(
            pattern: pattern, profile: .wideband, sampleRate: 48_000,
            playback: HapticRenderer.Playback(count: repetitions))
        switch sink {
        case .file:
            statistics = try RenderFileWriter.write(renderer, to: path, format: .s16, io: timedSync)
        case .memory:
            let block = UnsafeMutableBufferPointer<Float>.allocate(capacity: 4096 * renderer.channelCount)
            defer { block.deallocate() }
            while renderer.render(into: block) > 0 {}
            statistics = renderer.statistics
        }
        dropped = renderer.droppedEvents
    }
    guard let statistics else { return }
    print(
        statistics.duration, seconds(elapsed), statistics.clippedSamples, dropped, peakResidentKiB(pid: "self") ?? -1,
        Double(syncNanoseconds.load(ordering: .relaxed)) / 1e9)
}

/// A process's peak resident memory (VmHWM) in KiB. Unlike `ru_maxrss`, which keeps the high
/// mark of the address space a spawned child started in (its parent's, for a vfork), this is
/// the executed program's own.
func peakResidentKiB(pid: String) -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return nil }
    return line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
}

// MARK: Parent: runs, medians, the table

/// What a child process cost: its wall time, CPU time and peak resident memory, and its output.
struct ChildRun {
    var wall: Double
    var cpu: Double
    var peakMiB: Double
    var output: String
}

/// Runs `arguments` (absolute executable first) and waits for it, with its wall and CPU time.
/// With `sampling`, its peak memory is sampled every millisecond (sox does not report its
/// own); a child of ours reports its exact figure at the end and is left alone, since reading
/// its /proc status a thousand times a second took CPU from its two threads on two cores.
func spawn(_ arguments: [String], sampling: Bool = true) -> ChildRun? {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { return nil }
    let start = now()
    let child = ChildProcess(arguments, standardOutput: pipeEnds[1])
    close(pipeEnds[1])
    var output = Data()
    var chunk = [UInt8](repeating: 0, count: 4096)
    var peak = 0.0
    _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
    while true {
        if sampling, let hwm = peakResidentKiB(pid: String(child.pid)) { peak = max(peak, hwm) }
        let n = read(pipeEnds[0], &chunk, chunk.count)
        if n > 0 {
            output.append(contentsOf: chunk[..<n])
            continue
        }
        if n == 0 || errno != EAGAIN { break }
        // Wakes as soon as output or the end arrives: a sleep here added up to a millisecond
        // to every run's wall time.
        var ready = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, sampling ? 1 : -1)
    }
    close(pipeEnds[0])
    let fields = String(decoding: output, as: UTF8.self).split(separator: " ")
    if fields.count >= 5, let own = Double(fields[4].trimmingCharacters(in: .whitespacesAndNewlines)), own > 0 { peak = own }
    let (status, cpu) = child.wait()
    guard status == 0 else { return nil }
    return ChildRun(wall: Double(now() - start) / 1e9, cpu: cpu, peakMiB: peak / 1024, output: String(decoding: output, as: UTF8.self))
}

/// 12,400 or 3.8: thousands grouped, one decimal below 10.
func grouped(_ value: Double) -> String {
    guard value.isFinite else { return "–" }
    if value < 10 { return String(format: "%.1f", value) }
    var digits = String(Int(value.rounded()))
    var groups: [Substring] = []
    while digits.count > 3 {
        groups.insert(digits.suffix(3), at: 0)
        digits.removeLast(3)
    }
    return ([Substring(digits)] + groups).joined(separator: ",")
}

/// A folder in memory (tmpfs) for the render whose speed is the goal: there a written file
/// costs what the page cache costs, as sox's does (it never syncs), and the figure is the
/// toolkit's, not the disk's. `nil` where there is none.
func memoryFolder() -> String? {
    guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8),
        mounts.split(separator: "\n").contains(where: { $0.split(separator: " ").dropFirst().prefix(2) == ["/dev/shm", "tmpfs"] }),
        access("/dev/shm", W_OK) == 0
    else { return nil }
    return "/dev/shm"
}

/// The kind of file system holding `path`'s folder, by the name `mount` shows (the mount point
/// in /proc/mounts that is the longest prefix of the folder's real path): a durable render is
/// a disk's figure only on a disk. On tmpfs `fsync` does nothing and dd's copy is a memory copy.
func fileSystem(of path: String) -> String {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard let real = realpath(folder, nil) else { return "unknown file system" }
    defer { free(real) }
    let resolved = String(cString: real)
    guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return "unknown file system" }
    var best: (point: String, type: String)?
    for line in mounts.split(separator: "\n") {
        let fields = line.split(separator: " ")
        guard fields.count >= 3 else { continue }
        let point = String(fields[1])
        let inside = point == "/" || resolved == point || resolved.hasPrefix(point + "/")
        if inside, point.count >= (best?.point.count ?? 0) { best = (point, String(fields[2])) }
    }
    return best?.type ?? "unknown file system"
}

/// Reads the file at `path` to its end and throws the bytes away, so that it is in the page cache.
func readThrough(_ path: String) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
}

/// The first figure of /proc/loadavg: how busy the machine was, which every wall-time figure
/// here depends on.
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)).flatMap { $0.split(separator: " ").first.map(String.init) } ?? "?"
}

func runParent(runs: Int, minutes: Double, outputPath: String) {
    let me = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    let seconds = minutes * 60
    let sox = executable("sox")
    // The goal's render, and sox's, write into memory when there is a tmpfs; the durable
    // render writes to `outputPath`, on the disk.
    // In a new private folder there (mkdtemp), never under a name others could guess and
    // plant a link at first: /dev/shm is writable by every user.
    let fastFolder = memoryFolder().flatMap { try? PrivateFolder.makeTemporary(in: $0, prefix: "haptics-render-benchmark") }
    defer { if let fastFolder { PrivateFolder.remove(fastFolder) } }
    let fastPath = fastFolder.map { "\($0)/render.wav" } ?? outputPath
    let soxPath = fastPath + ".sox.wav"
    func ours(_ sink: Sink, path: String, repetitions: Int = 1) -> ChildRun? {
        spawn([me, "--child", sink.rawValue, String(minutes), path, String(repetitions)], sampling: false)
    }
    print(
        String(
            format: "pattern: %.0f s, %d transients, %d continuous events, %d curves; 48 kHz, 16-bit, mono WAV; %d runs each, medians",
            seconds, Int(seconds * 20), Int(seconds), Int(seconds / 2) * 2, runs))
    print(
        fastFolder.map { "files in memory are written to \($0) (tmpfs); durable files to \(outputPath)" }
            ?? "no tmpfs at /dev/shm: every file is written to \(outputPath), on its disk")
    let durableFileSystem = fileSystem(of: outputPath)
    print("the durable file's file system: \(durableFileSystem); load average at the start: \(loadAverage())")
    if durableFileSystem == "tmpfs" {
        print("note: the durable file is in tmpfs, not on a disk: fsync is free there and dd only copies memory; pass --output FILE on a disk")
    }
    var fast: [ChildRun] = []
    var durable: [ChildRun] = []
    var memory: [ChildRun] = []
    var soxRuns: [ChildRun] = []
    // The disk's ceiling: the file just written, copied and fsynced by dd. No render that
    // makes its file durable can beat it, whatever its synthesis costs.
    let dd = executable("dd")
    var copies: [ChildRun] = []
    for _ in 0..<runs {
        // Each run writes a new file, ours and sox's alike: replacing the last run's would add
        // the freeing of its 57.6 MB (8 ms in tmpfs) to whichever wrote second.
        unlink(fastPath)
        unlink(soxPath)
        if let run = ours(.file, path: fastPath) { fast.append(run) }
        if let sox, let run = spawn([sox, "-n", "-r", "48000", "-b", "16", soxPath, "synth", String(seconds), "sine", "170"]) {
            soxRuns.append(run)
        }
        if let run = ours(.memory, path: fastPath) { memory.append(run) }
        unlink(outputPath)
        if let run = ours(.file, path: outputPath) { durable.append(run) }
        // dd's source in the page cache, as a buffered render left it: a render written around
        // the cache leaves it on the disk only, and dd's time would then include reading it.
        readThrough(outputPath)
        if let dd, let run = spawn([dd, "if=\(outputPath)", "of=\(outputPath).dd", "bs=1M", "conv=fsync", "status=none"]) {
            copies.append(run)
        }
        unlink(outputPath + ".dd")
    }
    unlink(soxPath)
    guard !fast.isEmpty else {
        print("render-benchmark: the rendering child failed")
        return
    }
    let fields = fast[0].output.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    let signal = fields.first ?? seconds
    if fields.count >= 4 { print("clipped samples: \(Int(fields[2])); dropped events: \(Int(fields[3]))") }
    func inProcess(_ runs: [ChildRun]) -> Double {
        median(runs.compactMap { $0.output.split(separator: " ").dropFirst().first.flatMap { Double($0) } })
    }
    func describe(_ name: String, _ runs: [ChildRun]) {
        guard !runs.isEmpty else { return }
        let wall = median(runs.map(\.wall))
        let cpu = median(runs.map(\.cpu))
        var line = String(
            format: "%@: %.3f s wall (%@× real time), %.3f s CPU (%@×), peak %.1f MiB", name, wall,
            grouped(signal / wall), cpu, grouped(signal / cpu), median(runs.map(\.peakMiB)))
        let render = inProcess(runs)
        if render.isFinite { line += String(format: "; compile + render + write in process: %.3f s (%@×)", render, grouped(signal / render)) }
        let sync = median(
            runs.compactMap { $0.output.split(separator: " ").dropFirst(5).first.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) } })
        if sync.isFinite, sync > 0 { line += String(format: ", of which the file's fsync waited %.1f ms", 1000 * sync) }
        print(line)
    }
    let where_ = fastFolder == nil ? "on the disk" : "in tmpfs"
    describe("haptics render to a WAV file \(where_) (writeWAV: temporary file, fsync, rename)", fast)
    describe("the same into memory, no file", memory)
    describe("sox synth \(Int(seconds)) s sine 170 Hz to a WAV file \(where_)", soxRuns)
    describe("haptics render to a durable WAV file on the disk (writeWAV)", durable)
    describe("dd copying that file with fsync (the disk's ceiling)", copies)
    if !durable.isEmpty, fastFolder != nil {
        // The same code into tmpfs and onto the disk: what the disk adds (the writeback the
        // render could not overlap, the fsync's tail, the rename's journal commit).
        print(String(format: "what the disk adds to the render in process (durable − tmpfs, medians): %.1f ms", 1000 * (inProcess(durable) - inProcess(fast))))
    }
    print("load average at the end: \(loadAverage())")
    // However long the signal: the same pattern played three times in a row. Memory grows with
    // a pattern's events (it is held compiled), not with the length of the signal.
    if let long = ours(.file, path: fastPath, repetitions: 3) {
        print(String(format: "the same pattern looped 3 times (%.0f s of signal): peak %.1f MiB", seconds * 3, long.peakMiB))
    }
    unlink(fastPath)
    // As users render it: the pattern written as an AHAP file, read, checked and rendered by
    // the `haptics` binary built beside this benchmark. Its peak memory is the contract's
    // figure, since the file's document is held while it is read.
    let haptics = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("haptics").path
    var command: [ChildRun] = []
    var commandInputBytes = 0
    var commandMemory: [ChildRun] = []
    if access(haptics, X_OK) == 0 {
        let ahap = fastPath + ".ahap"
        let document = AHAPEncoder().encode(benchmarkPattern(seconds: seconds))
        if (try? document.write(to: URL(fileURLWithPath: ahap))) != nil {
            commandInputBytes = document.count
            // Its speed from runs left alone, its memory from three sampled ones (the command
            // does not report its own, and sampling takes CPU from it).
            for _ in 0..<runs {
                if let run = spawn([haptics, "render", ahap, "-o", fastPath], sampling: false) { command.append(run) }
            }
            for _ in 0..<3 {
                if let run = spawn([haptics, "render", ahap, "-o", fastPath]) { commandMemory.append(run) }
            }
            unlink(ahap)
        }
        if !command.isEmpty {
            let wall = median(command.map(\.wall))
            print(
                String(
                    format: "haptics render of the pattern's AHAP file (%.1f MB) to a WAV file %@: %.3f s wall (%@× real time), peak %.1f MiB",
                    Double(document.count) / 1e6, where_, wall, grouped(seconds / wall),
                    median(commandMemory.map(\.peakMiB))))
        }
    } else {
        print("note: \(haptics) is not built; the command's own render is not measured")
    }
    unlink(fastPath)
    unlink(outputPath)

    let ourSpeed = signal / median(fast.map(\.wall))
    let ourPeak = median(fast.map(\.peakMiB))
    let speedGoal = 10_000.0
    let memoryGoal = 32.0
    let file = "a 48 kHz 16-bit WAV file \(where_)"
    let soxSpeed = soxRuns.isEmpty ? Double.nan : seconds / median(soxRuns.map(\.wall))
    let soxPeak = soxRuns.isEmpty ? Double.nan : median(soxRuns.map(\.peakMiB))
    func anchor(_ text: String) -> String { soxRuns.isEmpty ? "sox: not installed" : text }
    // Three figures of the same render, each named for what it times: the benchmark's child
    // as a whole process (the goal's), the child's own timing of compile + render + write (no
    // process start-up, no building of the pattern in code, no exit), and `haptics render`,
    // which also reads, parses and checks the pattern's AHAP file.
    print(
        "| render \(Int(seconds)) s pattern (\(grouped(seconds * 21)) events) to \(file): the benchmark's child, whole process (start-up, pattern built in code, compile, render, write, fsync, rename, exit), median of \(fast.count), × real time | \(grouped(ourSpeed))× | \(anchor("sox synth \(Int(seconds)) s sine, same folder: \(grouped(soxSpeed))×")) | \(soxRuns.isEmpty ? "–" : grouped(ourSpeed / soxSpeed) + "×") | ≥ 10,000× real time | \(ourSpeed >= speedGoal ? "✅" : "❌") |"
    )
    print(
        "| the same, timed inside the child (compile + render + write, fsync, rename: no start-up, pattern building or exit) | \(grouped(signal / inProcess(fast)))× | – | – | – | – |"
    )
    print(
        "| peak memory rendering it | \(String(format: "%.1f", ourPeak)) MiB | \(anchor("sox: \(String(format: "%.1f", soxPeak)) MiB")) | \(soxRuns.isEmpty ? "–" : String(format: "%.1f×", ourPeak / soxPeak)) | ≤ 32 MiB | \(ourPeak <= memoryGoal ? "✅" : "❌") |"
    )
    if !durable.isEmpty, !copies.isEmpty {
        let speed = signal / median(durable.map(\.wall))
        let ceiling = signal / median(copies.map(\.wall))
        print(
            "| the same render to a durable file on \(durableFileSystem) (fsync), against the disk's ceiling, medians of \(durable.count) alternated pairs | \(grouped(speed))× | dd copying its \(String(format: "%.1f", seconds * 48_000 * 2 / 1e6)) MB with fsync: \(grouped(ceiling))× | \(String(format: "%.2f", speed / ceiling))× | ≥ 0.8× dd\(durableFileSystem == "tmpfs" ? " (on a disk; this is tmpfs)" : "") | \(speed / ceiling >= 0.8 ? "✅" : "❌") |"
        )
    }
    if !command.isEmpty {
        let speed = seconds / median(command.map(\.wall))
        print(
            "| `haptics render` of the pattern's AHAP file to \(file), whole process (also reads, parses and checks the \(String(format: "%.1f", Double(commandInputBytes) / 1e6)) MB file), median of \(command.count) | \(grouped(speed))× | \(anchor("sox synth, same folder: \(grouped(soxSpeed))×")) | \(soxRuns.isEmpty ? "–" : grouped(speed / soxSpeed) + "×") | – | – |"
        )
    }
    if !commandMemory.isEmpty {
        let peak = median(commandMemory.map(\.peakMiB))
        print(
            "| peak memory of `haptics render` reading it from its AHAP file | \(String(format: "%.1f", peak)) MiB | \(anchor("sox: \(String(format: "%.1f", soxPeak)) MiB")) | \(soxRuns.isEmpty ? "–" : String(format: "%.1f×", peak / soxPeak)) | ≤ 32 MiB | \(peak <= memoryGoal ? "✅" : "❌") |"
        )
    }
}

// MARK: Arguments

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--child", arguments.count == 5, let sink = Sink(rawValue: arguments[1]), let minutes = Double(arguments[2]),
    let repetitions = Int(arguments[4])
{
    do {
        try runChild(sink: sink, minutes: minutes, path: arguments[3], repetitions: repetitions)
    } catch {
        FileHandle.standardError.write(Data("render-benchmark: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
// Nine: this shared machine has phases of a few seconds in which everything runs 1.6 times
// slower; the median of nine alternated runs stays put through one of them.
var runs = 9
var minutes = 10.0
// The durable file: in a new private folder in $TMPDIR unless --output names one.
var outputPath: String?
while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    guard let value = arguments.first else { break }
    arguments.removeFirst()
    switch flag {
    case "--runs": runs = max(1, Int(value) ?? runs)
    case "--minutes": minutes = max(0.1, Double(value) ?? minutes)
    case "--output": outputPath = value
    default:
        print("render-benchmark: unknown option \(flag)")
        exit(2)
    }
}
if let outputPath {
    runParent(runs: runs, minutes: minutes, outputPath: outputPath)
} else {
    do {
        let folder = try PrivateFolder.makeTemporary(prefix: "haptics-render-benchmark")
        runParent(runs: runs, minutes: minutes, outputPath: folder + "/render.wav")
        PrivateFolder.remove(folder)
    } catch {
        print("render-benchmark: \(error)")
        exit(1)
    }
}
