/// The candidates for the word being typed, which the shell scripts (``CompletionScript``)
/// ask for with `haptics ---complete -- WORDS… CURRENT`: all the logic is here, where it is
/// tested, rather than in three shells' languages.
struct Completer {
    let root: CommandSpec

    /// Candidates for `current`, given the words before it (without the program's name).
    func candidates(after words: [String], current: String) -> [String] {
        guard let first = words.first else {
            let names = current.hasPrefix("-") ? ["--help", "--version"] : root.subcommands.map(\.name) + ["help"]
            return names.filter { $0.hasPrefix(current) }
        }
        if first == "help" {
            return words.count == 1 ? root.subcommands.map(\.name).filter { $0.hasPrefix(current) } : []
        }
        guard let command = root.subcommand(named: first) else { return [] }
        let given = Array(words.dropFirst())

        // `--option=value`: the value, with its option in front.
        if current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
            let name = String(current[..<equals])
            guard let spec = command.option(named: name), spec.kind == .option else { return [] }
            return values(for: spec, prefix: String(current[current.index(after: equals)...])).map { name + "=" + $0 }
        }
        // The value of the option just before, unless that word is itself a value.
        let (positionalCount, awaitingValue) = Self.scan(given, in: command)
        // (An option whose value may be left out leaves the word to what comes next.)
        if let spec = awaitingValue, spec.optionalValue == nil {
            return values(for: spec, prefix: current)
        }
        if current.hasPrefix("-") {
            let used = Set(given)
            let names = command.options.filter { $0.isRepeating || $0.names.allSatisfy { !used.contains($0) } }.map { "--" + $0.key }
            return (names + ["--help"]).filter { $0.hasPrefix(current) }
        }
        let positionals = command.positionals
        guard let spec = positionalCount < positionals.count ? positionals[positionalCount] : positionals.last.flatMap({ $0.isRepeating ? $0 : nil })
        else { return [] }
        return values(for: spec, prefix: current)
    }

    /// Walks the words given: how many were positional, and the option whose value comes next.
    private static func scan(_ words: [String], in command: CommandSpec) -> (positionals: Int, awaitingValue: ArgumentSpec?) {
        var count = 0
        var awaiting: ArgumentSpec?
        for word in words {
            if let spec = awaiting, spec.optionalValue.map({ $0.isValue(word) }) ?? true {
                awaiting = nil
            } else if word == "-" || !word.hasPrefix("-") {
                count += 1
            } else if !word.contains("="), let spec = command.option(named: word), spec.kind == .option {
                awaiting = spec
                continue
            }
            awaiting = nil
        }
        return (count, awaiting)
    }

    private func values(for spec: ArgumentSpec, prefix: String) -> [String] {
        if !spec.choices.isEmpty { return spec.choices.filter { $0.hasPrefix(prefix) } }
        switch spec.completion {
        case .none: return []
        case .files(let extensions): return Completions.files(matching: prefix, extensions: Set(extensions))
        case .custom(let complete): return complete(prefix)
        }
    }
}
