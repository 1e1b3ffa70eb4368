import Foundation
import HapticsTestSupport
import Testing

/// Issue #24, item 12: `--watch` follows the file's path, not its folder: a folder renamed
/// away (or deleted) and made again, as a branch switch or a build tool does, is watched anew.
@Suite("--watch when the folder is replaced")
struct WatchFolderTests {
    static let short = #"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}}]}"#
    static let long = #"{"Pattern": [{"Event": {"Time": 0.5, "EventType": "HapticTransient"}}]}"#

    /// How many runs the command has finished: each ends with the "watching" line.
    func runs(_ running: BackgroundHaptics) -> Int {
        running.errorOutputSoFar.components(separatedBy: "for changes (Ctrl-C to stop)").count - 1
    }

    @Test(
        "render, validate, plot and play --watch run again after the folder is renamed away and made again",
        arguments: [
            ["render", "--watch", "patterns/tap.ahap", "-o", "tap.wav"],
            ["validate", "--watch", "patterns/tap.ahap"],
            ["plot", "--watch", "patterns/tap.ahap", "-o", "tap.svg"],
            ["play", "--watch", "patterns/tap.ahap", "--device", "null"],
        ])
    func folderReplaced(arguments: [String]) async throws {
        let folder = try TemporaryFolder()
        try folder.write("patterns/tap.ahap", Self.short)
        let running = try BackgroundHaptics(arguments, in: folder.url)
        defer { running.send(SIGKILL) }
        // Generous: under a loaded machine a run can take seconds; this only catches a watch
        // that never reacts.
        try await Wait.suspendingRequire("the first run", timeout: .seconds(60), interval: .milliseconds(20)) { runs(running) >= 1 }
        #expect(rename(folder.path("patterns"), folder.path("patterns.old")) == 0)
        try folder.write("patterns/tap.ahap", Self.long)
        try await Wait.suspendingRequire(
            "a run after the folder came back: \(running.errorOutputSoFar)", timeout: .seconds(60), interval: .milliseconds(20)
        ) { runs(running) >= 2 }
        // And the new folder is the one watched from now on.
        let before = runs(running)
        try folder.write("patterns/tap.ahap", Self.short)
        try await Wait.suspendingRequire(
            "a run after a save in the new folder: \(running.errorOutputSoFar)", timeout: .seconds(60), interval: .milliseconds(20)
        ) { runs(running) > before }
        #expect(running.process.isRunning)
        running.send(SIGTERM)
        _ = try await running.wait(timeout: .seconds(10))
    }

    @Test("validate --watch follows a folder deleted and made again")
    func folderDeleted() async throws {
        let folder = try TemporaryFolder()
        try folder.write("patterns/tap.ahap", Self.short)
        let running = try BackgroundHaptics(["validate", "--watch", "patterns/tap.ahap"], in: folder.url)
        defer { running.send(SIGKILL) }
        try await Wait.suspendingRequire("the first run", timeout: .seconds(60), interval: .milliseconds(20)) { runs(running) >= 1 }
        try FileManager.default.removeItem(atPath: folder.path("patterns"))
        try folder.write("patterns/tap.ahap", Self.long)
        // Deleting the file is a change too (reported as missing); what counts is that the
        // file in the new folder is validated, and then each save there.
        let valid = { running.outputSoFar.components(separatedBy: "tap.ahap: valid").count - 1 }
        try await Wait.suspendingRequire(
            "the new folder's file validated: \(running.outputSoFar)", timeout: .seconds(60), interval: .milliseconds(20)
        ) { valid() >= 2 }
        try folder.write("patterns/tap.ahap", Self.short)
        try await Wait.suspendingRequire(
            "a save in the new folder validated: \(running.outputSoFar)", timeout: .seconds(60), interval: .milliseconds(20)
        ) { valid() >= 3 }
        running.send(SIGTERM)
        _ = try await running.wait(timeout: .seconds(10))
    }

    @Test("validate --watch follows a file whose folder and the folder's parent were both deleted and made again")
    func parentDeleted() async throws {
        let folder = try TemporaryFolder()
        try folder.write("work/patterns/tap.ahap", Self.short)
        let running = try BackgroundHaptics(["validate", "--watch", "work/patterns/tap.ahap"], in: folder.url)
        defer { running.send(SIGKILL) }
        try await Wait.suspendingRequire("the first run", timeout: .seconds(60), interval: .milliseconds(20)) { runs(running) >= 1 }
        try FileManager.default.removeItem(atPath: folder.path("work"))
        // Long enough for the watcher to see both folders go (the race the other way, a folder
        // back before its loss is read, is the rename test's).
        try await Wait.suspendingRequire("the deletion reported", timeout: .seconds(60), interval: .milliseconds(20)) { runs(running) >= 2 }
        try folder.write("work/patterns/tap.ahap", Self.long)
        let valid = { running.outputSoFar.components(separatedBy: "tap.ahap: valid").count - 1 }
        try await Wait.suspendingRequire(
            "the new folder's file validated: \(running.outputSoFar)", timeout: .seconds(60), interval: .milliseconds(20)
        ) { valid() >= 2 }
        try folder.write("work/patterns/tap.ahap", Self.short)
        try await Wait.suspendingRequire(
            "a save in the new folder validated: \(running.outputSoFar)", timeout: .seconds(60), interval: .milliseconds(20)
        ) { valid() >= 3 }
        running.send(SIGTERM)
        _ = try await running.wait(timeout: .seconds(10))
    }
}
