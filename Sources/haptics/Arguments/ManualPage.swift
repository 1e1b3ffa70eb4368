/// A command's man page, in man(7) macros, from the same declarations as its `--help`:
/// `haptics.1` for the tool, `haptics.play.1` and so on for its commands.
struct ManualPage {
    let command: CommandSpec
    /// The words before the command's own: `haptics` for a subcommand.
    let parents: [String]
    let version: String

    /// `haptics.play.1`.
    var fileName: String { (parents + [command.name]).joined(separator: ".") + ".1" }

    var text: String {
        let title = (parents + [command.name]).joined(separator: "-")
        let invocation = (parents + [command.name]).joined(separator: " ")
        var out = ".TH \(Self.escape(title.uppercased())) 1 \"\" \"haptics \(Self.escape(version))\" \"User Commands\"\n"
        out += ".SH NAME\n\(Self.escape(title)) \\- \(Self.escape(command.abstract))\n"
        let synopsis = HelpText(command: command, parents: parents).synopsis.dropFirst(invocation.count)
        out += ".SH SYNOPSIS\n.B \(Self.escape(invocation))\n\(Self.escape(String(synopsis).trimmingLeadingSpaces))\n"
        if !command.discussion.isEmpty { out += ".SH DESCRIPTION\n" + Self.paragraphs(command.discussion) }
        if !command.positionals.isEmpty {
            out += ".SH ARGUMENTS\n"
            for spec in command.positionals { out += ".TP\n.I \(Self.escape("<\(spec.valueName)>"))\n\(Self.escape(HelpText.help(of: spec)))\n" }
        }
        if !command.options.isEmpty {
            out += ".SH OPTIONS\n"
            for spec in command.options { out += ".TP\n.B \(Self.escape(HelpText.label(of: spec)))\n\(Self.escape(HelpText.help(of: spec)))\n" }
        }
        if !command.subcommands.isEmpty {
            out += ".SH COMMANDS\n"
            for sub in command.subcommands {
                out +=
                    ".TP\n.B \(Self.escape(invocation + " " + sub.name))\n\(Self.escape(sub.abstract)) See \\fB\(Self.escape(invocation + "." + sub.name))\\fR(1).\n"
            }
        }
        if !parents.isEmpty { out += ".SH SEE ALSO\n.BR \(Self.escape(parents.joined(separator: "."))) (1)\n" }
        return out
    }

    /// Paragraphs as `.PP` blocks; indented lines (examples) unfilled, as written.
    private static func paragraphs(_ text: String) -> String {
        var out = ""
        var inExample = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.first == " " {
                if !inExample { out += ".PP\n.nf\n" }
                inExample = true
                out += escape(String(line)) + "\n"
            } else {
                if inExample { out += ".fi\n" }
                inExample = false
                if !line.isEmpty { out += ".PP\n" + escape(String(line)) + "\n" }
            }
        }
        if inExample { out += ".fi\n" }
        return out
    }

    /// Text safe in a man page: backslashes and hyphens escaped (so options copy and paste
    /// as typed), and a line starting with `.` or `'` not read as a request.
    static func escape(_ text: String) -> String {
        var escaped = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}

extension String {
    fileprivate var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
