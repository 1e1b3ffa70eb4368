import Haptics

/// A usage error as the tool's one line: `haptics: MESSAGE (did you mean 'x'?) (see 'haptics
/// play --help')`, with a hint when a pattern was given without a command.
struct UsageErrorLine {
    /// The command line, without the program name.
    var arguments: [String]
    var error: UsageError

    private static var commands: [String] { HapticsCommand.commands.map { $0.name } }

    var text: String {
        var line = "haptics: " + error.message
        if let near = error.suggestion ?? commandSuggestion { line += " (did you mean '\(near)'?)" }
        if let command = arguments.first, Self.commands.contains(command) {
            line += " (see 'haptics \(command) --help')"
        } else if let first = arguments.first, looksLikePattern(first) {
            line += " (to play it: haptics play \(first))"
        } else {
            line += " (see 'haptics --help')"
        }
        return line
    }

    /// The nearest command for an unknown first word where a command was expected (`plya`).
    private var commandSuggestion: String? {
        guard let first = arguments.first, !Self.commands.contains(first), !first.hasPrefix("-"), !looksLikePattern(first) else { return nil }
        return NameSuggestion.best(for: first, among: Self.commands)
    }

    /// A preset name or AHAP file given where a command was expected (`haptics success`).
    private func looksLikePattern(_ argument: String) -> Bool {
        PresetLibrary.info(named: argument) != nil || argument.hasSuffix(".ahap")
    }
}
