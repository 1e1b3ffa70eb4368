import Foundation
import HapticsTestSupport
import Testing

/// The options other tools taught users' hands (Sources/haptics/Arguments/GlobalOptions.swift,
/// ArgumentSpec's conventional letters): `-D`/`-d` for the device as aplay and paplay, `-r` for
/// the rate, `-q`, `--color` and `NO_COLOR` as clang and cargo, and a did-you-mean for letters.
@Suite("Options the hands know")
struct GlobalOptionsTests {
    static let red = "\u{1B}[1;31m"

    @Test("-D and -d name the device, as aplay's and paplay's do, and -r the rate", arguments: ["-D", "-d"])
    func deviceLetters(letter: String) async throws {
        let folder = try TemporaryFolder()
        let result = try await HapticsProcess.run(
            ["play", "success", letter, "file:'\(folder.path("out.wav"))',wav", "-r", "2"], timeout: .seconds(60))
        #expect(result.status == 0, "\(result.errorLines)")
        let written = try Data(contentsOf: folder.file("out.wav"))
        #expect(written.count > 44, "nothing was played into the file")
        let slow = try await HapticsProcess.run(["play", "success", "-D", "null", "-r", "0"], timeout: .seconds(30))
        #expect(slow.errorLines == ["haptics: --rate must be from 0.001 to 100 (see 'haptics play --help')"], "-r is --rate")
    }

