// The feedback service's latency and CPU against Debian's feedbackd, in a release build:
//
//   swift build -c release --static-swift-stdlib --product haptics --product service-latency-benchmark
//   .build/release/service-latency-benchmark [triggers]
//
// On a private session bus (dbus-daemon) and a private PulseAudio null sink, whose monitor a
// thread of this process reads as it arrives (MonitorListener), for each daemon in turn —
// Debian's feedbackd 0.0.3 (`/usr/libexec/feedbackd`, playing its theme's sound through
// libcanberra) and `haptics daemon --device pulse` (the same installed theme, the same sound
// file through the engine):
//
// 1. latency: `TriggerFeedback(…, "message-new-instant", …)` sent by a real client (GDBus, the
//    harness's Python client, which stamps CLOCK_MONOTONIC just before the call) → the first
//    non-zero sample on the monitor; the feedback is then ended and the sink left to fall
//    silent; p50, p99 and max over `triggers` (200);
// 2. CPU: the daemon's user + system time (from /proc) over 1,000 triggers of the same event,
//    200 a second from ten clients, each played to its end;
// 3. idle: `haptics daemon` with nothing to play, its engine started (a feedback just ended)
//    and after its 5 s idle timeout: wake-ups per second of all its threads and CPU per hour.
import BenchmarkSupport
import Foundation

let triggers = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 200
let event = "message-new-instant"
let began = now()

let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let tool = binaries.appendingPathComponent("haptics").path
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let clientScript = root.appendingPathComponent("Tests/HapticsServiceTests/Clients/feedback-client.py").path
let feedbackd = "/usr/libexec/feedbackd"
func skip(_ why: String) -> Never {
    print("service latency: skipped (\(why))")
    exit(0)
}
guard FileManager.default.isExecutableFile(atPath: tool) else { skip("\(tool) not built; run `swift build -c release --product haptics` first") }
guard let dbusDaemon = executable("dbus-daemon") else { skip("dbus-daemon missing; Debian: dbus-daemon") }
guard FileManager.default.isExecutableFile(atPath: feedbackd) else { skip("feedbackd missing; Debian: feedbackd") }
guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), FileManager.default.fileExists(atPath: clientScript) else {
    skip("python3 or the client script missing; Debian: python3-gi gir1.2-lfb-0.0")
}
guard FileManager.default.fileExists(atPath: "/usr/share/sounds/freedesktop/stereo/\(event).oga") else {
    skip("the freedesktop sound theme is missing; Debian: sound-theme-freedesktop")
}
guard let server = PulseServer(sampleRate: 48_000) else { skip("no pulseaudio to run a private null sink on") }
defer { server.stop() }
let monitor = MonitorListener(server: server)
defer { monitor.stop() }

// MARK: The bus

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("haptics-service-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let socket = folder.appendingPathComponent("bus").path
try """
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=\(socket)</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
<limit name="max_replies_per_connection">50000</limit></busconfig>
""".write(to: folder.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=\(socket)", 1)
// Neither daemon may read or write the user's settings: GSettings in memory, XDG folders here.
setenv("GSETTINGS_BACKEND", "memory", 1)
setenv("XDG_CONFIG_HOME", folder.appendingPathComponent("config").path, 1)
unsetenv("FEEDBACK_THEME")
let bus = ChildProcess([dbusDaemon, "--nofork", "--config-file=\(folder.appendingPathComponent("bus.conf").path)"])
defer { bus.terminate() }
while !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }

// MARK: The client

/// The harness's Python client (GDBus), one JSON command per line.
final class Client {
    let process: ChildProcess
    let input: FileHandle
    let output: FileHandle
    var buffer = Data()

    init() throws {
        process = try ChildProcess(["/usr/bin/python3", clientScript], environment: nil, standardInput: .pipe, standardOutput: .pipe)
        input = process.inputPipe!
        output = process.outputPipe!
    }

    func send(_ command: [String: Any]) throws -> [String: Any] {
        try input.write(contentsOf: JSONSerialization.data(withJSONObject: command) + Data("\n".utf8))
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                return try JSONSerialization.jsonObject(with: line) as? [String: Any] ?? [:]
            }
            let chunk = output.availableData
            guard !chunk.isEmpty else { fatalError("the client exited") }
            buffer.append(chunk)
        }
    }

    func stop() {
        try? input.close()
        _ = process.waitForTermination()
    }
}

