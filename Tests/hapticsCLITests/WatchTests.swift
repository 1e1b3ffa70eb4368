import Foundation
import HapticsTestSupport
import Testing

/// `--watch`: the command runs again when the file changes, reports a bad edit and keeps going.
@Suite("--watch")
struct WatchTests {
    static let good = #"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}}]}"#
    static let bad = #"{"Pattern": [{"Event": {"Time": -1, "EventType": "HapticTransient"}}]}"#

    /// Saves as editors do: a new file renamed over the old one.
    func save(_ text: String, as name: String, in folder: TemporaryFolder) throws {
        let temporary = try folder.write(".\(name).swp", text)
        #expect(rename(temporary.path, folder.url.appendingPathComponent(name).path) == 0)
    }

    @Test("validate --watch reports each save, a bad edit included, and keeps watching")
    func validateWatch() async throws {
        let folder = try TemporaryFolder()
        try folder.write("tap.ahap", Self.good)
        let running = try BackgroundHaptics(["validate", "--watch", "tap.ahap"], in: folder.url)
        defer { running.send(SIGKILL) }
        #expect(try await running.waitForOutput { $0.contains("tap.ahap: valid") }, "first run: \(running.outputSoFar)")
        try save(Self.bad, as: "tap.ahap", in: folder)
        // The problem on standard error, the verdict on standard output.
        #expect(
            try await running.waitForOutput {
                $0.contains("tap.ahap: invalid (1 error)") && running.errorOutputSoFar.contains("tap.ahap:1:33: error: negative time -1")
            },
            "after the bad edit: \(running.outputSoFar) \(running.errorOutputSoFar)")
        #expect(running.process.isRunning, "a bad edit ended the watch")
        // Written in place this time.
        try folder.write("tap.ahap", Self.good)
        #expect(try await running.waitForOutput { $0.components(separatedBy: "tap.ahap: valid").count == 3 }, "after the fix: \(running.outputSoFar)")
        running.send(SIGTERM)
        let outcome = try await running.wait(timeout: .seconds(5))
        #expect(!outcome.timedOut)
        // Ended as every command ends on a signal: 143 and its line, the last.
        #expect(outcome.exited && outcome.status == 143, "\(outcome.status) \(outcome.stderr)")
        #expect(outcome.errorLines.last == "haptics: terminated", "\(outcome.stderr)")
    }

    @Test("every run under --watch ends with one line: the time, done or failed, and what is watched")
    func eachRunSaysWhatItDid() async throws {
        let folder = try TemporaryFolder()
        try folder.write("tap.ahap", Self.good)
        let running = try BackgroundHaptics(["render", "--watch", "tap.ahap", "-o", "tap.wav"], in: folder.url)
        defer { running.send(SIGKILL) }
        let lines = { running.errorOutputSoFar.split(separator: "\n").map(String.init).filter { $0.hasSuffix("for changes (Ctrl-C to stop)") } }
        let pattern = #/^haptics: \d\d:\d\d:\d\d (done|failed); watching tap\.ahap for changes \(Ctrl-C to stop\)$/#
        // Generous: under a loaded machine a render can take seconds.
        try await Wait.suspendingRequire("the first run: \(running.errorOutputSoFar)", timeout: .seconds(60), interval: .milliseconds(20)) {
            !lines().isEmpty
        }
        #expect(lines().first.flatMap { try? pattern.wholeMatch(in: $0)?.output.1 } == "done", "\(lines())")
        try save(Self.bad, as: "tap.ahap", in: folder)
        try await Wait.suspendingRequire("a run after the bad edit: \(running.errorOutputSoFar)", timeout: .seconds(60), interval: .milliseconds(20)) {
            lines().count >= 2
        }
        #expect(lines()[1].contains(" failed; watching "), "\(lines())")
        #expect(running.process.isRunning)
        running.send(SIGTERM)
        _ = try await running.wait(timeout: .seconds(10))
    }

    @Test("render --watch writes the file again after each save")
    func renderWatch() async throws {
        let folder = try TemporaryFolder()
        try folder.write("tap.ahap", Self.good)
        let output = folder.url.appendingPathComponent("tap.wav")
        let running = try BackgroundHaptics(["render", "--watch", "tap.ahap", "-o", "tap.wav"], in: folder.url)
        defer { running.send(SIGKILL) }
        let size = { (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0 }
        // Generous bounds: under a loaded machine a render can take seconds; these only
        // catch a watch that never reacts.
        try await Wait.suspendingUntil(timeout: .seconds(60), interval: .milliseconds(20)) { size() > 0 }
        let first = size()
        #expect(first > 0)
        // A pattern a second long: a much larger file.
        try save(#"{"Pattern": [{"Event": {"Time": 1, "EventType": "HapticTransient"}}]}"#, as: "tap.ahap", in: folder)
        try await Wait.suspendingUntil(timeout: .seconds(60), interval: .milliseconds(20)) { size() >= first + 90_000 }
        #expect(size() > first + 90_000, "not rendered again: \(first) → \(size()) bytes")
        running.send(SIGTERM)
        _ = try await running.wait(timeout: .seconds(5))
    }

    @Test("--watch with a preset is a usage error")
    func presetCannotBeWatched() async throws {
        let result = try await HapticsProcess.run(["render", "--watch", "success", "-o", "x.wav"], timeout: .seconds(30))
        #expect(result.status == 2)
        #expect(result.errorLines == ["haptics: --watch follows a pattern file; 'success' is a preset"])
    }
}
