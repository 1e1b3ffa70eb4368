/// A command's man page, in man(7) macros, from the same declarations as its `--help`:
/// `haptics.1` for the tool, `haptics-play.1` and so on for its commands (named as git names
/// its own, so `man haptics-play` finds it), each with the tool's ENVIRONMENT, FILES and EXIT
/// STATUS sections.
struct ManualPage {
    let command: CommandSpec
    /// The words before the command's own: `haptics` for a subcommand.
    let parents: [String]
    let version: String

    /// `haptics-play.1`.
    var fileName: String { (parents + [command.name]).joined(separator: "-") + ".1" }

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
                    ".TP\n.B \(Self.escape(invocation + " " + sub.name))\n\(Self.escape(sub.abstract)) See \\fB\(Self.escape(title + "-" + sub.name))\\fR(1).\n"
            }
        }
        out += ".SH ENVIRONMENT\n"
        for (name, meaning) in Self.environment { out += ".TP\n.B \(Self.escape(name))\n\(Self.escape(meaning))\n" }
        out += ".SH FILES\n"
        for (path, meaning) in Self.files { out += ".TP\n.I \(Self.escape(path))\n\(Self.escape(meaning))\n" }
        out += ".SH EXIT STATUS\n"
        for (code, meaning) in Self.exitStatus { out += ".TP\n.B \(code)\n\(Self.escape(meaning))\n" }
        let related = parents.isEmpty ? command.subcommands.map { title + "-" + $0.name } : [parents.joined(separator: "-")]
        out += ".SH SEE ALSO\n" + related.map { "\\fB\(Self.escape($0))\\fR(1)" }.joined(separator: ", ") + "\n"
        out += ".PP\nThe README (patterns, profiles, settings, presets, formats): \\fI\(Self.escape(Self.readme))\\fR.\n"
        return out
    }

    /// The variables every command reads (a command that does not play or read presets ignores
    /// the device and settings ones).
    static let environment: [(String, String)] = [
        ("HAPTICS_DEVICE", "The output to play on when no --device is given: an ALSA name, pulse, null, or file:'/tmp/x.wav',wav."),
        ("HAPTICS_SETTINGS", "The user settings file to read instead of the usual one (see FILES)."),
        ("HAPTICS_DISABLED", "1 turns presets off (they play silence and say so), 0 on; files play as written."),
        ("HAPTICS_INTENSITY", "A number from 0 to 1 that replaces the settings' intensity for presets."),
        ("XDG_CONFIG_HOME", "Where the settings file is looked for (default ~/.config)."),
        ("XDG_CACHE_HOME", "Where play writes the WAV it renders when there is no output to play on: its haptics folder (default ~/.cache)."),
        ("NO_COLOR", "When set and not empty, diagnostics are not coloured (--color=always still colours them)."),
        ("PULSE_SERVER, XDG_RUNTIME_DIR", "Which PulseAudio or PipeWire server the pulse device and ALSA's default talk to."),
    ]

    /// Where the Debian package and `scripts/install.sh` put the README.
    static let readme = "/usr/share/doc/haptics/README.md (PREFIX/share/doc/haptics/README.md for an install from the source)"

    static let files: [(String, String)] = [
        (
            "$XDG_CONFIG_HOME/haptics/settings.json",
            "User settings: whether presets play, their intensity and per-category scale, the device and profile "
                + "(~/.config/haptics/settings.json when XDG_CONFIG_HOME is unset)."
        ),
        (
            "/usr/lib/udev/rules.d/70-haptics.rules",
            "The udev rule that lets the logged-in user open gamepads' force-feedback devices "
                + "(/etc/udev/rules.d or PREFIX/lib/udev/rules.d for an install from the source)."
        ),
        ("$XDG_CACHE_HOME/haptics/", "The WAV files play renders instead when there is no output, named after the pattern (~/.cache/haptics, mode 0700)."),
    ]

    static let exitStatus: [(Int, String)] = [
        (0, "Success (play: the pattern was played)."),
        (1, "Invalid input: a pattern, profile, settings or sound file that cannot be read; one line names the file, the place in it and the problem."),
        (2, "Usage error: an unknown command or option, a missing or invalid value."),
        (
            69,
            "Not played: the output device is unavailable (cannot be opened, or failed while playing), or play found no output at all "
                + "and rendered the pattern to a file instead (its path on standard output), so `haptics play x && next` runs next only when x was heard."
        ),
        (130, "Interrupted by SIGINT (Ctrl-C); the output was faded out and closed."),
        (143, "Terminated by SIGTERM; the output was faded out and closed."),
    ]

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
