import ArgumentParser
import Foundation
import Haptics

struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a pattern: envelopes, events, parameter curves and the drive signal.",
        discussion: """
        Writes an SVG picture with one time axis and, top to bottom: the intensity envelope \
        (the strongest sounding event through the intensity control and its envelope) with \
        the sharpness envelope dashed; each event (transients as stems, continuous events as \
        bars, coloured from warm for round to cool for crisp); one lane per dynamic parameter \
        the pattern uses; and the rendered drive signal for the profile.

        A .png output is converted with rsvg-convert (Debian: librsvg2-bin) when it is \
        installed. With -o - the SVG goes to standard output.

        Exit status: 0 written, 1 invalid pattern or unwritable output, 2 usage error.

        Examples:
          haptics plot success -o success.svg
          haptics plot heartbeat.ahap -o heartbeat.svg --profile lra --width 1600
          haptics plot boing.ahap -o boing.png
        """
    )

    @OptionGroup var input: PatternInput
    @OptionGroup(title: "Output") var profileOptions: ProfileOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The picture to write: .svg, .png, or - for SVG on standard output.", valueName: "file"))
    var output: String

    @Option(help: ArgumentHelp("Width in pixels, 300…8000.", valueName: "px"))
    var width = 1000

    func validate() throws {
        guard (300...8000).contains(width) else { throw ValidationError("--width must be between 300 and 8000") }
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard output == "-" || ext == "svg" || ext == "png" else {
            throw ValidationError("-o must end in .svg or .png (or be - for SVG on standard output), not '\(output)'")
        }
    }

    @OptionGroup var watching: WatchOptions

    func run() throws {
        removeUnfinishedFilesOnSignals()
        guard watching.watch else { return try runOnce() }
        try FileWatcher.repeatedly(watching: [input.watchedFile()]) { try runOnce() }
    }

    private func runOnce() throws {
        let loaded = try input.load()
        reportWarnings(loaded.diagnostics)
        let profile = try profileOptions.resolve()
        let title = loaded.name == "-" ? "standard input" : loaded.name
        let svg = Data(PatternPlot(pattern: loaded.pattern, profile: profile, title: title, width: width).svg.utf8)
        guard URL(fileURLWithPath: output).pathExtension.lowercased() == "png" else {
            try OutputFile.write(svg, to: output)
            return
        }
        try Self.writePNG(svg, to: output)
    }

    /// Converts through rsvg-convert, which draws SVG as browsers do.
    static func writePNG(_ svg: Data, to path: String) throws {
        let search = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let converter = search.map({ "\($0)/rsvg-convert" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CLIError.invalidInput("\(path): writing PNG needs rsvg-convert (Debian: apt-get install librsvg2-bin); write .svg instead")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: converter)
        process.arguments = ["--format", "png", "--background-color", "white"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let writer = Thread { try? input.fileHandleForWriting.write(contentsOf: svg); try? input.fileHandleForWriting.close() }
        writer.start()
        let png = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, !png.isEmpty else {
            throw CLIError.invalidInput("\(path): rsvg-convert failed (status \(process.terminationStatus))")
        }
        try OutputFile.write(png, to: path)
    }
}
