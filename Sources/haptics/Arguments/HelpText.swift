/// A command's `--help`: overview, synopsis, then its arguments by section, each with its
/// help wrapped beside it, in 79 columns (an 80-column terminal does not wrap them again).
struct HelpText {
    let command: CommandSpec
    /// The words before the command's own in the synopsis: `haptics` for a subcommand.
    let parents: [String]

    static let width = 79
    /// Where each argument's help starts.
    static let helpColumn = 26

    var text: String {
        var out = Self.wrap("OVERVIEW: " + command.abstract, width: Self.width) + "\n"
        if !command.discussion.isEmpty { out += "\n" + Self.paragraphs(command.discussion) + "\n" }
        out += "\nUSAGE: " + synopsis + "\n"
        for (title, rows) in sections where !rows.isEmpty {
            out += "\n\(title.uppercased()):\n"
            for row in rows { out += Self.row(label: row.label, help: row.help) }
        }
        if !command.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for sub in command.subcommands { out += Self.row(label: sub.name, help: sub.abstract) }
            out += "\n  See '\((parents + [command.name]).joined(separator: " ")) help <subcommand>' for detailed help.\n"
        }
        return out + "\n"
    }

    /// `haptics render [<options>] <pattern> --output <file>`.
    var synopsis: String {
        var words = parents + [command.name]
        if !command.subcommands.isEmpty { return (words + ["<subcommand>"]).joined(separator: " ") }
        if command.options.contains(where: { !$0.isRequired }) { words.append("[<options>]") }
        for spec in command.positionals { words.append(spec.isRequired ? spec.synopsis : "[\(spec.synopsis)]") }
        for spec in command.options where spec.isRequired { words.append(spec.synopsis) }
        return words.joined(separator: " ")
    }

    /// ARGUMENTS, the titled sections in the order first declared, then OPTIONS (with
    /// --version and --help last).
    private var sections: [(String, [(label: String, help: String)])] {
        var result: [(String, [(label: String, help: String)])] = [("Arguments", command.positionals.map { ("<\($0.valueName)>", Self.help(of: $0)) })]
        var titles: [String] = []
        for spec in command.options { if let title = spec.section, !titles.contains(title) { titles.append(title) } }
        for title in titles {
            result.append((title, command.options.filter { $0.section == title }.map { (Self.label(of: $0), Self.help(of: $0)) }))
        }
        var options = command.options.filter { $0.section == nil }.map { (label: Self.label(of: $0), help: Self.help(of: $0)) }
        options.append((label: "-V, --version", help: "Show the version."))
        options.append((label: "-h, --help", help: "Show help information."))
        result.append(("Options", options))
        return result
    }

    /// `-o, --output <file>`.
    static func label(of spec: ArgumentSpec) -> String {
        let names = spec.shortNames.map { $0 + ", " }.joined() + "--" + spec.key
        guard spec.kind != .flag else { return names }
        return spec.optionalValue == nil ? "\(names) <\(spec.valueName)>" : "\(names) [<\(spec.valueName)>]"
    }

    /// The help, then the choices and the default.
    static func help(of spec: ArgumentSpec) -> String {
        var notes: [String] = []
        if !spec.choices.isEmpty { notes.append("values: " + spec.choices.joined(separator: ", ")) }
        if let value = spec.defaultValue { notes.append("default: " + value) }
        return notes.isEmpty ? spec.help : spec.help + " (" + notes.joined(separator: "; ") + ")"
    }

    /// Two spaces, the label, the help from column 26 (on the next line if the label reaches it).
    static func row(label: String, help: String) -> String {
        let indent = String(repeating: " ", count: helpColumn)
        let lines = wrapLines(help, width: width - helpColumn)
        var out = "  " + label
        if label.count + 2 <= helpColumn - 2 {
            out += String(repeating: " ", count: helpColumn - 2 - label.count) + (lines.first ?? "") + "\n"
            for line in lines.dropFirst() { out += indent + line + "\n" }
        } else {
            out += "\n"
            for line in lines { out += indent + line + "\n" }
        }
        return out
    }

    /// Each line of `text` wrapped, except lines that start with a space (examples), which
    /// are kept as written.
    static func paragraphs(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.first == " " ? String(line) : wrap(String(line), width: width)
        }.joined(separator: "\n")
    }

    static func wrap(_ text: String, width: Int) -> String {
        wrapLines(text, width: width).joined(separator: "\n")
    }

    /// Greedy word wrap; a word longer than the width gets a line of its own.
    static func wrapLines(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
