import FoundationEssentials
import Haptics
import HapticsCore
import HapticsFormats

extension HapticFormat: ChoiceArgument {}

struct ConvertCommand: Command {
    static let name = "convert"
    static let spec = CommandSpec(
        name: name,
        abstract: "Convert a pattern between AHAP and other platforms' formats.",
        discussion: """
            Formats come from the file extensions, or from --from and --to:
              .ahap, .json       ahap            Apple Core Haptics (read, write)
              .haptic            haptic          Meta/Lofelt clip v1 (read, write)
              .android.json      android-json    Android waveform, envelope, primitives (read, write)
              .kt                android-kotlin  the same as a Kotlin object (write)
              .web.json          web-json        navigator.vibrate and gamepad dual-rumble (read, write)
              .js                web-js          the same as a JavaScript module (write)
              .feedbackd.json    feedbackd       a feedbackd theme entry (write)
              .csv               rumble-csv      rumble motors, time_ms,strong,weak (write)

            IN is a preset name, a file, or - (AHAP on standard input). Whatever a format cannot \
            hold is approximated, and each kind of approximation is named on one line on standard \
            error; --strict makes them errors (exit 1, nothing written). Every input is read under \
            the AHAP limits (16 MiB, 64 levels of nesting, 100,000 elements, 3,600 s), and what \
            would not read back is not written.

            Exit status: 0 written, 1 invalid input, an approximation under --strict, or the \
            output cannot be written, 2 usage error.

            Examples:
              haptics convert Boing.ahap -o Boing.haptic
              haptics convert clip.haptic -o clip.ahap
              haptics convert success -o success.android.json
              haptics convert success -o Success.kt
              haptics convert heartbeat.ahap -o heartbeat.js
              haptics convert success -o success.feedbackd.json
              haptics convert --library -o haptics.feedbackd.json
            """,
        arguments: [
            .positional(
                "in", help: "A preset name, a file (.ahap, .haptic, .android.json, .web.json), or - for AHAP on standard input.", optional: true,
                completion: Completions.pattern),
            .option(
                "output", short: "o", valueName: "out", help: "Output file, or - for standard output.", required: true,
                completion: .files(extensions: ["ahap", "json", "haptic", "kt", "js", "csv"])),
            .option(
                "from", choices: HapticFormat.self, valueName: "format",
                help: "Input format: ahap, haptic, android-json, web-json (default: from the extension)."),
            .option(
                "to", choices: HapticFormat.self, valueName: "format",
                help: "Output format (default: from the extension): \(HapticFormat.allCases.map(\.rawValue).joined(separator: ", "))."),
            .flag("strict", help: "Fail (exit 1, nothing written) instead of approximating; AHAP input is read strictly too."),
            .flag("library", help: "With a feedbackd output: every preset of the library, as one theme."),
            .option("name", valueName: "name", help: "Name for generated code and the feedbackd event (default: the input's name)."),
            .flag("json", help: "Print one JSON object on standard output (input, output, formats, approximations) instead of the approximations' lines."),
        ], PresetOptions.arguments
    )

    var input: String?
    var output: String
    var from: HapticFormat?
    var to: HapticFormat?
    var strict: Bool
    var library: Bool
    var name: String?
    var json: Bool
    var preset: PresetOptions

    init(_ arguments: ParsedArguments) throws {
        input = arguments.string("in")
        output = arguments.required("output")
        from = try arguments.value("from")
        to = try arguments.value("to")
        strict = arguments.flag("strict")
        library = arguments.flag("library")
        name = arguments.string("name")
        json = arguments.flag("json")
        preset = try PresetOptions(arguments)
        try validate()
    }

    func validate() throws {
        if library && input != nil { throw UsageError("--library converts the preset library; give no input") }
        if !library && input == nil { throw UsageError("missing the input (a preset, a file or -)") }
        if json && output == "-" { throw UsageError("--json prints a report on standard output; give the converted pattern a file (-o FILE)") }
        if let from, !from.isReadable { throw UsageError("--from \(from.rawValue): an output format only (readable: ahap, haptic, android-json, web-json)") }
    }

