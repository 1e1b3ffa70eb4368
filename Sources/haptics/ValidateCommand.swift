import FoundationEssentials
import Glibc
import Haptics

struct ValidateCommand: Command {
    static let name = "validate"
    static let spec = CommandSpec(
        name: name,
        abstract: "Check AHAP files and report every problem with its location.",
        discussion: """
            Each FILE is checked as Core Haptics would load it. Every problem is printed on one \
            line on standard error, in line order, as compilers print theirs (editors and CI \
            annotate the line):

              FILE:LINE:COLUMN: SEVERITY: MESSAGE (did you mean 'KEY'?) [LOCATION]

            where LOCATION is a JSON path such as Pattern[3].Event.EventParameters[1].ParameterValue \
            (a problem with the file as a whole, such as a missing file, has no line and column). \
            A summary line per file follows, on standard output: "FILE: valid", "FILE: valid (2 \
            warnings)" or "FILE: invalid (3 errors, 1 warning)". --quiet leaves the warnings out.

            Lenient mode (the default) accepts what Core Haptics accepts and warns about the \
            questionable parts: trailing commas, unknown or misspelled keys, out-of-range values \
            (clamped), unknown parameter IDs (skipped), unsorted control points (sorted), curves \
            with more than 16 points, continuous events longer than 30 s, Version outside \
            1.0...1.1, AudioCustom sound files that are missing. --strict makes every warning an \
            error. Always errors: input that is not JSON, no Pattern array, an empty pattern, a \
            missing or negative time, a negative duration, an unknown event type, a parameter \
            without ID or value, a value of the wrong JSON type, NaN or infinite numbers, and \
            anything beyond the limits: 16 MiB of input, 64 levels of nesting, 100000 elements in \
            one array, 1000000 JSON values, 1024 points in one curve, 3600 s of pattern.

            A FILE of - reads standard input (sound files are then not looked for).

            Exit status: 0 when every file is valid, 1 when any is not, 2 on a usage error.

            With --json, standard output is one JSON object (the README's JSON style) with an \
            object per file, in argument order, and nothing goes to standard error:

              {"hapticsVersion": "0.4.0", "valid": false,
               "files": [{"file": "a.ahap", "valid": false, "errorCount": 1, "warningCount": 0,
                          "errors": [{"severity": "error", "location": "Pattern[0].Event.Time",
                                      "line": 14, "column": 17, "message": "negative time -1; ...",
                                      "suggestion": null}],
                          "warnings": [ ...objects of the same shape... ]}]}

            "line" and "column" (1-based) are null when unknown, "suggestion" is null unless a \
            near-miss key or name was found; "location" is "" for the whole file. At most 100 \
            errors and 100 warnings are listed per file, each list then ending with an entry \
            such as "5000 more warnings not shown"; the counts include every problem found.

            Examples:
              haptics validate Boing.ahap
              haptics validate --strict Patterns/*.ahap
              haptics export impact | haptics validate --strict -
              haptics validate --json *.ahap | jq -r '.files[] | select(.valid | not) | .file'
            """,
        arguments: [
            .positional("file", help: "AHAP files to check; - reads standard input.", repeating: true, completion: .files(extensions: ["ahap", "json"])),
            .flag("strict", help: "Treat every warning as an error."),
            .flag("json", help: "Print one JSON report on standard output instead of lines."),
        ], WatchOptions.arguments
    )

    var files: [String]
    var strict: Bool
    var json: Bool
    var watching: WatchOptions

    init(_ arguments: ParsedArguments) throws {
        files = arguments.strings("file")
        strict = arguments.flag("strict")
        json = arguments.flag("json")
        watching = WatchOptions(arguments)
    }

    func run() throws {
        guard watching.watch else { return try runOnce() }
        guard !files.contains("-") else { throw CLIError(message: "--watch follows files; standard input cannot be watched", code: .validationFailure) }
        try FileWatcher.repeatedly(watching: files) { try runOnce() }
    }

    private func runOnce() throws {
        let decoder = AHAPDecoder(mode: strict ? .strict : .lenient)
        let reports = files.map { check($0, with: decoder) }
        if json {
            struct Report: Encodable {
                var valid: Bool
                var files: [FileReport]
            }
            try JSONDocument.print(Report(valid: reports.allSatisfy(\.valid), files: reports))
        } else {
            // The problems on standard error, as every command prints them (and compilers do);
            // the verdicts, the command's result, on standard output.
            for report in reports {
                for diagnostic in report.diagnostics.inLineOrder { writeStandardError(diagnostic.description) }
                writeStandardOutput(report.summary + "\n")
            }
        }
        if reports.contains(where: { !$0.valid }) {
            throw ExitCode.invalidInput
        }
    }

    /// What decoding one file found.
    private func check(_ file: String, with decoder: AHAPDecoder) -> FileReport {
        do {
            let document =
                file == "-"
                ? try decoder.decode(fileDescriptor: STDIN_FILENO, source: "-")
                : try decoder.decode(contentsOfFile: file)
            return FileReport(file: file, diagnostics: document.diagnostics, errorCount: 0, warningCount: document.warningCount)
        } catch {
            return FileReport(file: file, diagnostics: error.diagnostics, errorCount: error.errorCount, warningCount: error.warningCount)
        }
    }
}

/// The outcome of checking one file, as printed and as encoded by `--json`.
private struct FileReport: Encodable {
    var file: String
    /// The problems listed, errors first; very many are cut short with a line counting the rest.
    var diagnostics: [AHAPDiagnostic]
    /// Every error found, listed or not.
    var errorCount: Int
    /// Every warning found, listed or not.
    var warningCount: Int

    var errors: [AHAPDiagnostic] { diagnostics.inLineOrder.filter { $0.severity == .error } }
    var warnings: [AHAPDiagnostic] { diagnostics.inLineOrder.filter { $0.severity == .warning } }
    var valid: Bool { errorCount == 0 }

    var summary: String {
        var counts: [String] = []
        if errorCount > 0 { counts.append(Self.count(errorCount, "error")) }
        if warningCount > 0 { counts.append(Self.count(warningCount, "warning")) }
        let detail = counts.isEmpty ? "" : " (\(counts.joined(separator: ", ")))"
        return "\(file): \(valid ? "valid" : "invalid")\(detail)"
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    enum CodingKeys: String, CodingKey { case file, valid, errorCount, warningCount, errors, warnings }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(valid, forKey: .valid)
        try container.encode(errorCount, forKey: .errorCount)
        try container.encode(warningCount, forKey: .warningCount)
        try container.encode(errors.map(DiagnosticRecord.init), forKey: .errors)
        try container.encode(warnings.map(DiagnosticRecord.init), forKey: .warnings)
    }
}

/// One diagnostic in `--json` output; absent values are written as null so every object has
/// every key.
private struct DiagnosticRecord: Encodable {
    var diagnostic: AHAPDiagnostic

    enum CodingKeys: String, CodingKey { case severity, location, line, column, message, suggestion }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(diagnostic.severity.rawValue, forKey: .severity)
        try container.encode(diagnostic.location, forKey: .location)
        try container.encode(diagnostic.line, forKey: .line)
        try container.encode(diagnostic.column, forKey: .column)
        try container.encode(diagnostic.message, forKey: .message)
        try container.encode(diagnostic.suggestion, forKey: .suggestion)
    }
}
