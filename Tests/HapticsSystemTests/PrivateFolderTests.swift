import Foundation
import HapticsTestSupport
import Testing

@testable import HapticsSystem

/// The folders files with names of the toolkit's choosing go to (issue #24, item 1).
@Suite("Private folders")
struct PrivateFolderTests {
    func mode(_ path: String) -> (mode: mode_t, owner: uid_t, isFolder: Bool) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return (0, 0, false) }
        return (info.st_mode & 0o7777, info.st_uid, info.st_mode & S_IFMT == S_IFDIR)
    }

    @Test("makeTemporary makes a new folder of this user, mode 0700, under a name no one could know")
    func temporary() throws {
        let scratch = try TemporaryFolder()
        let first = try PrivateFolder.makeTemporary(in: scratch.path, prefix: "haptics")
        let second = try PrivateFolder.makeTemporary(in: scratch.path, prefix: "haptics")
        #expect(first != second)
        #expect(first.hasPrefix(scratch.path + "/haptics-"))
        let made = mode(first)
        #expect(made.isFolder && made.mode == 0o700 && made.owner == geteuid())
        #expect(PrivateFolder.isPrivate(first))
        #expect(throws: FileWriteError.self) { try PrivateFolder.makeTemporary(in: scratch.path("missing"), prefix: "x") }
    }

    @Test("a link to a private folder, or a folder others can write to, is not private")
    func notPrivate() throws {
        let scratch = try TemporaryFolder()
        let real = try PrivateFolder.makeTemporary(in: scratch.path, prefix: "real")
        #expect(symlink(real, scratch.path("link")) == 0)
        #expect(!PrivateFolder.isPrivate(scratch.path("link")))
        #expect(mkdir(scratch.path("open"), 0o700) == 0 && chmod(scratch.path("open"), 0o777) == 0)
        #expect(!PrivateFolder.isPrivate(scratch.path("open")))
        try scratch.write("file", "x")
        #expect(!PrivateFolder.isPrivate(scratch.path("file")))
        #expect(!PrivateFolder.isPrivate(scratch.path("missing")))
    }

    @Test("a folder another uid owns is not private, even mode 0700")
    func foreignOwner() throws {
        if geteuid() != 0 { try Test.cancel("giving a folder to another uid needs root; CI runs these as root") }
        let scratch = try TemporaryFolder()
        #expect(mkdir(scratch.path("theirs"), 0o700) == 0 && chown(scratch.path("theirs"), 12345, 12345) == 0)
        #expect(!PrivateFolder.isPrivate(scratch.path("theirs")))
    }

    @Test("cache is $XDG_CACHE_HOME/haptics, else ~/.cache/haptics, made 0700; an unusable one falls back to a new folder in $TMPDIR")
    func cache() throws {
        let scratch = try TemporaryFolder()
        var environment = ["XDG_CACHE_HOME": scratch.path("xdg"), "HOME": scratch.path("home"), "TMPDIR": scratch.path("tmp")]
        #expect(mkdir(scratch.path("tmp"), 0o700) == 0)
        #expect(try PrivateFolder.cache { environment[$0] } == scratch.path("xdg/haptics"))
        #expect(mode(scratch.path("xdg/haptics")).mode == 0o700)
        // Again: the same folder, as it is.
        #expect(try PrivateFolder.cache { environment[$0] } == scratch.path("xdg/haptics"))
        // A relative XDG_CACHE_HOME is ignored (XDG says so); a home that does not exist is
        // not made: a new folder in $TMPDIR instead.
        environment["XDG_CACHE_HOME"] = "relative/cache"
        #expect(try PrivateFolder.cache { environment[$0] }.hasPrefix(scratch.path("tmp") + "/haptics-"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("home")))
        #expect(mkdir(scratch.path("home"), 0o700) == 0)
        #expect(try PrivateFolder.cache { environment[$0] } == scratch.path("home/.cache/haptics"))
        // A folder open to others is not used: a new private one in $TMPDIR instead.
        #expect(chmod(scratch.path("home/.cache/haptics"), 0o777) == 0)
        let fallback = try PrivateFolder.cache { environment[$0] }
        #expect(fallback.hasPrefix(scratch.path("tmp") + "/haptics-"), "\(fallback)")
        #expect(PrivateFolder.isPrivate(fallback))
    }

    @Test("clear removes a link at a path (not what it names) and leaves a regular file")
    func clear() throws {
        let scratch = try TemporaryFolder()
        let victim = try scratch.write("victim", "keep")
        #expect(symlink(victim.path, scratch.path("out.wav")) == 0)
        PrivateFolder.clear(scratch.path("out.wav"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.wav")))
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep")
        try scratch.write("regular", "x")
        PrivateFolder.clear(scratch.path("regular"))
        #expect(FileManager.default.fileExists(atPath: scratch.path("regular")))
    }
}
