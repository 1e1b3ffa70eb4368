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
}
