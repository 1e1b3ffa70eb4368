import ArgumentParser
import Foundation
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
        130 interrupted.
        """,
        subcommands: [
            PlayCommand.self, RenderCommand.self, ValidateCommand.self, ExportCommand.self,
            ShowCommand.self, ListCommand.self, DevicesCommand.self,
        ]
    )

    /// Runs the command; failures become one line on stderr and the exit code of ``CLIError``.
    static func main() {
        do {
            var command = try parseAsRoot(OptionalValues.normalize(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch let error as CLIError {
            FileHandle.standardError.write(Data("haptics: \(error.message)\n".utf8))
            Foundation.exit(error.code.rawValue)
        } catch {
            // ArgumentParser exits with EX_USAGE (64) on usage errors; the tool's contract is 2.
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