    @Test(
        "an unknown short option gets its did-you-mean",
        arguments: [
            (["render", "success", "-O", "x.wav"], "haptics: unknown option '-O'. Did you mean '-o'? (see 'haptics render --help')"),
            (["play", "success", "-device", "null"], "haptics: unknown option '-device'. Did you mean '--device'? (see 'haptics play --help')"),
            (["render", "success", "-p", "lra", "-o", "x.wav"], "haptics: unknown option '-p'. Did you mean '--profile'? (see 'haptics render --help')"),
            (["show", "success", "-z"], "haptics: unknown option '-z' (see 'haptics show --help')"),
        ])
    func shortOptionSuggestion(arguments: [String], line: String) async throws {
        let folder = try TemporaryFolder()
        let result = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(30))
        #expect(result.status == 2)
        #expect(result.errorLines == [line])
    }

    @Test("-q and --quiet leave notes and warnings out, before or after the command; errors still print")
    func quiet() async throws {
        let folder = try TemporaryFolder()
        // A file named like a preset: the command says which it took, as a note.
        _ = try folder.write("success", "{}")
        let noted = try await HapticsProcess.run(["render", "success", "-o", "a.wav"], in: folder.url, timeout: .seconds(30))
        #expect(noted.status == 0)
        #expect(noted.errorLines.count == 1 && noted.errorOutput.contains("note: 'success' is the preset"), "\(noted.errorLines)")
        for arguments in [
            ["render", "success", "-o", "b.wav", "-q"], ["-q", "render", "success", "-o", "c.wav"], ["render", "--quiet", "success", "-o", "d.wav"],
        ] {
            let quiet = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(30))
            #expect(quiet.status == 0, "\(arguments): \(quiet.errorLines)")
            #expect(quiet.errorLines.isEmpty, "\(arguments): \(quiet.errorLines)")
        }
        let failing = try await HapticsProcess.run(["-q", "render", "missing.ahap", "-o", "e.wav"], in: folder.url, timeout: .seconds(30))
        #expect(failing.status == 1)
        #expect(failing.errorLines.count == 1 && failing.errorOutput.contains("missing.ahap"), "\(failing.errorLines)")
    }

    @Test("--color=always colours the place bold and the severity as clang does; a pipe and --color=never get none")
    func colorOption() async throws {
        let folder = try TemporaryFolder()
        let always = try await HapticsProcess.run(["render", "missing.ahap", "-o", "x.wav", "--color=always"], in: folder.url, timeout: .seconds(30))
        #expect(always.status == 1)
        #expect(
            always.errorOutput == "\u{1B}[1mhaptics: missing.ahap:\u{1B}[0m \(Self.red)error:\u{1B}[0m no such file\n", "\(always.errorOutput.debugDescription)"
        )
        let usage = try await HapticsProcess.run(["--color", "always", "render", "-O"], in: folder.url, timeout: .seconds(30))
        #expect(usage.errorOutput.hasPrefix(Self.red + "haptics:\u{1B}[0m unknown option '-O'"), "\(usage.errorOutput.debugDescription)")
        for arguments in [["render", "missing.ahap", "-o", "x.wav"], ["render", "missing.ahap", "-o", "x.wav", "--color", "never"]] {
            let plain = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(30))
            #expect(plain.errorLines == ["haptics: missing.ahap: error: no such file"], "\(arguments)")
        }
    }

    @Test("on a terminal diagnostics are coloured unless NO_COLOR is set or --color=never")
    func colorOnTerminal() throws {
        let binary = try #require(HapticsProcess.executable)
        guard (try? shell("command -v script"))?.status == 0 else { try Test.cancel("script(1) (util-linux) is not installed") }
        let folder = try TemporaryFolder()
        // script(1) runs the command on a pseudo-terminal, as a user's shell would; NO_COLOR
        // only where the test sets it (a test runner may set it for its own output).
        func onTerminal(_ arguments: String, _ environment: [String: String] = [:]) throws -> String {
            let unset = environment["NO_COLOR"] == nil ? "env -u NO_COLOR " : ""
            return try shell(
                "cd '\(folder.path)' && \(unset)script -qec \"'\(binary.path)' \(arguments)\" /dev/null",
                environment: ["TERM": "xterm"].merging(environment) { $1 }
            ).output
        }
        let coloured = try onTerminal("render missing.ahap -o x.wav")
        #expect(coloured.contains(Self.red + "error:"), "\(coloured.debugDescription)")
        #expect(!(try onTerminal("render missing.ahap -o x.wav", ["NO_COLOR": "1"]).contains("\u{1B}[")))
        #expect(!(try onTerminal("render missing.ahap -o x.wav --color=never").contains("\u{1B}[")))
        #expect(!(try onTerminal("render missing.ahap -o x.wav", ["TERM": "dumb"]).contains("\u{1B}[")))
    }

    @Test("-V is the version on every command, as most tools have it; -v alone is the version too, as clang -v and gcc -v print theirs")
    func versionLetters() async throws {
        let version = try await HapticsProcess.run(["--version"], timeout: .seconds(30)).output
        for arguments in [["-V"], ["-v"], ["render", "-V"], ["play", "success", "-V"]] {
            let result = try await HapticsProcess.run(arguments, timeout: .seconds(30))
            #expect(result.status == 0 && result.output == version, "\(arguments): \(result.output) \(result.errorLines)")
        }
        let help = try await HapticsProcess.run(["render", "--help"], timeout: .seconds(30))
        #expect(help.output.contains("-V, --version"), "the help names the letter")
        #expect(help.output.contains("-v, --verbose"), "the help names the letter")
    }

    @Test(
        "-v and --verbose with a command say what was chosen, as aplay -v: play names its output, profile, rate and buffer; render its profile, rate and format"
    )
    func verbose() async throws {
        let folder = try TemporaryFolder()
        let plain = try await HapticsProcess.run(["play", "success", "-D", "null"], in: folder.url, timeout: .seconds(60))
        #expect(plain.status == 0 && plain.errorLines.isEmpty, "\(plain.errorLines)")
        for arguments in [["play", "success", "-D", "null", "-v"], ["-v", "play", "success", "-D", "null"], ["play", "--verbose", "success", "-D", "null"]] {
            let result = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(60))
            #expect(result.status == 0, "\(arguments): \(result.errorLines)")
            #expect(
                result.errorLines == ["haptics: note: playing success on 'null' (--device), profile 'wideband', 48000 Hz, 1 channel, buffer 20 ms"],
                "\(arguments): \(result.errorLines)")
        }
        let looped = try await HapticsProcess.run(["play", "success", "-D", "null", "-v", "-r", "2", "--loop", "2"], in: folder.url, timeout: .seconds(60))
        #expect(looped.errorLines.first?.hasSuffix("buffer 20 ms, at 2.0× speed, 2 times") == true, "\(looped.errorLines)")
        let render = try await HapticsProcess.run(["render", "success", "-o", "s.wav", "-v", "--format", "f32"], in: folder.url, timeout: .seconds(60))
        #expect(render.status == 0, "\(render.errorLines)")
        #expect(
            render.errorLines == ["haptics: note: rendering success for the 'wideband' profile, 48000 Hz, 1 channel, f32, to s.wav"], "\(render.errorLines)")
        let quiet = try await HapticsProcess.run(["play", "success", "-D", "null", "-v", "-q"], in: folder.url, timeout: .seconds(60))
        #expect(quiet.errorLines.isEmpty, "--quiet wins: notes are left out")
    }
}
