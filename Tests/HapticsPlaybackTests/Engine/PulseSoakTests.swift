import Foundation
import HapticsCore
import HapticsTestSupport
import Synchronization
import Testing
@testable import HapticsPlayback

/// A minute of what apps do to an engine at once, in real time through PulseAudio: 64 threads
/// make players, start them (now or ahead), stop some, cancel some, drop them at once or keep
/// them a while, for 60 s. Never `tooManyPlayers` below the cap; every start's completion
/// handler runs exactly once; memory stays flat. (`scripts/tsan.sh` runs it under
/// ThreadSanitizer, for a shorter while.)
@Suite("Engine soak through PulseAudio", .tags(.realtime), .enabled(if: RealTime.isSelected, RealTime.skipReason))
struct PulseSoakTests {
    /// How long the soak runs: 60 s, or `HAPTICS_SOAK_SECONDS` (TSan runs it shorter).
    static let seconds: Double = ProcessInfo.processInfo.environment["HAPTICS_SOAK_SECONDS"].flatMap(Double.init) ?? 60
    static let workers = 64

    /// Resident memory of this process, in bytes.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    final class Tally: @unchecked Sendable {
        let started = Atomic<Int>(0)
        let completed = Atomic<Int>(0)
        let duplicates = Atomic<Int>(0)
        let tooMany = Atomic<Int>(0)
        let otherErrors = Mutex<[String]>([])
    }

    @Test("64 threads create, start, stop and drop players for a minute: every completion once, no slot shortage, flat memory")
    func soak() async throws {
        let tally = Tally()
        let memory: [MemorySample] = try await PulseAudioServer.withServer(sampleRate: 48_000, channelCount: 1) { _ in
            let engine = HapticEngine(configuration: .init(device: "pulse", latency: .milliseconds(100)))
            try engine.start()
            let patterns = [
                HapticPattern(events: [.transient(at: 0, intensity: 0.05, sharpness: 1)]),
                HapticPattern(events: [.continuous(at: 0, duration: 0.08, intensity: 0.05, sharpness: 0.3)]),
                HapticPattern(events: [
                    .transient(at: 0, intensity: 0.05, sharpness: 0),
                    .continuous(at: 0.02, duration: 0.3, intensity: 0.04, sharpness: 0.7),
                ]),
            ]
            let begin = Date()
            let end = begin.addingTimeInterval(Self.seconds)
            // Resident memory and players started so far, twelve times in the run (every 5 s
            // of a minute).
            let samples = Mutex<[MemorySample]>([])
            let sampling = DispatchGroup()
            sampling.enter()
            Thread.detachNewThread {
                defer { sampling.leave() }
                for index in 1...12 {
                    // Kept: the sampling schedule itself (twelve samples spread over the run).
                    Thread.sleep(until: begin.addingTimeInterval(Self.seconds * Double(index) / 12))
                    let sample = MemorySample(
                        seconds: Date().timeIntervalSince(begin), residentBytes: Self.residentBytes(),
                        playersStarted: tally.started.load(ordering: .relaxed))
                    samples.withLock { $0.append(sample) }
                }
            }
            let group = DispatchGroup()
            for _ in 0..<Self.workers {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    var random = SystemRandomNumberGenerator()
                    // One player in flight per thread (64 at once), and the last one kept a
                    // while longer: at most 128 players exist, the engine's cap.
                    var kept: HapticAdvancedPatternPlayer?
                    while Date() < end {
                        do {
                            let player = try engine.makeAdvancedPlayer(with: patterns[Int.random(in: 0..<patterns.count, using: &random)])
                            let calls = Atomic<Int>(0)
                            let finished = DispatchSemaphore(value: 0)
                            player.completionHandler = { _ in
                                if calls.add(1, ordering: .relaxed).newValue == 1 {
                                    tally.completed.add(1, ordering: .relaxed)
                                } else {
                                    tally.duplicates.add(1, ordering: .relaxed)
                                }
                                finished.signal()
                            }
                            let ahead = Bool.random(using: &random) ? 0 : engine.currentTime + Double.random(in: 0...0.05, using: &random)
                            try player.start(atTime: ahead)
                            tally.started.add(1, ordering: .relaxed)
                            // Kept: random timing between start and stop is what the soak exercises.
                            usleep(UInt32.random(in: 0...20_000, using: &random))
                            switch Int.random(in: 0..<6, using: &random) {
                            case 0: try player.stop(atTime: 0)
                            case 1: try player.cancel()
                            case 2: kept = player
                            default: break  // dropped at once: the engine holds it until it ends
                            }
                            if finished.wait(timeout: .now() + 3) == .timedOut {
                                tally.otherErrors.withLock { $0.append("a player never completed") }
                            }
                        } catch HapticError.tooManyPlayers {
                            tally.tooMany.add(1, ordering: .relaxed)
                        } catch {
                            tally.otherErrors.withLock { $0.append("\(error)") }
                        }
                    }
                    withExtendedLifetime(kept) {}
                }
            }
            group.wait()
            // Everything started ends within the longest pattern and the device's buffer.
            Wait.until(timeout: .seconds(5), interval: .milliseconds(10)) {
                tally.completed.load(ordering: .relaxed) >= tally.started.load(ordering: .relaxed)
            }
            sampling.wait()
            engine.stop()
            return samples.withLock { $0 }
        }
        let started = tally.started.load(ordering: .relaxed)
        #expect(Double(started) > Double(Self.workers) * Self.seconds, "only \(started) players started in \(Self.seconds) s")
        #expect(tally.tooMany.load(ordering: .relaxed) == 0, "tooManyPlayers with at most \(Self.workers * 2) players held")
        #expect(tally.otherErrors.withLock { $0 }.isEmpty, "\(tally.otherErrors.withLock { $0.prefix(5) })")
        #expect(tally.completed.load(ordering: .relaxed) == started, "\(tally.completed.load(ordering: .relaxed)) completions for \(started) starts")
        #expect(tally.duplicates.load(ordering: .relaxed) == 0, "completion handlers called twice")
        // Flat once warmed up: the allocator's per-thread arenas (64 threads) grow for the first
        // part of the run and then plateau, so the run's last two thirds are compared: resident
        // memory at a third of the run against the end.
        let report = memory.map { "\(Int($0.seconds)) s: \($0.residentBytes >> 10) KiB after \($0.playersStarted) players" }
        print("soak memory: " + report.joined(separator: "; "))
        try #require(memory.count == 12, "\(memory.count) memory samples")
        // ThreadSanitizer's shadow memory and access history grow with the run: no criterion.
        if ProcessInfo.processInfo.environment["HAPTICS_SOAK_MEMORY"] == "0" { return }
        let third = memory[3]
        let last = memory[11]
        let growth = last.residentBytes - third.residentBytes
        let players = last.playersStarted - third.playersStarted
        #expect(growth < Self.growthLimit, "resident memory grew by \(growth >> 10) KiB over \(players) players after the plateau: \(report)")
    }
}

/// Resident memory at a moment of the soak.
struct MemorySample: Sendable {
    var seconds: Double
    var residentBytes: Int
    var playersStarted: Int
}

extension PulseSoakTests {
    /// Measured over a minute (2 cores, a build running beside it): 58.9 MiB at 5 s, then
    /// between 58.4 and 58.8 MiB to the end, 33,500 players in all; the earlier criterion
    /// (round 20 of one worker against the end) caught the arenas still warming up, hence a
    /// reported 26 MiB. The last two thirds start about 22,000 players: a leak of 1 KiB per
    /// player would grow 21 MiB there, and any leak above about 200 bytes per player passes
    /// this limit.
    static let growthLimit = 4 << 20
}