    func run() throws {
        removeUnfinishedFilesOnSignals()
        guard let target = to ?? HapticFormat(path: output) else {
            throw CLIError(
                message:
                    "\(output): cannot tell the output format from the extension; give --to (\(HapticFormat.allCases.map(\.rawValue).joined(separator: ", ")))",
                code: .validationFailure)
        }
        var notes = ConversionNotes()
        let data: Data
        if library {
            guard target == .feedbackd else {
                throw CLIError(message: "--library writes a feedbackd theme; use --to feedbackd or a .feedbackd.json output", code: .validationFailure)
            }
            data = FeedbackdTheme.json(entries: FeedbackdTheme.presetLibrary(notes: &notes))
        } else {
            data = try ProgressBar.during("converting") {
                let (pattern, source) = try load(notes: &notes)
                let stem = name ?? (source == "-" ? "pattern" : source)
                do throws(FormatError) { return try target.write(pattern, name: stem, notes: &notes) } catch { throw CLIError(error) }
            }
        }
        try Self.report(notes, strict: strict, asLines: !json)
        try OutputFile.write(data, to: output)
        if json {
            try JSONDocument.print(
                Report(input: library ? nil : input ?? "-", output: output, to: target.rawValue, approximations: notes.notes.map(Approximation.init)))
        }
    }

    /// `convert --json`: what was converted, and each kind of approximation.
    struct Report: Encodable {
        /// Nil for `--library`.
        var input: String?
        var output: String
        /// The output format.
        var to: String
        var approximations: [Approximation]

        enum CodingKeys: String, CodingKey { case input, output, to, approximations }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(input, forKey: .input)
            try container.encode(output, forKey: .output)
            try container.encode(to, forKey: .to)
            try container.encode(approximations, forKey: .approximations)
        }
    }

    /// One kind of approximation: a stable `kind`, the message `convert` prints, how often.
    struct Approximation: Encodable {
        var kind: String
        var message: String
        var count: Int

        init(_ note: ConversionNotes.Note) {
            kind = note.kind
            message = note.message
            count = note.count
        }
    }

    /// Prints one line per kind of approximation (unless `asLines` is false: a JSON report
    /// carries them); under --strict, fails instead.
    static func report(_ notes: ConversionNotes, strict: Bool, asLines: Bool = true) throws {
        if strict, let first = notes.notes.first {
            let more = notes.notes.count > 1 ? " (and \(notes.notes.count - 1) more kind\(notes.notes.count == 2 ? "" : "s"))" : ""
            throw CLIError.invalidInput("--strict: the conversion would approximate: \(first.description)\(more)")
        }
        guard asLines else { return }
        for note in notes.notes { writeStandardError("haptics: approximated: \(note.description)") }
    }

    /// The input pattern, and its name.
    private func load(notes allNotes: inout ConversionNotes) throws -> (HapticPattern, String) {
        let input = input ?? "-"
        var format = from
        if format == nil, input != "-", FileManager.default.fileExists(atPath: input) {
            format = HapticFormat(path: input)
            if format == .ahap, input.lowercased().hasSuffix(".json") {
                format = Self.sniff(try Self.readFile(input)) ?? .ahap
            }
        }
        if let format, format != .ahap {
            guard format.isReadable else {
                throw CLIError.invalidInput("\(input): \(format.rawValue) is an output format only (readable: ahap, haptic, android-json, web-json)")
            }
            let data = input == "-" ? try readStandardInput() : try Self.readFile(input)
            var notes = ConversionNotes()
            do {
                let pattern = try format.read(data, source: input, notes: &notes)
                try Self.report(notes, strict: strict, asLines: false)  // reported with the writing's, below
                allNotes.merge(notes)
                return (pattern, input)
            } catch let error as FormatError {
                throw CLIError(error)
            }
        }
        let patternInput = PatternInput(pattern: input, preset: preset)
        let loaded = try patternInput.load(mode: strict ? .strict : .lenient)
        reportWarnings(loaded.diagnostics)
        return (loaded.pattern, loaded.name)
    }

    /// A file's bytes: a regular file of at most the 16 MiB input limit, read no further.
    static func readFile(_ path: String) throws(CLIError) -> Data {
        do {
            return Data(try JSONFile.readBytes(path: path, name: path, limit: AHAPLimits.default.maxInputBytes))
        } catch {
            throw CLIError.invalidInput(error.description)
        }
    }

    /// A `.json` file's format from its top-level keys.
    static func sniff(_ data: Data) -> HapticFormat? {
        guard let object = try? JSONOutput.parse(data, source: "") else { return nil }
        if object["signals"] != nil { return .haptic }
        if object["format"] as? String == "haptics-android" { return .androidJSON }
        if object["format"] as? String == "haptics-web" { return .webJSON }
        return nil
    }
}

extension CLIError {
    /// A conversion's problem: a problem at a place in the input starts with that place, as
    /// the profile and settings readers' do; any other is `haptics: message`.
    init(_ error: FormatError) {
        self.init(message: error.description, code: .invalidInput, isWholeLine: error.isLocated)
    }
}
