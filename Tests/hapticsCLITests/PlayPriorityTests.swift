import Foundation
import Glibc
import HapticsTestSupport
import Testing

/// The scheduling of `haptics play`'s threads once it plays: its start ran at real-time
/// priority where the system allows (SCHED_FIFO 1), which must end with the start, and an
/// audio thread that renders as fast as its device takes (`file:`) must not inherit it.
@Suite("haptics play's priorities")
struct PlayPriorityTests {
    /// Each thread of `pid`: its name and scheduling policy (from /proc/PID/task/TID/stat).
    func threads(of pid: pid_t) -> [(tid: Int, name: String, policy: Int)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
                let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"), let tid = Int(task)
            else { return nil }
            // After the name: field 3 (state) onwards; the policy is field 41.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 38, let policy = Int(fields[38]) else { return nil }
            return (tid, String(stat[stat.index(after: open)..<close]), policy)
        }
    }

    @Test func aPlayOnAnUnpacedDeviceRunsAtNormalPriorityOnceStarted() async throws {
        let folder = try TemporaryFolder()
        try folder.write("long.ahap", PlayCommandTests.longPattern)
        let capture = folder.url.appendingPathComponent("long.wav")
        let running = try BackgroundHaptics(["play", "long.ahap", "--loop", "--device", "file:'\(capture.path)',wav"], in: folder.url)
        // Sound in the file: the player's start has returned.
        try await Wait.suspendingUntil(timeout: .seconds(10)) {
            let size = (try? FileManager.default.attributesOfItem(atPath: capture.path)[.size] as? Int) ?? 0
            return size >= 64 * 1024 || !running.process.isRunning
        }
        let pid = running.process.pid
        let seen = threads(of: pid)
        running.send(SIGINT)
        _ = try await running.wait(timeout: .seconds(5))
        let main = try #require(seen.first { $0.tid == Int(pid) }, "no threads read for \(pid)")
        let audio = try #require(seen.first { $0.name == "haptics-audio" }, "\(seen)")
        #expect(main.policy == Int(SCHED_OTHER), "the main thread after the start: \(seen)")
        #expect(audio.policy == Int(SCHED_OTHER), "the audio thread on file: \(seen)")
    }

    /// openat's number (Glibc does not give Swift the SYS_ names).
    #if arch(arm64)
        static let openat = 56
    #else
        static let openat = 257
    #endif

    /// A pattern from a pipe may take any time to come and be of any size: reading it must
    /// not run ahead of every normal process, as a small file's or a preset's start does.
    @Test func aPlayWaitsForAPatternFromAPipeAtNormalPriority() async throws {
        let folder = try TemporaryFolder()
        let pipe = folder.url.appendingPathComponent("pipe.ahap")
        try #require(mkfifo(pipe.path, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        let capture = folder.url.appendingPathComponent("out.wav")
        let running = try BackgroundHaptics(["play", "pipe.ahap", "--device", "file:'\(capture.path)',wav"], in: folder.url)
        let pid = running.process.pid
        // Its main thread waits in the pipe's open until a writer comes.
        let waiting = try await Wait.suspendingUntil(timeout: .seconds(10)) {
            let call = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/syscall", encoding: .utf8)) ?? ""
            return call.split(separator: " ").first.flatMap { Int($0) } == Self.openat || !running.process.isRunning
        }
        let main = threads(of: pid).first { $0.tid == Int(pid) }
        let writer = open(pipe.path, O_WRONLY | O_CLOEXEC)
        try #require(writer >= 0, "opening the pipe to write: \(String(cString: strerror(errno)))")
        let pattern = Array(#"{"Pattern":[{"Event":{"Time":0,"EventType":"HapticTransient","EventParameters":[]}}]}"#.utf8)
        _ = pattern.withUnsafeBufferPointer { write(writer, $0.baseAddress, $0.count) }
        close(writer)
        let outcome = try await running.wait(timeout: .seconds(10))
        #expect(waiting, "the play never waited in the pipe's open: \(outcome.stderr)")
        #expect(main?.policy == Int(SCHED_OTHER), "the main thread waiting for the pipe: \(String(describing: main))")
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }
}
