import Foundation
import HapticsTestSupport
import Testing

/// The binary a user copies or installs: no library of the Swift toolchain, runs with the
/// toolchain out of sight, installs and uninstalls cleanly. These read the release build that
/// `scripts/test.sh` makes (`swift build -c release --static-swift-stdlib --product haptics`).
@Suite("Distribution", .serialized)
struct DistributionTests {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let release = packageRoot.appendingPathComponent(".build/release/haptics")

    func releaseBinary() throws -> URL {
        guard FileManager.default.isExecutableFile(atPath: Self.release.path) else {
            try Test.cancel("no release build at \(Self.release.path): scripts/test.sh builds it")
        }
        return Self.release
    }

    @Test("the release binary links no library of the Swift toolchain, nor alsa-lib, libpulse or the analysis libraries")
    func noToolchainLibraries() throws {
        let binary = try releaseBinary()
        let ldd = try shell("ldd '\(binary.path)'")
        #expect(ldd.status == 0, "\(ldd.output)")
        let libraries = ldd.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let swift = libraries.filter { $0.contains("libswift") || $0.contains("libFoundation") || $0.contains("libdispatch") || $0.contains("/swift/") }
        #expect(swift.isEmpty, "toolchain libraries: \(swift)")
        // Loaded when first used (alsa-lib by play and devices, libpulse by `--device pulse`,
        // the analysis libraries by analyze), so that everything else starts without them,
        // and sooner.
        let optional = libraries.filter {
            $0.contains("libasound") || $0.contains("libpulse") || $0.contains("libsndfile") || $0.contains("kissfft")
        }
        #expect(optional.isEmpty, "libraries linked that should be opened on first use: \(optional)")
        // Linked in where its static archive is installed (Linker/libstdc++.so), as on Debian.
        let archive = try shell("ls /usr/lib/gcc/*/*/libstdc++.a 2>/dev/null | head -n 1").output
        if !archive.isEmpty {
            #expect(!libraries.contains { $0.contains("libstdc++") }, "libstdc++ is loaded rather than linked in: \(libraries)")
        }
    }

    @Test("the release binary starts without the runtime's argv scan of /proc/self/maps or libgcc_s, and reads its arguments whole")
    func startUpWithoutArgvScanOrLibgcc() throws {
        // What CStartup and -static-libgcc (Package.swift) take out of every start (issue #28).
        let binary = try releaseBinary()
        let grabber = try shell("nm '\(binary.path)' | grep -c argvGrabber || true")
        #expect(grabber.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "the runtime's CommandLine.cpp is linked again")
        let libgcc = try shell("ls /usr/lib/gcc/*/*/libgcc_eh.a 2>/dev/null | head -n 1").output
        if !libgcc.isEmpty {
            let ldd = try shell("ldd '\(binary.path)'")
            #expect(!ldd.output.contains("libgcc_s"), "libgcc_s is loaded rather than linked in: \(ldd.output)")
        }
        // The arguments come from the executable's constructor now: with spaces and non-ASCII,
        // whole and in order.
        let folder = try TemporaryFolder()
        let names = ["a tap é.ahap", "b.ahap"]
        for name in names {
            try #"{"Version":1,"Pattern":[{"Event":{"Time":0,"EventType":"HapticTransient"}}]}"#.write(
                to: folder.url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let valid = try shell("cd '\(folder.path)' && '\(binary.path)' validate '\(names[0])' '\(names[1])'")
        #expect(valid.status == 0, "\(valid.output)")
        #expect(valid.output.split(separator: "\n") == names.map { "\($0): valid" }, "\(valid.output)")
    }

    @Test("the release binary links FoundationEssentials only, not Foundation proper")
    func noFullFoundation() throws {
        // Foundation proper (with CoreFoundation and ICU's data) cost every run milliseconds
        // of start-up and about 6 MiB of memory (issue #15); one use of FileHandle, Thread,
        // Process, NSString or String(format:) anywhere in the tool links all of it again.
        let binary = try releaseBinary()
        let symbols = try shell("nm '\(binary.path)' | grep -c -E ' (__CFInitialize|\\$s10Foundation6ThreadC.*)$' || true")
        #expect(
            symbols.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0",
            "Foundation proper is linked into the tool (look for FileHandle, Thread, Process, NSString, String(format:))")
    }

