import Foundation
import HapticsTestSupport
import Testing

/// scripts/install.sh as users and packagers run it: options in any order, `--prefix=DIR`,
/// `DESTDIR`, a relative prefix, an install that fails part-way, and an uninstall that removes
/// the folders it made. These install the debug binary (`HAPTICS_BINARY`); DistributionTests
/// installs the release one.
@Suite("install.sh", .serialized)
struct InstallScriptTests {
    static let script = DistributionTests.packageRoot.appendingPathComponent("scripts/install.sh").path

    func binary() throws -> String {
        guard let executable = HapticsProcess.executable else { try Test.cancel("the haptics binary is not built") }
        return executable.path
    }

    /// Runs install.sh with `arguments` (already quoted) from `folder`.
    func install(_ arguments: String, from folder: String, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        try shell("cd '\(folder)' && '\(Self.script)' \(arguments)", environment: ["HAPTICS_BINARY": try binary()].merging(environment) { $1 })
    }

    /// Every file and folder under `root`, relative, folders ending in `/`.
    func tree(_ root: String) -> [String] {
        let paths = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
        return paths.map { path in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
            return isDirectory.boolValue ? path + "/" : path
        }.sorted()
    }

    @Test("man pages install as haptics-COMMAND.1, and --uninstall after the prefix removes every file and folder the install made")
    func uninstallRemovesFoldersItMade() throws {
        let folder = try TemporaryFolder()
        let prefix = folder.path("prefix")
        try FileManager.default.createDirectory(atPath: prefix + "/share/man", withIntermediateDirectories: true)
        let installed = try install("'\(prefix)'", from: folder.path)
        try #require(installed.status == 0, "\(installed.output)")
        let files = tree(prefix)
        for expected in [
            "bin/haptics", "share/man/man1/haptics.1", "share/man/man1/haptics-play.1", "share/man/man1/haptics-render.1",
            "share/doc/haptics/README.md", "share/doc/haptics/LICENSE", "share/doc/haptics/CHANGELOG.md",
            "lib/udev/rules.d/70-haptics.rules", "share/haptics/install-manifest",
        ] {
            #expect(files.contains(expected), "\(expected) not installed; got \(files)")
        }
        #expect(!files.contains { $0.contains("haptics.play") }, "\(files)")
        let manifest = try String(contentsOfFile: prefix + "/share/haptics/install-manifest", encoding: .utf8)
        #expect(manifest.contains(prefix + "/share/man/man1/\n"), "the folder it made is listed:\n\(manifest)")
        #expect(!manifest.contains(prefix + "/share/man/\n"), "a folder that was there is not:\n\(manifest)")

        // The prefix first and --uninstall after it, as people type it.
        let removed = try install("'\(prefix)' --uninstall", from: folder.path)
        #expect(removed.status == 0, "\(removed.output)")
        #expect(!removed.output.contains("installed "), "it installed again: \(removed.output)")
        #expect(tree(prefix) == ["share/", "share/man/"], "left behind: \(tree(prefix))")
    }

    @Test("a relative prefix is taken from the current folder, for the install and the uninstall")
    func relativePrefix() throws {
        let folder = try TemporaryFolder()
        let installed = try install("local", from: folder.path)
        try #require(installed.status == 0, "\(installed.output)")
        #expect(FileManager.default.isExecutableFile(atPath: folder.path("local/bin/haptics")))
        #expect(!FileManager.default.fileExists(atPath: DistributionTests.packageRoot.appendingPathComponent("local").path))
        let removed = try install("--uninstall local", from: folder.path)
        #expect(removed.status == 0, "\(removed.output)")
        #expect(tree(folder.path) == [], "left behind: \(tree(folder.path))")
    }

    @Test("--prefix=DIR and --prefix DIR are taken, an unknown option is a usage error that installs nothing")
    func prefixOption() throws {
        let folder = try TemporaryFolder()
        let equals = try install("--prefix='\(folder.path("a"))'", from: folder.path)
        #expect(equals.status == 0, "\(equals.output)")
        #expect(FileManager.default.fileExists(atPath: folder.path("a/bin/haptics")))
        let spaced = try install("--prefix '\(folder.path("b"))'", from: folder.path)
        #expect(spaced.status == 0, "\(spaced.output)")
        #expect(FileManager.default.fileExists(atPath: folder.path("b/bin/haptics")))
        let unknown = try install("--prefx='\(folder.path("c"))'", from: folder.path)
        #expect(unknown.status == 2)
        #expect(unknown.output == "install.sh: unknown option '--prefx=\(folder.path("c"))' (see install.sh --help)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path("c")))
    }

    @Test("DESTDIR stages every file under it, for the prefix, with no manifest")
    func destdir() throws {
        let folder = try TemporaryFolder()
        let staged = try install(
            "--prefix=/usr", from: folder.path, environment: ["DESTDIR": folder.path("stage"), "UDEV_RULES_DIR": "/usr/lib/udev/rules.d"])
        #expect(staged.status == 0, "\(staged.output)")
        let files = tree(folder.path("stage"))
        #expect(files.contains("usr/bin/haptics") && files.contains("usr/share/man/man1/haptics-play.1"), "\(files)")
        #expect(files.contains("usr/lib/udev/rules.d/70-haptics.rules"), "\(files)")
        #expect(!files.contains { $0.contains("install-manifest") }, "\(files)")
        #expect(files.allSatisfy { $0.hasPrefix("usr/") }, "\(files)")
    }

    @Test("an install that fails part-way removes what it had put in and leaves no manifest")
    func failedInstallRollsBack() throws {
        let folder = try TemporaryFolder()
        let prefix = folder.path("prefix")
        // The udev rule goes in after the binary, the pages and the completions: a file where
        // its folder should be makes that step fail.
        _ = try folder.write("blocker", "not a folder")
        let failed = try install("'\(prefix)'", from: folder.path, environment: ["UDEV_RULES_DIR": folder.path("blocker/rules.d")])
        #expect(failed.status != 0)
        #expect(failed.output.contains("installed \(prefix)/bin/haptics"), "it failed before installing anything: \(failed.output)")
        #expect(failed.output.contains("install.sh: install failed; removing what it had installed"), "\(failed.output)")
        #expect(tree(prefix) == [] || !FileManager.default.fileExists(atPath: prefix), "left behind: \(tree(prefix))")
        let uninstall = try install("--uninstall '\(prefix)'", from: folder.path)
        #expect(uninstall.status == 1 && uninstall.output.contains("nothing to uninstall"), "\(uninstall.output)")
    }
}