/// User + system CPU seconds a process has used so far (/proc/PID/stat, fields 14 and 15).
func cpuSeconds(_ pid: pid_t) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return .nan }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    let ticks = (Double(fields[11]) ?? .nan) + (Double(fields[12]) ?? .nan)
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
}

struct Figures {
    var latencies: [Double] = []
    var missed = 0
    var cpuMilliseconds = Double.nan
    var rssKiB = 0
}

/// Starts a daemon, measures it, stops it.
func measure(_ name: String, _ arguments: [String]) throws -> Figures {
    let client = try Client()
    defer { client.stop() }
    let daemon = ChildProcess(arguments)
    defer { daemon.terminate() }
    while (try client.send(["op": "has_owner"])["ok"] as? Bool) != true { usleep(10_000) }
    var figures = Figures()
    // One unmeasured round: the first sound opens the daemon's stream (and loads the file).
    _ = try client.send(["op": "timed_trigger", "app": "org.example.Bench", "event": event])
    usleep(600_000)
    for _ in 0..<triggers {
        monitor.waitForSilence(0.05)
        monitor.arm()
        let answer = try client.send(["op": "timed_trigger", "app": "org.example.Bench", "event": event, "timeout": 0])
        guard let id = answer["ok"] as? Int, let sent = answer["sent_ns"] as? Int else { fatalError("\(name): \(answer)") }
        if let heard = monitor.heardTime(timeout: 1) {
            figures.latencies.append(Double(heard - sent) / 1e6)
        } else {
            figures.missed += 1
        }
        _ = try client.send(["op": "call", "method": "org.sigxcpu.Feedback.EndFeedback", "signature": "(u)", "args": "(uint32 \(id),)"])
        _ = try client.send(["op": "wait_signal", "member": "FeedbackEnded", "args": [id], "timeout": 5])
    }
    let before = cpuSeconds(daemon.pid)
    // Ten clients at 20 a second each: each has about 30 sounds playing at once, under the
    // per-client limit of ours (64), so both daemons play all 1,000.
    let load = try client.send(["op": "load", "clients": 10, "rate": 20, "seconds": 5, "app": "org.example.Bench", "event": event, "pid": Int(daemon.pid)])
    figures.cpuMilliseconds = (cpuSeconds(daemon.pid) - before) * 1000
    let rss = ((load["ok"] as? [String: Any])?["rss_kib"] as? [Int]) ?? []
    figures.rssKiB = rss.max() ?? 0
    print("\(name): load of 1,000 triggers: \(load["ok"].map { "\($0)" } ?? "\(load)")")
    return figures
}

let theirs = try measure("feedbackd 0.0.3", [feedbackd])
let ours = try measure("haptics daemon", [tool, "daemon", "--device", "pulse"])

// MARK: Idle

/// Context switches (each a wake-up) and CPU nanoseconds of all of a process's threads, from
/// /proc/PID/task/*/status and schedstat.
func threadCounts(_ pid: pid_t) -> (switches: Int, cpuNanoseconds: Int) {
    var total = (switches: 0, cpuNanoseconds: 0)
    for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
        let base = "/proc/\(pid)/task/\(task)/"
        let status = (try? String(contentsOfFile: base + "status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
            total.switches += Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
        }
        total.cpuNanoseconds += Int(((try? String(contentsOfFile: base + "schedstat", encoding: .utf8)) ?? "").split(separator: " ").first ?? "") ?? 0
    }
    return total
}
/// Wake-ups per second and CPU milliseconds per hour of the daemon over `seconds`.
func idleCost(_ pid: pid_t, seconds: Double) -> (wakeUps: Double, cpuPerHour: Double) {
    let before = threadCounts(pid)
    usleep(UInt32(seconds * 1e6))
    let after = threadCounts(pid)
    return (Double(after.switches - before.switches) / seconds, Double(after.cpuNanoseconds - before.cpuNanoseconds) / 1e6 * 3600 / seconds)
}
/// `haptics daemon` with nothing to play: its engine started (a feedback played and ended
/// 0.5 s before) and, after its 5 s idle timeout, released.
func daemonIdle() throws -> (started: (wakeUps: Double, cpuPerHour: Double), released: (wakeUps: Double, cpuPerHour: Double)) {
    let client = try Client()
    defer { client.stop() }
    let daemon = ChildProcess([tool, "daemon", "--device", "pulse"])
    defer { daemon.terminate() }
    while (try client.send(["op": "has_owner"])["ok"] as? Bool) != true { usleep(10_000) }
    let answer = try client.send(["op": "timed_trigger", "app": "org.example.Bench", "event": event, "timeout": 0])
    guard let id = answer["ok"] as? Int else { fatalError("haptics daemon: \(answer)") }
    _ = try client.send(["op": "call", "method": "org.sigxcpu.Feedback.EndFeedback", "signature": "(u)", "args": "(uint32 \(id),)"])
    _ = try client.send(["op": "wait_signal", "member": "FeedbackEnded", "args": [id], "timeout": 5])
    // Half a second for the fade-out and the end to settle; 3 s measured, inside the 5 s timeout.
    usleep(500_000)
    let started = idleCost(daemon.pid, seconds: 3)
    // Past the idle timeout (5 s after the end) with a second to spare, then 3 s measured.
    usleep(2_500_000)
    return (started, idleCost(daemon.pid, seconds: 3))
}
let daemonIdleCost = try daemonIdle()