    @Test("the release binary exports none of the optional libraries' names it forwards")
    func forwardsAreNotExported() throws {
        // CALSA's forwards carry alsa-lib's own names (snd_pcm_open, …); exported, they would
        // be found before libasound's own functions by libasound and its plugins.
        let binary = try releaseBinary()
        let exported = try shell("nm -D --defined-only '\(binary.path)' | grep -E ' (snd|pa|sd_bus|sf|soxr|kiss_fft|rsvg)_' || true")
        #expect(exported.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "exported: \(exported.output.prefix(500))")
    }

    @Test("the release binary runs with the Swift toolchain hidden")
    func runsWithoutToolchain() throws {
        let binary = try releaseBinary()
        let swift = try shell("readlink -f \"$(command -v swift)\"").output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let range = swift.range(of: "/usr/bin/swift"), !swift.isEmpty else {
            try Test.cancel("cannot tell where the toolchain is (swift at '\(swift)')")
        }
        let toolchain = String(swift[..<range.lowerBound])
        let temporary = try TemporaryFolder()
        let empty = temporary.url
        defer { withExtendedLifetime(temporary) {} }
        let probe = try shell("unshare -m true")
        guard probe.status == 0 else { try Test.cancel("unshare -m is not permitted here: \(probe.output)") }
        // A private mount namespace in which an empty folder covers the toolchain.
        let run = try shell(
            """
            unshare -m sh -c 'mount --bind "\(empty.path)" "\(toolchain)" && test ! -e "\(swift)" && \
            "\(binary.path)" --version && "\(binary.path)" render success -o - | wc -c'
            """)
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n")
        #expect(lines.first.map(String.init)?.range(of: #"^haptics \d+\.\d+\.\d+$"#, options: .regularExpression) != nil, "\(run.output)")
        #expect((lines.last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0) > 1000, "no WAV rendered: \(run.output)")
    }

    @Test("without libsndfile, analyze names the package to install and everything else still works")
    func analyzeWithoutSoundLibrary() throws {
        let binary = try releaseBinary()
        let library = try shell("readlink -f /usr/lib/x86_64-linux-gnu/libsndfile.so.1 2>/dev/null || readlink -f /lib/x86_64-linux-gnu/libsndfile.so.1").output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !library.isEmpty, FileManager.default.fileExists(atPath: library) else { try Test.cancel("libsndfile is not installed here") }
        let probe = try shell("unshare -m true")
        guard probe.status == 0 else { try Test.cancel("unshare -m is not permitted here: \(probe.output)") }
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        defer { withExtendedLifetime(temporary) {} }
        // /dev/null over the library, in a private mount namespace: dlopen finds no ELF there.
        let run = try shell(
            """
            cd "\(folder.path)" && "\(binary.path)" render success -o tap.wav && \
            unshare -m sh -c 'mount --bind /dev/null "\(library)" && \
              "\(binary.path)" render success -o - >/dev/null && echo rendered; \
              "\(binary.path)" analyze tap.wav -o tap.ahap; echo "status $?"'
            """)
        // (Not play: ALSA's own pulse plugin links libsndfile through libpulse, so a machine
        // without libsndfile has no pulse plugin either; render touches no ALSA.)
        #expect(run.output.contains("rendered"), "\(run.output)")
        #expect(run.output.contains("analysing sounds needs libsndfile, which is not installed (Debian/Ubuntu: apt-get install libsndfile1)"), "\(run.output)")
        #expect(run.output.contains("status 1"), "\(run.output)")
    }

