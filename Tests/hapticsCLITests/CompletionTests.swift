import Foundation
import HapticsTestSupport
import Testing

@Suite("Shell completions and man pages")
struct CompletionTests {
    /// What `haptics ---complete -- WORDS… CURRENT` offers, one candidate a line.
    private func candidates(_ words: String..., in folder: URL? = nil) async throws -> [String] {
        let result = try await HapticsProcess.run(["---complete", "--"] + words, in: folder, timeout: .seconds(30))
        #expect(result.status == 0, "\(result.errorLines)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test("the first word completes to the commands, a dash to the tool's options")
    func commands() async throws {
        #expect(try await candidates("pl") == ["play", "plot"])
        #expect(try await candidates("").contains("analyze"))
        #expect(try await candidates("--v") == ["--version"])
        #expect(try await candidates("help", "ren") == ["render"])
    }

    @Test("a pattern completes to presets and aliases, then to .ahap files and folders in the folder typed")
    func patterns() async throws {
        let folder = try TemporaryFolder()
        try folder.write("succession.ahap", "{}")
        try folder.write("notes.txt", "")
        try folder.write("sub/inner.ahap", "{}")
        let offered = try await candidates("play", "succ", in: folder.url)
        #expect(offered == ["success", "succession.ahap"])
        #expect(try await candidates("render", "su", in: folder.url).contains("sub/"))
        #expect(try await candidates("validate", "a.ahap", "", in: folder.url).contains("succession.ahap"), "validate takes several files")
        #expect(try await candidates("show", "success", "", in: folder.url).isEmpty, "show takes one pattern")
    }

    @Test("an option completes to the command's options not yet given; a value to its choices")
    func options() async throws {
        let play = try await candidates("play", "success", "--l")
        #expect(play == ["--latency", "--latency-ms", "--loop"])
        #expect(try await candidates("render", "success", "--stats", "--st").isEmpty, "--stats is given already")
        #expect(try await candidates("render", "success", "--format", "") == ["s16", "f32"])
        #expect(try await candidates("render", "success", "--format=f") == ["--format=f32"])
        #expect(try await candidates("play", "impact", "--weight", "h") == ["heavy"])
        #expect(try await candidates("play", "success", "--profile", "l") == ["lra"])
        // An option whose value may be left out leaves the next word to the pattern.
        #expect(try await candidates("play", "--rumble", "succ") == ["success"])
        // After an option's value the next word is positional again.
        #expect(try await candidates("render", "--format", "s16", "succ").contains("success"))
    }

    @Test("-o completes to the files the command writes, and folders; analyze's sound to sound files; convert's input to patterns")
    func files() async throws {
        let folder = try TemporaryFolder()
        for name in ["out.wav", "out.csv", "out.svg", "out.png", "out.ahap", "out.haptic", "out.txt", "hit.flac", "hit.mp3", "zclip.haptic"] {
            try folder.write(name, "")
        }
        try FileManager.default.createDirectory(at: folder.file("outputs"), withIntermediateDirectories: true)
        #expect(try await candidates("render", "success", "-o", "out", in: folder.url) == ["out.ahap", "out.csv", "out.wav", "outputs/"])
        #expect(try await candidates("render", "success", "--output=out.w", in: folder.url) == ["--output=out.wav"])
        #expect(try await candidates("plot", "success", "-o", "out", in: folder.url) == ["out.png", "out.svg", "outputs/"])
        #expect(try await candidates("export", "success", "-o", "out", in: folder.url) == ["out.ahap", "outputs/"])
        #expect(try await candidates("convert", "success", "-o", "out.", in: folder.url) == ["out.ahap", "out.csv", "out.haptic"])
        #expect(try await candidates("analyze", "h", in: folder.url) == ["hit.flac", "hit.mp3"])
        #expect(try await candidates("analyze", "hit.flac", "-o", "out.h", in: folder.url) == ["out.haptic"])
        #expect(try await candidates("analyze", "hit.flac", "-o", "x.ahap", "--plot", "out.", in: folder.url) == ["out.png", "out.svg"])
        #expect(try await candidates("convert", "zc", in: folder.url) == ["zclip.haptic"])
        #expect(try await candidates("convert", "succ", in: folder.url) == ["success"])
        #expect(try await candidates("play", "zc", in: folder.url) == ["zclip.haptic"], "play reads .haptic files too")
    }

    @Test("--device offers the usable outputs and the documented names, not ALSA's plugins that are no output by themselves")
    func devices() async throws {
        let offered = try await candidates("play", "success", "--device", "")
        for name in ["default", "pulse", "null"] { #expect(offered.contains(name), "\(name): \(offered)") }
        for plugin in ["lavrate", "samplerate", "speexrate", "speex", "upmix", "vdownmix", "jack", "oss"] {
            #expect(!offered.contains(plugin), "\(plugin) is a plugin, not an output: \(offered)")
        }
        #expect(offered.count == Set(offered).count, "each once: \(offered)")
        #expect(try await candidates("play", "success", "-D", "nu") == ["null"], "-D completes as --device")
        #expect(try await candidates("daemon", "--device", "pu") == ["pulse"])
        #expect(try await candidates("analyze", "x.wav", "-o", "x.ahap", "--play", "--device", "nu") == ["null"])
        #expect(try await candidates("analyze", "x.wav", "-o", "x.ahap", "--plot", "x.svg", "--profile", "l") == ["lra"])
    }

    @Test("the bash script completes through haptics: COMPREPLY after _haptics holds the candidates")
    func bash() async throws {
        let executable = try #require(HapticsProcess.executable)
        let script = try await HapticsProcess.run(["--generate-completion-script", "bash"], timeout: .seconds(30))
        try #require(script.status == 0)
        let folder = try TemporaryFolder()
        let file = try folder.write("haptics.bash", script.output)
        try folder.write("hit.wav", "")
        try folder.write("shake.wav", "")
        let command = """
            source '\(file.path)'
            COMP_WORDS=('\(executable.path)' play impact --weight he)
            COMP_CWORD=4
            _haptics
            printf '%s\\n' "${COMPREPLY[@]}"
            COMP_WORDS=('\(executable.path)' re)
            COMP_CWORD=1
            _haptics
            printf '%s\\n' "${COMPREPLY[@]}"
            cd '\(folder.path)'
            COMP_WORDS=('\(executable.path)' analyze hi)
            COMP_CWORD=2
            _haptics
            printf '%s\\n' "${COMPREPLY[@]}"
            COMP_WORDS=('\(executable.path)' render success -o sh)
            COMP_CWORD=4
            _haptics
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try shell("bash '\(try folder.write("complete.sh", command).path)'")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output == "heavy\nrender\nhit.wav\nshake.wav\n")
    }

    @Test("the zsh script offers what haptics computes, folders without a trailing space")
    func zsh() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") else {
            try Test.cancel("zsh is not installed (scripts/install-dependencies.sh installs it)")
        }
        let executable = try #require(HapticsProcess.executable)
        let script = try await HapticsProcess.run(["--generate-completion-script", "zsh"], timeout: .seconds(30))
        try #require(script.status == 0)
        let folder = try TemporaryFolder()
        try folder.write("_haptics", script.output)
        try FileManager.default.createDirectory(at: folder.file("sub"), withIntermediateDirectories: true)
        try folder.write("out.haptic", "")
        // Outside a completion widget compadd is not there; a stand-in prints what it is given.
        let run = try shell(
            """
            cd '\(folder.path)' && zsh -c 'compadd() { print -r -- "compadd $*" }
              words=(\(executable.path) play impact --weight he); CURRENT=5; source ./_haptics
              words=(\(executable.path) render su); CURRENT=3; source ./_haptics
              words=(\(executable.path) convert success -o ou); CURRENT=5; source ./_haptics'
            """)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("compadd -- heavy\n"), "\(run.output)")
        #expect(run.output.contains("compadd -S  -- sub/\n") && run.output.contains("compadd -- success"), "\(run.output)")
        #expect(run.output.contains("compadd -- out.haptic\n"), "-o completes to files: \(run.output)")
    }

    @Test("the fish script offers what haptics computes")
    func fish() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") else {
            try Test.cancel("fish is not installed (scripts/install-dependencies.sh installs it)")
        }
        let executable = try #require(HapticsProcess.executable)
        let script = try await HapticsProcess.run(["--generate-completion-script", "fish"], timeout: .seconds(30))
        try #require(script.status == 0)
        let folder = try TemporaryFolder()
        let file = try folder.write("haptics.fish", script.output)
        try folder.write("hit.ogg", "")
        // The script runs `haptics` by name, as installed.
        try FileManager.default.createDirectory(at: folder.file("bin"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: folder.file("bin/haptics"), withDestinationURL: executable)
        let run = try shell(
            "cd '\(folder.path)' && fish -c \"source '\(file.path)'; complete -C'haptics play impact --weight he'; complete -C'haptics re'; complete -C'haptics analyze hi'; complete -C'haptics render success -o hi'\"",
            environment: ["PATH": folder.path("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output == "heavy\nrender\nhit.ogg\n", "\(run.output)")
    }

    @Test("an unknown shell is a usage error naming the three")
    func unknownShell() async throws {
        let unknown = try await HapticsProcess.run(["--generate-completion-script", "tcsh"], timeout: .seconds(30))
        #expect(unknown.status == 2)
        #expect(unknown.errorLines == ["haptics: --generate-completion-script takes bash, zsh or fish"])
    }

    @Test("---manual writes haptics.1 and haptics-COMMAND.1 per command, with options, examples, environment, files and exit status")
    func manual() async throws {
        let folder = try TemporaryFolder()
        let result = try await HapticsProcess.run(["---manual", folder.path], timeout: .seconds(30))
        #expect(result.status == 0, "\(result.errorLines)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(pages.contains("haptics.1"))
        for command in ["play", "render", "validate", "export", "show", "plot", "list", "devices", "convert", "analyze"] {
            #expect(pages.contains("haptics-\(command).1"), "\(command)")
        }
        let root = try String(contentsOf: folder.file("haptics.1"), encoding: .utf8)
        #expect(root.hasPrefix(".TH HAPTICS 1 "))
        #expect(root.contains(#".B haptics play"#), "the tool's page lists its commands")
        #expect(root.contains(#"See \fBhaptics\-play\fR(1)."#), "the tool's page names the commands' pages as man finds them")
        let play = try String(contentsOf: folder.file("haptics-play.1"), encoding: .utf8)
        #expect(play.hasPrefix(#".TH HAPTICS\-PLAY 1 "#))
        for section in [".SH ENVIRONMENT\n.TP\n.B HAPTICS_DEVICE\n", ".SH FILES\n", ".SH EXIT STATUS\n", ".TP\n.B 69\n", ".SH SEE ALSO\n\\fBhaptics\\fR(1)\n"] {
            #expect(play.contains(section), "\(section) is missing")
        }
        #expect(play.contains("/usr/share/doc/haptics/README.md"), "the README is named where it is installed")
        #expect(play.contains(#".B \-D, \-d, \-\-device <name>"#), "options are escaped so they copy as typed")
        #expect(play.contains(".nf\n  haptics play success\n"), "examples are kept as written")
        let requests: Set<Substring> = [".TH", ".SH", ".PP", ".TP", ".B", ".I", ".BR", ".nf", ".fi"]
        let misread = play.split(separator: "\n").filter { $0.hasPrefix(".") && !requests.contains($0.prefix { $0 != " " }) }
        #expect(misread.isEmpty, "text lines a man page reader takes for requests: \(misread)")

        let nowhere = try await HapticsProcess.run(["---manual", folder.path("missing/folder")], timeout: .seconds(30))
        #expect(nowhere.status == 1)
        #expect(nowhere.errorLines == ["haptics: \(folder.path("missing/folder/haptics.1")): cannot create the file (No such file or directory)"])
    }
}
