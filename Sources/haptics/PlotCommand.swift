import ArgumentParser
import FoundationEssentials
import Glibc
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
        // posix_spawn and two pipes: Foundation's Process would link all of Foundation into
        // the tool (see `String(cFormat:)`).
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw CLIError.invalidInput("\(path): cannot start rsvg-convert") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        for descriptor in input + output { posix_spawn_file_actions_addclose(&actions, descriptor) }
        let arguments = [converter, "--format", "png", "--background-color", "white"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, converter, &actions, nil, &argv, environ)
        close(input[0])
        close(output[1])
        guard spawned == 0 else {
            close(input[1])
            close(output[0])
            throw CLIError.invalidInput("\(path): cannot start rsvg-convert (\(String(cString: strerror(spawned))))")
        }
        // Written from another thread: rsvg-convert may fill the output pipe before it has
        // read all of its input.
        let writeEnd = input[1]
        SystemThread.detachNewThread {
            svg.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(writeEnd, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0, errno == EINTR { continue }
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(writeEnd)
        }
        var png = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            png.append(contentsOf: chunk[0..<count])
        }
        close(output[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        guard exitStatus == 0, !png.isEmpty else {
            throw CLIError.invalidInput("\(path): rsvg-convert failed (status \(exitStatus))")
        }
        try OutputFile.write(png, to: path)
    }
}