func summary(_ figures: Figures) -> String {
    guard !figures.latencies.isEmpty else { return "never heard" }
    return String(
        format: "p50 %.1f ms, p99 %.1f ms, max %.1f ms%@", percentile(figures.latencies, 0.5), percentile(figures.latencies, 0.99),
        figures.latencies.max()!, figures.missed > 0 ? " (\(figures.missed) of \(triggers) never heard)" : "")
}
print("\(triggers) triggers of \(event), TriggerFeedback sent → first non-zero sample on the null sink's monitor:")
print("  feedbackd 0.0.3: \(summary(theirs))")
print("  haptics daemon:  \(summary(ours))")
print(
    String(
        format: "CPU per 1,000 triggers: feedbackd %.0f ms, haptics daemon %.0f ms; peak RSS meanwhile: feedbackd %d KiB, haptics daemon %d KiB",
        theirs.cpuMilliseconds, ours.cpuMilliseconds, theirs.rssKiB, ours.rssKiB))

if !ours.latencies.isEmpty, !theirs.latencies.isEmpty {
    let p50 = percentile(ours.latencies, 0.5)
    let p99 = percentile(ours.latencies, 0.99)
    let anchor = percentile(theirs.latencies, 0.5)
    let met = p50 <= anchor && p99 <= 10 && ours.missed == 0
    print(
        String(
            format:
                "| Service latency, `TriggerFeedback(%@)` → first sample at a null sink, p50 of %d (p99, max) | %.1f ms (%.1f, %.1f ms) | feedbackd 0.0.3: %.1f ms (%.1f, %.1f ms) | %.2f× | ≤ feedbackd's p50, p99 ≤ 10 ms | %@ |",
            event, triggers, p50, p99, ours.latencies.max()!, anchor, percentile(theirs.latencies, 0.99), theirs.latencies.max()!, p50 / anchor, met ? "✅" : "❌"
        ))
}
print(
    String(
        format:
            "| Service CPU (user + system) per 1,000 `%@` triggers, 200 a second from 10 clients | %.0f ms | feedbackd 0.0.3: %.0f ms | %.2f× | ≤ 1× | %@ |",
        event,
        ours.cpuMilliseconds, theirs.cpuMilliseconds, ours.cpuMilliseconds / theirs.cpuMilliseconds, ours.cpuMilliseconds <= theirs.cpuMilliseconds ? "✅" : "❌")
)
print(
    String(
        format:
            "| Service idle, `haptics daemon --device pulse`, nothing playing, 3 s: its engine started (after a feedback) / after its 5 s idle timeout: wake-ups per second of all its threads, CPU per hour | %.0f/s, %.0f ms/h / %.1f/s, %.0f ms/h | – | – | after the timeout: 0 | %@ |",
        daemonIdleCost.started.wakeUps, daemonIdleCost.started.cpuPerHour, daemonIdleCost.released.wakeUps, daemonIdleCost.released.cpuPerHour,
        daemonIdleCost.released.wakeUps == 0 ? "✅" : "❌"))
print(String(format: "(benchmark took %.0f s)", Double(now() - began) / 1e9))
