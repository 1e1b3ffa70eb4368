import Foundation
import HapticsTestSupport
import Testing

/// Issue #24, item 1: no command writes under a fixed name in a folder other users can write
/// to. A local attacker who makes `$TMPDIR/haptics` first, with links to the victim's files,
/// must change nothing; files the user keeps go to a folder only the user can enter, and what
/// is needed only for the moment is never left behind.
@Suite("private files")
struct PrivateFilesTests {
    /// Another local user: any uid that is not ours.
    static let stranger: uid_t = 12345
    static let pattern = #"{"Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient"}}]}"#

    /// Skips unless the test can give files away (root, as in CI's container).
    func requireRoot() throws {
        if geteuid() != 0 { try Test.cancel("giving a folder to another uid needs root; CI runs these as root") }
    }

    /// Skips where `play` finds an audio output (it then plays rather than rendering to a file).
    func requireNoAudioOutput() async throws {
        let result = try await HapticsProcess.run(["devices", "--json"], timeout: .seconds(30))
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        if !((json["soundCards"] as? [Any]) ?? []).isEmpty {
            try Test.cancel("this machine has sound cards, so play would play rather than render to a file")
        }
    }

    /// The attacker's trap in `folder`: `haptics/` owned by another uid, writable by all,
    /// holding `name → victim` links owned by that uid. Returns the victim file's path.
    func trap(in folder: TemporaryFolder, names: [String]) throws -> String {
        let victim = try folder.write("notes.txt", "my notes\n").path
        let shared = folder.path("haptics")
        #expect(mkdir(shared, 0o777) == 0)
        #expect(chmod(shared, 0o777) == 0)
        for name in names {
            #expect(symlink(victim, shared + "/" + name) == 0)
            #expect(lchown(shared + "/" + name, Self.stranger, Self.stranger) == 0)
        }
        #expect(chown(shared, Self.stranger, Self.stranger) == 0)
        return victim
    }

    func environment(tmp: TemporaryFolder, cache: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp.path
        environment["XDG_CACHE_HOME"] = cache
        // A PulseAudio server would become ALSA's default device: point at none.
        environment["PULSE_SERVER"] = "unix:" + tmp.path("no-server")
        return environment
    }

    /// The path `play` printed after "instead: ".
    func renderedPath(_ stdout: String) throws -> String {
        let line = try #require(stdout.split(separator: "\n").first, "no output")
        let range = try #require(line.range(of: "instead: "), "\(line)")
        return String(line[range.upperBound...])
    }

    @Test("play's no-output render goes to the user's cache, never through another user's link in $TMPDIR/haptics")
    func playRenderIgnoresSharedFolder() async throws {
        try requireRoot()
        try await requireNoAudioOutput()
        let tmp = try TemporaryFolder()
        let victim = try trap(in: tmp, names: ["tap.wav"])
        try tmp.write("work/tap.ahap", Self.pattern)
        let cache = tmp.path("cache")
        let result = try await HapticsProcess.run(
            ["play", "tap.ahap"], in: tmp.file("work"), environment: environment(tmp: tmp, cache: cache), timeout: .seconds(60))
        #expect(result.status == 69, "rendered, not played: \(result.errorOutput)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "my notes\n", "the link in the shared folder was followed")
        let path = try renderedPath(String(decoding: result.stdout, as: UTF8.self))
        #expect(path == cache + "/haptics/tap.wav")
        var info = stat()
        #expect(stat(cache + "/haptics", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700 && info.st_uid == geteuid(), "the cache folder is private: mode \(String(info.st_mode & 0o777, radix: 8))")
        #expect(try WAVFile(contentsOf: URL(fileURLWithPath: path)).sampleRate == 48_000)
    }

    @Test("a cache folder another user made is not used: play renders into a new private folder instead")
    func playRenderRefusesForeignCache() async throws {
        try requireRoot()
        try await requireNoAudioOutput()
        let tmp = try TemporaryFolder()
        try tmp.write("work/tap.ahap", Self.pattern)
        // The attacker's "cache": their haptics folder, open to all, with a link to the victim.
        let cache = tmp.path("cache")
        let victim = try tmp.write("notes.txt", "my notes\n").path
        #expect(mkdir(cache, 0o755) == 0)
        #expect(mkdir(cache + "/haptics", 0o777) == 0)
        #expect(chmod(cache + "/haptics", 0o777) == 0)
        #expect(symlink(victim, cache + "/haptics/tap.wav") == 0)
        #expect(lchown(cache + "/haptics/tap.wav", Self.stranger, Self.stranger) == 0)
        #expect(chown(cache + "/haptics", Self.stranger, Self.stranger) == 0)
        let result = try await HapticsProcess.run(
            ["play", "tap.ahap"], in: tmp.file("work"), environment: environment(tmp: tmp, cache: cache), timeout: .seconds(60))
        #expect(result.status == 69, "rendered, not played: \(result.errorOutput)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "my notes\n", "the link in the foreign cache was followed")
        let path = try renderedPath(String(decoding: result.stdout, as: UTF8.self))
        #expect(!path.hasPrefix(cache + "/"), "rendered into the foreign folder: \(path)")
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var info = stat()
        #expect(lstat(folder, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFDIR && info.st_mode & 0o777 == 0o700 && info.st_uid == geteuid(), "\(folder) is not private")
        #expect(try WAVFile(contentsOf: URL(fileURLWithPath: path)).sampleRate == 48_000)
    }

    @Test("analyze --play plays the pattern without a file in $TMPDIR: another user's links there change nothing, nothing is left")
    func analyzePlayWritesNoSharedFile() async throws {
        try requireRoot()
        let tmp = try TemporaryFolder()
        let victim = try trap(in: tmp, names: ["clicks.analyzed.ahap"])
        // Clicks: something to feel.
        var samples = [Float](repeating: 0, count: 48_000)
        for start in stride(from: 4_800, to: 48_000, by: 9_600) {
            for i in 0..<240 { samples[start + i] = Float(0.9 * sin(Double(i) * 0.5)) }
        }
        try tmp.write("work/clicks.wav", Data(TestWAV.bytes(samples, channels: 1, sampleRate: 48_000)))
        let before = try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted()
        let result = try await HapticsProcess.run(
            ["analyze", "clicks.wav", "-o", "clicks.ahap", "--play", "--device", "null"], in: tmp.file("work"),
            environment: environment(tmp: tmp, cache: tmp.path("cache")), timeout: .seconds(120))
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "my notes\n", "the link in the shared folder was followed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted() == before, "files were left in $TMPDIR")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path("work")).sorted() == ["clicks.ahap", "clicks.wav"])
    }
}
