import FoundationEssentials
import Haptics

struct ExportCommand: Command {
    static let name = "export"
    static let spec = CommandSpec(
        name: name,
        abstract: "Write a pattern as canonical AHAP JSON.",
        discussion: """
            Loads PATTERN (a preset, an AHAP file or - for standard input) in lenient mode and \
            writes it as canonical AHAP: strict JSON, two-space indentation, keys in the order Core \
            Haptics exports them (Version, Metadata, Pattern; all events in the file's order, then \
            parameters, then curves; every event with Time, EventType, EventDuration and \
            EventParameters), numbers in their shortest exact form. What lenient mode fixed on the \
            way — trailing commas, unknown keys, out-of-range values, unsorted control points — \
            is reported on standard error as warnings and is gone from the output, so the result \
            passes `haptics validate --strict` unless it has curves of more than 16 points, \
            continuous events longer than 30 s or, for files, missing sound files.

            Exit status: 0 on success, 1 when the pattern is invalid or the output cannot be written.

            Examples:
              haptics export Boing.ahap > Boing.canonical.ahap
              haptics export success -o success.ahap
              haptics export Boing.ahap | haptics validate --strict -
            """,
        arguments: PatternInput.arguments,
        [
            .option(
                "output", short: "o", valueName: "file", help: "Where to write the AHAP file; - (the default) is standard output.",
                completion: .files(extensions: ["ahap", "json"]))
        ]
    )

    var input: PatternInput
    var output: String

    init(_ arguments: ParsedArguments) throws {
        input = try PatternInput(arguments)
        output = arguments.string("output") ?? "-"
    }

    func run() throws {
        removeUnfinishedFilesOnSignals()
        let loaded = try input.load()
        reportWarnings(loaded.diagnostics)
        try OutputFile.write(AHAPEncoder().encode(loaded.pattern), to: output)
    }
}
