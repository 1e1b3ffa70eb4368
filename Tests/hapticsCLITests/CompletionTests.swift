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
        // After an option's value the next word is positional again.
        #expect(try await candidates("render", "--format", "s16", "succ").contains("success"))
    }

    @Test("the bash script completes through haptics: COMPREPLY after _haptics holds the candidates")
    func bash() async throws {
        let executable = try #require(HapticsProcess.executable)
        let script = try await HapticsProcess.run(["--generate-completion-script", "bash"], timeout: .seconds(30))
        try #require(script.status == 0)
        let folder = try TemporaryFolder()
        let file = try folder.write("haptics.bash", script.output)
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
            """
        let result = try shell(["bash", "-c", command])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output == "heavy\nrender\n")
    }

    @Test("zsh and fish scripts hand the words to haptics ---complete")
    func otherShells() async throws {
        for shell in ["zsh", "fish"] {
            let script = try await HapticsProcess.run(["--generate-completion-script", shell], timeout: .seconds(30))
            #expect(script.status == 0)
            #expect(script.output.contains("---complete --"), "\(shell)")
        }
        let unknown = try await HapticsProcess.run(["--generate-completion-script", "tcsh"], timeout: .seconds(30))
        #expect(unknown.status == 2)
        #expect(unknown.errorLines == ["haptics: --generate-completion-script takes bash, zsh or fish"])
    }

    @Test("---manual writes haptics.1 and a page per command, with its options and examples")
    func manual() async throws {
        let folder = try TemporaryFolder()
        let result = try await HapticsProcess.run(["---manual", folder.path], timeout: .seconds(30))
        #expect(result.status == 0, "\(result.errorLines)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(pages.contains("haptics.1"))
        for command in ["play", "render", "validate", "export", "show", "plot", "list", "devices", "convert", "analyze"] {
            #expect(pages.contains("haptics.\(command).1"), "\(command)")
        }
        let root = try String(contentsOf: folder.file("haptics.1"), encoding: .utf8)
        #expect(root.hasPrefix(".TH HAPTICS 1 "))
        #expect(root.contains(#".B haptics play"#), "the tool's page lists its commands")
        let play = try String(contentsOf: folder.file("haptics.play.1"), encoding: .utf8)
        #expect(play.contains(#".B \-\-device <name>"#), "options are escaped so they copy as typed")
        #expect(play.contains(".nf\n  haptics play success\n"), "examples are kept as written")
        let lines = play.split(separator: "\n")
        #expect(
            !lines.contains {
                $0.hasPrefix(".") && !$0.hasPrefix(".TH") && !$0.hasPrefix(".SH") && !$0.hasPrefix(".PP") && !$0.hasPrefix(".TP") && !$0.hasPrefix(".B")
                    && !$0.hasPrefix(".I") && !$0.hasPrefix(".nf") && !$0.hasPrefix(".fi")
            }, "no text line is read as a request")
    }

    private func shell(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
