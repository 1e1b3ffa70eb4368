import Haptics

/// A command line the tool cannot run: printed as one line (see ``UsageErrorLine``), exit 2.
struct UsageError: Error {
    /// What is wrong, starting in lower case: `unknown option '--formt'`.
    var message: String
    /// The word the user probably meant, when one is near (`heavy` for `hevy`).
    var suggestion: String?

    init(_ message: String, suggestion: String? = nil) {
        self.message = message
        self.suggestion = suggestion
    }

    static func unknownOption(_ word: String, in command: CommandSpec) -> UsageError {
        let name = String(word.prefix { $0 != "=" })
        let names = command.options.flatMap(\.names) + ["--help", "--version", "-V"]
        guard let near = suggestion(for: name, among: names) else {
            return UsageError("unknown option '\(name)'")
        }
        return UsageError("unknown option '\(name)'. Did you mean '\(near)'?")
    }

    /// The option meant by an unknown one: the nearest long name (`--formt`); for a long name
    /// with one dash (`-device`) the long one; for a letter, the same letter in the other case
    /// (`-O`), else the only long option starting with it (`-p` for `--profile`).
    private static func suggestion(for name: String, among names: [String]) -> String? {
        let long = names.filter { $0.hasPrefix("--") }
        if name.hasPrefix("--") { return NameSuggestion.best(for: name, among: long) }
        let letters = name.dropFirst()
        if letters.count > 1 { return NameSuggestion.best(for: "--" + letters, among: long) }
        guard let letter = letters.first else { return nil }
        if let other = names.first(where: { $0.count == 2 && $0.lowercased() == name.lowercased() }) { return other }
        let starting = long.filter { $0.dropFirst(2).first?.lowercased() == letter.lowercased() && $0 != "--help" && $0 != "--version" }
        return starting.count == 1 ? starting[0] : nil
    }

    static func unexpected(_ words: [String]) -> UsageError {
        let quoted = words.map { "'\($0)'" }.joined(separator: ", ")
        return UsageError(words.count == 1 ? "unexpected argument \(quoted)" : "\(words.count) unexpected arguments: \(quoted)")
    }

    static func missing(_ spec: ArgumentSpec) -> UsageError {
        UsageError("missing expected argument '\(spec.synopsis)'")
    }

    static func missingValue(_ spec: ArgumentSpec) -> UsageError {
        UsageError("missing value for '\(spec.synopsis)'")
    }

    static func invalidValue(_ value: String, for spec: ArgumentSpec) -> UsageError {
        var message = "the value '\(value)' is invalid for '\(spec.synopsis)'"
        guard !spec.choices.isEmpty else { return UsageError(message) }
        let quoted = spec.choices.map { "'\($0)'" }
        let list = quoted.count == 1 ? quoted[0] : quoted.dropLast().joined(separator: ", ") + (quoted.count == 2 ? " and " : " or ") + quoted.last!
        message += ". Please provide one of \(list)"
        return UsageError(message, suggestion: NameSuggestion.best(for: value, among: spec.choices))
    }
}
