/// A command of the tool: declared by its ``spec``, made from what the command line said,
/// then run.
protocol Command {
    /// The word that selects it; the tool builds only the selected command's ``spec``.
    static var name: String { get }
    static var spec: CommandSpec { get }
    /// Reads the arguments; a value out of range or a bad combination is a ``UsageError``.
    init(_ arguments: ParsedArguments) throws
    mutating func run() throws
}

extension Command {
    /// The command made from `words`, as if they followed its name on the command line.
    static func parse(_ words: [String]) throws -> Self {
        guard case .run(let parsed) = try CommandLineParser.parse(words, for: spec) else {
            throw UsageError("'\(spec.name)' was asked for its help or version instead of a run")
        }
        return try Self(parsed)
    }
}

/// How the process ends.
/// Thrown by a command that has printed its own report and only needs the status.
struct ExitCode: Error, Equatable, Sendable {
    var rawValue: Int32
    init(_ rawValue: Int32) { self.rawValue = rawValue }

    static let success = ExitCode(0)
    /// The input (a pattern, a profile, a settings file) is invalid.
    static let invalidInput = ExitCode(1)
    /// The command line asks for something the tool cannot do.
    static let validationFailure = ExitCode(2)
    /// The output device is missing, busy or refused.
    static let deviceUnavailable = ExitCode(69)
    /// Stopped by SIGINT or SIGTERM.
    static let interrupted = ExitCode(130)
}
