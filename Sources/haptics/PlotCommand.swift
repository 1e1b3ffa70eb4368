import FoundationEssentials
import Glibc
import Haptics

struct PlotCommand: Command {
    static let name = "plot"
    static let spec = CommandSpec(
        name: name,
        abstract: "Draw a pattern: envelopes, events, parameter curves and the drive signal.",
        discussion: """
            Writes an SVG picture with one time axis and, top to bottom: the intensity envelope \
            (the strongest sounding event through the intensity control and its envelope) with \
            the sharpness envelope dashed; each event (transients as stems, continuous events as \
            bars, coloured from warm for round to cool for crisp); one lane per dynamic parameter \
            the pattern uses; and the rendered drive signal for the profile.

            A .png output is drawn with librsvg (Debian: librsvg2-2) when it is \
            installed. With -o - the SVG goes to standard output.

            Exit status: 0 written, 1 invalid pattern or unwritable output, 2 usage error.

            Examples:
              haptics plot success -o success.svg
              haptics plot heartbeat.ahap -o heartbeat.svg --profile lra --width 1600
              haptics plot boing.ahap -o boing.png
            """,
        arguments: PatternInput.arguments, ProfileOptions.arguments,
        [
            .option(
                "output", short: "o", valueName: "file", help: "The picture to write: .svg, .png, or - for SVG on standard output.", required: true,
                completion: .files(extensions: ["svg", "png"])),
            .option("width", valueName: "px", help: "Width in pixels, 300…8000.", default: "1000"),
        ], WatchOptions.arguments
    )

    var input: PatternInput
    var profileOptions: ProfileOptions
    var output: String
    var width: Int
    var watching: WatchOptions

    init(_ arguments: ParsedArguments) throws {
        input = try PatternInput(arguments)
        profileOptions = try ProfileOptions(arguments)
        output = arguments.required("output")
        width = try arguments.value("width") ?? 1000
        watching = WatchOptions(arguments)
        try validate()
    }

    func validate() throws {
        guard (300...8000).contains(width) else { throw UsageError("--width must be between 300 and 8000") }
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard output == "-" || ext == "svg" || ext == "png" else {
            throw UsageError("-o must end in .svg or .png (or be - for SVG on standard output), not '\(output)'")
        }
    }

    func run() throws {
        removeUnfinishedFilesOnSignals()
        try watching.run(input) { try runOnce() }
    }

    private func runOnce() throws {
        let loaded = try input.load()
        reportWarnings(loaded.diagnostics)
        let profile = try profileOptions.resolve()
        let title = loaded.name == "-" ? "standard input" : loaded.name
        let plot = PatternPlot(pattern: loaded.pattern, profile: profile, title: title, width: width)
        guard URL(fileURLWithPath: output).pathExtension.lowercased() == "png" else {
            try OutputFile.write(Data(plot.svg.utf8), to: output)
            return
        }
        try Self.writePNG(plot, to: output)
    }

    /// Draws the SVG with librsvg, which draws SVG as browsers do.
    static func writePNG(_ plot: PatternPlot, to path: String) throws {
        let png: Data
        do {
            png = try SVGRasterizer.png(Data(plot.svg.utf8), width: plot.width, height: plot.height)
        } catch {
            throw CLIError.invalidInput("\(path): \(error.description)")
        }
        try OutputFile.write(png, to: path)
    }
}
