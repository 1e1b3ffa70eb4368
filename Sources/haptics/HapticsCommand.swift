import FoundationEssentials
import Glibc
import Haptics

@main
enum HapticsCommand {
    /// The commands, in the order the help lists them.
    static var commands: [any Command.Type] {
        [
            PlayCommand.self, RenderCommand.self, ValidateCommand.self, ExportCommand.self, ShowCommand.self, PlotCommand.self,
            ListCommand.self, DevicesCommand.self, DoctorCommand.self, ConvertCommand.self, AnalyzeCommand.self, DaemonCommand.self,
        ]
    }

    static let name = "haptics"
    static let spec = CommandSpec(
        name: name,
        abstract: "Author, render and play haptic patterns on Linux.",
        discussion: """
            A PATTERN argument is a preset name (success, impact, …; see `haptics list`), a path to \
            an .ahap or .json file, or - for standard input.

            Exit codes: 0 ok, 1 invalid input, 2 usage error, 69 output device unavailable (play: \
            not played), 130 interrupted, 143 terminated. Errors, warnings and notes are lines on \
            standard error; results on standard output. --json prints one JSON object (see the \
            README's JSON style). -V or --version prints the version; -v (--verbose) makes a command \
            say what it chose, and alone prints the version, as clang -v does.

            Shell completions: `haptics --generate-completion-script bash|zsh|fish` prints the \
            script to install (scripts/install.sh does).

            Examples:
              haptics play success
              haptics render success -o success.wav --stats
              haptics validate --strict my.ahap
              haptics show my.ahap
              haptics help play
            """,
        arguments: [],
        subcommands: commands.map { $0.spec })

    /// Runs the command; failures become one line on stderr and the exit code of ``CLIError``.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let special = arguments.first, special.hasPrefix("--") {
            if handleToolingRequest(special, Array(arguments.dropFirst())) { return }
        }
        GlobalOptions.apply(to: arguments)
        do {
            // A command's words need only its own declarations: the others are built for the
            // tool's help and for errors.
            let request =
                if let first = arguments.first, let command = commands.first(where: { $0.name == first }) {
                    try CommandLineParser.parse(Array(arguments.dropFirst()), for: command.spec)
                } else {
                    try CommandLineParser(root: spec).parse(arguments)
                }
            switch request {
            case .help(let command):
                writeStandardOutput(HelpText(command: command, parents: command.name == name ? [] : [name]).text)
            case .version:
                // With the name, as aplay, clang and rg print theirs.
                writeStandardOutput("\(name) \(HapticsVersion.current)\n")
            case .run(let parsed):
                guard let type = commands.first(where: { $0.name == parsed.command.name }) else { return }
                try NoClobber.check(parsed)
                var command = try type.init(parsed)
                try command.run()
            }
        } catch let error as UsageError {
            writeErrorLine(UsageErrorLine(arguments: arguments, error: error).text)
            Glibc.exit(ExitCode.validationFailure.rawValue)
        } catch let error as CLIError {
            writeErrorLine(error.line)
            Glibc.exit(error.code.rawValue)
        } catch let code as ExitCode {
            Glibc.exit(code.rawValue)
        } catch {
            writeErrorLine("haptics: \(error)")
            Glibc.exit(1)
        }
    }

    /// What installers and shells ask for rather than users: completion scripts, the
    /// completions themselves, the man pages. True when `first` was one of them.
    private static func handleToolingRequest(_ first: String, _ rest: [String]) -> Bool {
        switch first {
        case "--generate-completion-script":
            guard let name = rest.first, let shell = CompletionScript.Shell(rawValue: name) else {
                writeStandardError("haptics: --generate-completion-script takes bash, zsh or fish")
                Glibc.exit(ExitCode.validationFailure.rawValue)
            }
            writeStandardOutput(CompletionScript.script(for: shell))
        case "---complete":
            // `---complete -- WORDS… CURRENT`
            let words = Array(rest.drop { $0 == "--" })
            let candidates = Completer(root: spec).candidates(after: Array(words.dropLast()), current: words.last ?? "")
            writeStandardOutput(candidates.map { $0 + "\n" }.joined())
        case "---manual":
            // `---manual FOLDER`: haptics.1 and a page per command.
            guard let folder = rest.first else {
                writeStandardError("haptics: ---manual takes the folder to write the pages into")
                Glibc.exit(ExitCode.validationFailure.rawValue)
            }
            let pages =
                [ManualPage(command: spec, parents: [], version: HapticsVersion.current)]
                + spec.subcommands.map { ManualPage(command: $0, parents: [spec.name], version: HapticsVersion.current) }
            for page in pages {
                do {
                    try OutputFile.write(Data(page.text.utf8), to: folder + "/" + page.fileName)
                } catch {
                    writeStandardError(error.line)
                    Glibc.exit(error.code.rawValue)
                }
            }
        default:
            return false
        }
        return true
    }
}
