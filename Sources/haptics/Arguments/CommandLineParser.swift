/// Reads a command line against the declarations: no reflection, one pass over the words.
struct CommandLineParser {
    let root: CommandSpec

    /// What the words ask for.
    enum Request {
        /// Run the command with these arguments.
        case run(ParsedArguments)
        /// Print the help of the command (the root's when nil).
        case help(CommandSpec)
        case version
    }

    /// Parses the words after the program's name.
    func parse(_ words: [String]) throws(UsageError) -> Request {
        // Global options before the command (`haptics -q play x`) are read with the command's.
        let globals = GlobalOptions.leadingCount(in: words)
        if globals > 0, globals < words.count, let command = root.subcommand(named: words[globals]) {
            return try Self.parse(Array(words[..<globals] + words[(globals + 1)...]), for: command)
        }
        guard let first = words.first else { return .help(root) }
        switch first {
        case "-h", "--help": return .help(root)
        case "-V", "--version": return .version
        // `haptics -v` alone is the version, as `clang -v` and `gcc -v` print theirs; with a
        // command, `-v` is `--verbose`.
        case "-v" where words.count == 1: return .version
        case "help":
            // `haptics help play`; an unknown name gets the tool's help, as before.
            return .help(words.dropFirst().first.flatMap(root.subcommand(named:)) ?? root)
        default: break
        }
        guard let command = root.subcommand(named: first) else {
            if first.hasPrefix("-") { throw UsageError.unknownOption(first, in: root) }
            throw UsageError.unexpected(words)
        }
        return try Self.parse(Array(words.dropFirst()), for: command)
    }

    /// Parses a command's words (after its name): no other command's declarations are needed.
    static func parse(_ words: [String], for command: CommandSpec) throws(UsageError) -> Request {
        var parsed = ParsedArguments(command: command)
        var loose: [String] = []
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                loose.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            if word == "-h" || word == "--help" { return .help(command) }
            if word == "--version" || word == "-V" { return .version }
            let (name, attached) = Self.split(word)
            guard let spec = command.option(named: name) else { throw UsageError.unknownOption(word, in: command) }
            switch spec.kind {
            case .flag:
                if let attached { throw UsageError("'\(name)' takes no value, but was given '\(attached)'") }
                parsed.append("", for: spec.key)
            case .option:
                if let attached {
                    parsed.append(attached, for: spec.key)
                } else if let optional = spec.optionalValue {
                    if index < words.count, optional.isValue(words[index]) {
                        parsed.append(words[index], for: spec.key)
                        index += 1
                    } else {
                        parsed.append(optional.bare, for: spec.key)
                    }
                } else if index < words.count, spec.takesDashedValue || !words[index].hasPrefix("-") || words[index] == "-" {
                    parsed.append(words[index], for: spec.key)
                    index += 1
                } else {
                    throw UsageError.missingValue(spec)
                }
            case .positional:
                preconditionFailure("options are never positional")
            }
        }
        try Self.assign(loose, to: &parsed)
        try Self.check(parsed)
        return .run(parsed)
    }

    /// `--name=value` → ("--name", "value"); anything else → (word, nil).
    private static func split(_ word: String) -> (name: String, value: String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// Hands the loose words to the positionals in order; the last may take all that remain.
    private static func assign(_ loose: [String], to parsed: inout ParsedArguments) throws(UsageError) {
        var remaining = loose[...]
        for spec in parsed.command.positionals {
            if spec.isRepeating {
                for word in remaining { parsed.append(word, for: spec.key) }
                remaining = []
            } else if let word = remaining.popFirst() {
                parsed.append(word, for: spec.key)
            }
        }
        if !remaining.isEmpty { throw UsageError.unexpected(Array(remaining)) }
    }

    /// Required arguments present, fixed-choice values among their choices.
    private static func check(_ parsed: ParsedArguments) throws(UsageError) {
        for spec in parsed.command.arguments {
            let words = parsed.words(spec.key) ?? []
            if spec.isRequired && words.isEmpty { throw UsageError.missing(spec) }
            if !spec.choices.isEmpty, let bad = words.first(where: { !spec.choices.contains($0) }) {
                throw UsageError.invalidValue(bad, for: spec)
            }
        }
    }
}