    @Test("without alsa-lib, play renders to a file and names the package, devices says so, and the rest works")
    func withoutALSA() throws {
        let binary = try releaseBinary()
        let library = try shell("readlink -f /usr/lib/x86_64-linux-gnu/libasound.so.2 2>/dev/null || readlink -f /lib/x86_64-linux-gnu/libasound.so.2").output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !library.isEmpty, FileManager.default.fileExists(atPath: library) else { try Test.cancel("alsa-lib is not installed here") }
        let probe = try shell("unshare -m true")
        guard probe.status == 0 else { try Test.cancel("unshare -m is not permitted here: \(probe.output)") }
        let temporary = try TemporaryFolder()
        defer { withExtendedLifetime(temporary) {} }
        // alsa-lib is opened on first use, not linked: with /dev/null over it (in a private
        // mount namespace) the binary still starts.
        let run = try shell(
            """
            cd "\(temporary.path)" && unshare -m sh -c 'mount --bind /dev/null "\(library)" && \
              "\(binary.path)" render success -o tap.wav && echo rendered; \
              "\(binary.path)" play success; echo "play status $?"; \
              "\(binary.path)" play success --device null; echo "null status $?"; \
              "\(binary.path)" devices'
            """, environment: ["TMPDIR": temporary.path, "XDG_CACHE_HOME": temporary.path("cache")])
        #expect(run.output.contains("rendered"), "\(run.output)")
        #expect(
            run.output.contains("play status 69") && run.output.contains("Rendered success"), "play renders instead, and says it did not play: \(run.output)")
        #expect(run.output.contains("audio device 'null': alsa-lib is not installed (Debian/Ubuntu: apt-get install libasound2)\n"), "\(run.output)")
        #expect(run.output.contains("null status 69"), "\(run.output)")
        #expect(run.output.contains("none: alsa-lib is not installed"), "\(run.output)")
        // In the user's own cache folder, never under a fixed name in the shared TMPDIR.
        #expect(FileManager.default.fileExists(atPath: temporary.path("cache/haptics/success.wav")))
        #expect(!FileManager.default.fileExists(atPath: temporary.path("haptics")))
    }

    @Test("install.sh installs the binary, man pages, completions and udev rule into a prefix, and --uninstall removes exactly them")
    func installAndUninstall() throws {
        _ = try releaseBinary()
        let temporary = try TemporaryFolder()
        let prefix = temporary.url
        defer { withExtendedLifetime(temporary) {} }
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("share/man/man1"), withIntermediateDirectories: true)
        // Someone else's file in a shared folder must survive the uninstall.
        let other = prefix.appendingPathComponent("share/man/man1/other.1")
        try Data("other".utf8).write(to: other)
        let script = Self.packageRoot.appendingPathComponent("scripts/install.sh").path
        let install = try shell("'\(script)' '\(prefix.path)'", environment: ["HAPTICS_PREBUILT": "1"])
        try #require(install.status == 0, "\(install.output)")

        let installed = try #require(FileManager.default.enumerator(atPath: prefix.path)?.allObjects as? [String])
            .filter { !$0.hasSuffix("/") }
        let files = Set(
            installed.filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path, isDirectory: &isDirectory) && !isDirectory.boolValue
            })
        for expected in [
            "bin/haptics", "share/man/man1/haptics.1", "share/man/man1/haptics-play.1", "share/man/man1/haptics-render.1",
            "share/bash-completion/completions/haptics", "share/zsh/site-functions/_haptics",
            "share/fish/vendor_completions.d/haptics.fish", "lib/udev/rules.d/70-haptics.rules",
            "share/haptics/install-manifest",
        ] {
            #expect(files.contains(expected), "\(expected) not installed; got \(files.sorted())")
        }
        let version = try shell("'\(prefix.path)/bin/haptics' --version")
        #expect(version.status == 0 && !version.output.isEmpty)
        let page = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/haptics-play.1"), encoding: .utf8)
        #expect(page.contains(#"\-\-device"#), "the man page documents play's options")
        let bash = try String(contentsOf: prefix.appendingPathComponent("share/bash-completion/completions/haptics"), encoding: .utf8)
        #expect(bash.contains("complete -F _haptics haptics") && bash.contains("---complete --"), "bash completes through haptics")
        let rule = try String(contentsOf: prefix.appendingPathComponent("lib/udev/rules.d/70-haptics.rules"), encoding: .utf8)
        #expect(rule.contains(#"TAG+="uaccess""#))

        let uninstall = try shell("'\(script)' --uninstall '\(prefix.path)'")
        try #require(uninstall.status == 0, "\(uninstall.output)")
        let left = (FileManager.default.enumerator(atPath: prefix.path)?.allObjects as? [String] ?? []).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        #expect(left == ["share/man/man1/other.1"], "left behind: \(left)")
    }
}
