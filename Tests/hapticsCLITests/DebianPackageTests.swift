import Foundation
import HapticsTestSupport
import Testing

/// scripts/package-deb.sh as a user meets its result: the .deb is lintian clean, installs with
/// `dpkg -i`, runs, has its man pages where `man` looks, and `dpkg -r` leaves nothing behind;
/// the release tarball holds the same files. It packages the release build that
/// `scripts/test.sh` makes, and installs it into this machine (CI's), so it refuses to touch a
/// haptics package that is already installed.
@Suite("Debian package", .serialized)
struct DebianPackageTests {
    static let script = DistributionTests.packageRoot.appendingPathComponent("scripts/package-deb.sh").path

    func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test("package-deb.sh builds a lintian-clean .deb that dpkg -i installs, runs and documents, and dpkg -r removes whole")
    func installAndRemove() throws {
        guard FileManager.default.isExecutableFile(atPath: DistributionTests.release.path) else {
            try Test.cancel("no release build at \(DistributionTests.release.path): scripts/test.sh builds it")
        }
        for tool in ["dpkg-deb", "dpkg-shlibdeps", "lintian", "man"] where try shell("command -v \(tool)").status != 0 {
            try Test.cancel("\(tool) is not installed (scripts/install-dependencies.sh installs it)")
        }
        guard try shell("dpkg-query -W -f='${Status}' haptics 2>/dev/null | grep -q 'ok installed'").status != 0 else {
            try Test.cancel("a haptics package is already installed here; this test would replace it")
        }
        let folder = try TemporaryFolder()
        let built = try shell("'\(Self.script)' '\(folder.path)'", environment: ["HAPTICS_PREBUILT": "1"])
        try #require(built.status == 0, "package-deb.sh or lintian failed:\n\(built.output)")
        let version = try shell("'\(DistributionTests.release.path)' --version").output.split(separator: " ").last.map { String($0.dropLast()) } ?? ""
        let architecture = try shell("dpkg --print-architecture").output.trimmingCharacters(in: .whitespacesAndNewlines)
        let deb = folder.path("haptics_\(version)_\(architecture).deb")
        let tarball = folder.path("haptics-\(version)-linux-\(architecture).tar.gz")
        #expect(FileManager.default.fileExists(atPath: deb) && FileManager.default.fileExists(atPath: tarball), "\(built.output)")
        #expect(!built.output.contains("W: ") && !built.output.contains("E: "), "lintian: \(built.output)")

        let contents = lines(try shell("dpkg-deb -c '\(deb)' | awk '{print $6}'").output)
        for file in [
            "./usr/bin/haptics", "./usr/share/man/man1/haptics.1.gz", "./usr/share/man/man1/haptics-play.1.gz",
            "./usr/share/bash-completion/completions/haptics", "./usr/share/zsh/site-functions/_haptics",
            "./usr/share/fish/vendor_completions.d/haptics.fish", "./usr/lib/udev/rules.d/70-haptics.rules",
            "./usr/share/doc/haptics/copyright", "./usr/share/doc/haptics/changelog.gz", "./usr/share/doc/haptics/README.md",
        ] {
            #expect(contents.contains(file), "\(file) is not in the package: \(contents)")
        }
        // The binary is stripped (28 MB with its symbols): no symbol table.
        _ = try shell("dpkg-deb --fsys-tarfile '\(deb)' | tar -xO ./usr/bin/haptics >'\(folder.path("haptics"))'")
        let sections = try shell("readelf -S -W '\(folder.path("haptics"))'").output
        #expect(sections.contains(".text") && !sections.contains(".symtab"), "\(sections.prefix(300))")

        // The tarball: the same files under haptics-VERSION/, with LICENSE instead of Debian's two.
        let packed = Set(lines(try shell("tar -tzf '\(tarball)'").output).filter { !$0.hasSuffix("/") })
        let debFiles = Set(
            contents.filter { !$0.hasSuffix("/") && !$0.hasSuffix("/copyright") && !$0.hasSuffix("/changelog.gz") }
                .map { "haptics-\(version)/" + $0.dropFirst("./usr/".count) })
        #expect(packed == debFiles.union(["haptics-\(version)/share/doc/haptics/LICENSE"]), "\(packed.symmetricDifference(debFiles))")

        let install = try shell("dpkg -i '\(deb)'")
        try #require(install.status == 0, "\(install.output)")
        let installed = lines(try shell("dpkg -L haptics").output)
        var removed = false
        // A failed expectation below must not leave the package installed on the machine.
        defer { if !removed { _ = try? shell("dpkg -r haptics") } }
        let run = try shell("/usr/bin/haptics --version")
        #expect(run.status == 0 && run.output == "haptics \(version)\n", "\(run.output)")
        let page = try shell("MANPAGER=cat MANWIDTH=80 man haptics-play 2>&1")
        #expect(page.status == 0, "\(page.output)")
        #expect(page.output.contains("HAPTICS-PLAY(1)") && page.output.contains("EXIT STATUS"), "\(page.output.prefix(400))")

        let remove = try shell("dpkg -r haptics")
        removed = true
        try #require(remove.status == 0, "\(remove.output)")
        let status = try shell("dpkg-query -W -f='${Status}' haptics 2>&1")
        #expect(!status.output.contains("installed") || status.output.contains("not-installed"), "dpkg still knows it: \(status.output)")
        let left = installed.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(!FileManager.default.fileExists(atPath: "/usr/share/doc/haptics"), "its documentation folder is left")
    }
}
