import Glibc

/// Options every command takes, with the letters other tools' users already type: `-q` as
/// aplay and cargo, `-v` as aplay (verbose; `-V` is the version, as most tools have it),
/// `--color` as clang, cargo and rg. They say how diagnostics reach standard error, so they are
/// read before the command runs (and before a usage error is printed).
enum GlobalOptions {
    enum Color: String, ChoiceArgument {
        /// On a terminal, unless `NO_COLOR` is set (https://no-color.org) or `TERM` is `dumb`.
        case auto
        case always
        case never
    }

    static let arguments = ArgumentSpec.section(
        "Diagnostics",
        [
            .flag("quiet", short: "q", help: "Print no warnings, notes or progress on standard error; errors still print."),
            .flag(
                "verbose", short: "v",
                help:
                    "Say on standard error what was chosen, as aplay -v does (play: the output, its kind, profile, rate and buffer; render: the file, profile, rate and format)."
            ),
            .option(
                "color", choices: Color.self, valueName: "when",
                help: "Colour diagnostics: auto (on a terminal, unless NO_COLOR is set), always or never.", default: .auto),
        ])

    /// Words that are global options, at the start of a command line (`haptics -q play x`):
    /// how many of `words` from the start.
    static func leadingCount(in words: [String]) -> Int {
        var index = 0
        while index < words.count {
            let word = words[index]
            if Self.flags.contains(word) || word.hasPrefix("--color=") {
                index += 1
            } else if word == "--color", index + 1 < words.count {
                index += 2
            } else {
                break
            }
        }
        return index
    }

    /// The global options that take no value.
    private static let flags: Set<String> = ["-q", "--quiet", "-v", "--verbose"]

    /// Reads `--quiet`, `--verbose` and `--color` from the command line as typed (before `--`), so that
    /// even a usage error is shown as asked; the parser checks the words themselves.
    static func apply(to words: [String]) {
        var color = Color.auto
        var index = 0
        while index < words.count, words[index] != "--" {
            let word = words[index]
            if word == "-q" || word == "--quiet" {
                Diagnostics.isQuiet = true
            } else if word == "-v" || word == "--verbose" {
                Diagnostics.isVerbose = true
            } else if word.hasPrefix("--color=") {
                color = Color(rawValue: String(word.dropFirst("--color=".count))) ?? color
            } else if word == "--color", index + 1 < words.count {
                color = Color(rawValue: words[index + 1]) ?? color
                index += 1
            }
            index += 1
        }
        Diagnostics.isColored =
            switch color {
            case .always: true
            case .never: false
            case .auto:
                isatty(STDERR_FILENO) == 1 && (getenv("NO_COLOR").map { $0.pointee == 0 } ?? true)
                    && (getenv("TERM").map { String(cString: $0) != "dumb" } ?? false)
            }
    }
}

/// How the tool's lines on standard error look: which are left out (`--quiet`) and whether
/// they are coloured as clang colours its own (`file:line:column:` bold, `error:` red,
/// `warning:` magenta, `note:` cyan).
enum Diagnostics {
    // Set once by `GlobalOptions.apply` on the main thread before the command starts any other
    // thread; only read after that.
    nonisolated(unsafe) static var isQuiet = false
    nonisolated(unsafe) static var isColored = false
    /// `--verbose`: commands add notes saying what they chose (`writeVerboseNote`).
    nonisolated(unsafe) static var isVerbose = false

    enum Severity: String {
        case error, warning, note
    }

    /// The severity a line states (`file:3:7: warning: …`, `haptics: note: …`), if any.
    static func severity(of line: String) -> (Severity, Range<String.Index>)? {
        for severity in [Severity.error, .warning, .note] {
            if let range = line.firstRange(of: ": \(severity.rawValue): ") { return (severity, range) }
        }
        if line.hasPrefix("haptics: approximated: ") { return (.note, line.firstRange(of: ": approximated: ")!) }
        return nil
    }

    /// Whether `--quiet` leaves the line out: warnings, notes and progress, never errors.
    static func isSilenced(_ line: String) -> Bool {
        guard isQuiet, let (severity, _) = severity(of: line) else { return false }
        return severity != .error
    }

    /// The line with colours when they are on. `isError` marks the line a failing command ends
    /// with (`haptics: …`), whose tool name is then red as clang's `error:`.
    static func styled(_ line: String, isError: Bool = false) -> String {
        guard isColored else { return line }
        let bold = "\u{1B}[1m"
        let reset = "\u{1B}[0m"
        if let (severity, range) = severity(of: line) {
            let color =
                switch severity {
                case .error: "\u{1B}[1;31m"
                case .warning: "\u{1B}[1;35m"
                case .note: "\u{1B}[1;36m"
                }
            // ": warning: " → "warning:"
            let label = line[range].dropFirst(2).dropLast()
            let place = bold + line[..<range.lowerBound] + ":" + reset
            return place + " " + color + String(label) + reset + " " + String(line[range.upperBound...])
        }
        guard isError, let colon = line.firstIndex(of: ":") else { return line }
        let tool = "\u{1B}[1;31m" + line[..<colon] + ":" + reset
        return tool + String(line[line.index(after: colon)...])
    }
}
