import ArgumentParser
import FoundationEssentials
import Glibc
import Haptics

@main
struct HapticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haptics",
        abstract: "Author, render and play haptic patterns on Linux.",
        discussion: """
            A PATTERN argument is a preset name (success, impact, …; see `haptics list`), a path to \
            an .ahap or .json file, or - for standard input.

            Exit codes: 0 ok, 1 invalid input, 2 usage error, 69 output device unavailable, \
            130 interrupted, 143 terminated. Errors are one line on standard error.

            Examples:
              haptics play success
              haptics render success -o success.wav --stats
              haptics validate --strict my.ahap
              haptics show my.ahap
              haptics help play
            """,
        version: HapticsVersion.current,
        subcommands: [
            PlayCommand.self, RenderCommand.self, ValidateCommand.self, ExportCommand.self,
            ShowCommand.self, PlotCommand.self, ListCommand.self, DevicesCommand.self, ConvertCommand.self,
            AnalyzeCommand.self,
        ]
    )

    /// Runs the command; failures become one line on stderr and the exit code of ``CLIError``.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(OptionalValues.normalize(arguments))
            try command.run()
        } catch let error as CLIError {
            writeStandardError(error.line)
            // Usage errors found after parsing (a rate the profile refuses, --device with
            // --rumble) keep the contract's 2, like those the parser finds.
            Glibc.exit(error.code == .validationFailure ? 2 : error.code.rawValue)
        } catch {
            // ArgumentParser exits with EX_USAGE (64) on usage errors and prints the whole
            // usage synopsis; the tool's contract is 2 and one line.
            if exitCode(for: error) == .validationFailure {
                let line = UsageErrorLine(arguments: arguments, message: message(for: error)).text
                writeStandardError(line ?? fullMessage(for: error))
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }
}
