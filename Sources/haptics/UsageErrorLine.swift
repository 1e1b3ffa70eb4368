import Haptics

/// A usage error from the argument parser as the tool's one line: `haptics: MESSAGE (see
/// 'haptics play --help')`, with a hint when a pattern was given without a command.
struct UsageErrorLine {
    /// The command line, without the program name.
    var arguments: [String]
    /// The parser's message, without its usage synopsis.
    var message: String

    private static let commands = HapticsCommand.configuration.subcommands.compactMap { $0.configuration.commandName }

    /// The line, or nil when the parser has no message (a bare `haptics`, which gets the help).
    var text: String? {
        let flattened = message.split(whereSeparator: \.isNewline).joined(separator: "; ")
        guard !flattened.isEmpty else { return nil }
        var line = "haptics: " + Self.lowercasingFirstWord(flattened.hasSuffix(".") ? String(flattened.dropLast()) : flattened)
        if let near = suggestion(for: flattened) { line += " (did you mean '\(near)'?)" }
        if let command = arguments.first, Self.commands.contains(command) {
            line += " (see 'haptics \(command) --help')"
        } else if let first = arguments.first, looksLikePattern(first) {
            line += " (to play it: haptics play \(first))"
        } else {
            line += " (see 'haptics --help')"
        }
        return line
    }

    /// The nearest valid word for a misspelt command or option value, when the parser names
    /// the bad word and the valid ones: `haptics plya`, `--weight hevy`.
    private func suggestion(for message: String) -> String? {
        // "The value 'hevy' is invalid for '--weight <weight>'. Please provide one of 'light', 'medium' or 'heavy'"
        if message.hasPrefix("The value '"), let choices = message.firstRange(of: "Please provide one of ") {
            let bad = message.dropFirst("The value '".count).prefix { $0 != "'" }
            let valid = message[choices.upperBound...].split(separator: "'", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map {
                String($0.element)
            }
            return NameSuggestion.best(for: String(bad), among: valid)
        }
        // An unknown first word where a command was expected.
        if message.contains("unexpected argument"), let first = arguments.first, !first.hasPrefix("-"), !looksLikePattern(first) {
            return NameSuggestion.best(for: first, among: Self.commands)
        }
        return nil
    }

    /// A preset name or AHAP file given where a command was expected (`haptics success`).
    private func looksLikePattern(_ argument: String) -> Bool {
        PresetLibrary.info(named: argument) != nil || argument.hasSuffix(".ahap")
    }

    /// "Missing expected argument" reads as "missing expected argument" after `haptics:`, like
    /// the tool's own messages; a leading `--option` or quoted value is left alone.
    private static func lowercasingFirstWord(_ text: String) -> String {
        guard let first = text.first, first.isUppercase,
            let second = text.dropFirst().first, second.isLowercase
        else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
