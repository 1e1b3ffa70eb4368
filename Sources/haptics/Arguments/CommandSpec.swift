/// A command of the tool: its name, what it does, what it accepts.
struct CommandSpec: Sendable {
    /// The word that selects it (`play`); the tool's name for the root.
    var name: String
    /// One line: what it does.
    var abstract: String
    /// The rest of its help: paragraphs, which are wrapped, and indented lines (examples),
    /// which are kept as written.
    var discussion: String
    var arguments: [ArgumentSpec]
    /// The commands under it (the root's).
    var subcommands: [CommandSpec]

    /// `arguments` in groups (a command's own and the option groups it shares with others),
    /// listed in that order; a command that writes an `--output` also takes `--no-clobber`, and
    /// a command (one without subcommands) the global options (`--quiet`, `--color`), listed last.
    init(name: String, abstract: String, discussion: String, arguments: [ArgumentSpec]..., subcommands: [CommandSpec] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        let own = arguments.flatMap { $0 }
        let writesFiles = own.contains { $0.key == "output" }
        self.arguments = own + (writesFiles ? [NoClobber.argument] : []) + (subcommands.isEmpty ? GlobalOptions.arguments : [])
        self.subcommands = subcommands
    }

    /// The options, in the order declared.
    var options: [ArgumentSpec] { arguments.filter { $0.kind != .positional } }
    /// The positional arguments, in their order on the command line.
    var positionals: [ArgumentSpec] { arguments.filter { $0.kind == .positional } }

    /// The declaration of `--name` or `-n`.
    func option(named word: String) -> ArgumentSpec? {
        options.first { $0.names.contains(word) }
    }

    /// The subcommand called `name`.
    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}
