import ArgumentParser
import FoundationEssentials
import Haptics
import HapticsFormats

struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Turn a sound into a haptic pattern (audio to haptics).",
        discussion: """
            Reads WAV, FLAC, Ogg or MP3 (through libsndfile; any rate, channels mixed to mono) and \
            writes a pattern that follows it: intensity from the sound's level (an RMS follower), \
            sharpness from its brightness (spectral centroid), taps at its onsets (spectral flux \
            over an adaptive threshold), the continuous part ducked under the taps, curves \
            simplified to a point budget. Every step's setting has an option below; the defaults \
            suit music and sound effects.

            The output format comes from its extension (.ahap, .haptic, or any `haptics convert` \
            writes). --play plays the result at once, as `haptics play` does; --plot draws it, as \
            `haptics plot` does. A progress bar is drawn on standard error when it is a terminal.

            Exit status: 0 written, 1 unreadable sound or output, 2 usage error, 69 (--play) \
            output device unavailable.

            Examples:
              haptics analyze explosion.wav -o explosion.ahap
              haptics analyze song.mp3 -o song.haptic --points-per-second 40
              haptics analyze footsteps.flac -o steps.ahap --onset-k 4 --play
              haptics analyze hit.ogg -o hit.ahap --plot hit.svg
            """
    )

    @Argument(help: ArgumentHelp("The sound: WAV, FLAC, Ogg or MP3.", valueName: "sound"))
    var sound: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file (.ahap, .haptic, …), or - for AHAP on standard output.", valueName: "out"))
    var output: String

    @Option(help: ArgumentHelp("Output format (default: from the extension).", valueName: "format"))
    var to: HapticFormat?

    @Option(name: .customLong("hop-ms"), parsing: .unconditional, help: ArgumentHelp("Analysis step (default 5).", valueName: "ms"))
    var hop: Double = 5
    @Option(
        name: .customLong("window-ms"), parsing: .unconditional,
        help: ArgumentHelp("FFT window, rounded up to a power of two samples (default 20).", valueName: "ms"))
    var window: Double = 20
    @Option(name: .customLong("attack-ms"), parsing: .unconditional, help: ArgumentHelp("Level follower attack (default 5).", valueName: "ms"))
    var attack: Double = 5
    @Option(name: .customLong("release-ms"), parsing: .unconditional, help: ArgumentHelp("Level follower release (default 80).", valueName: "ms"))
    var release: Double = 80
    @Option(
        name: .customLong("gate-db"), parsing: .unconditional,
        help: ArgumentHelp("Silence below this level relative to the loudest (default -50).", valueName: "dB"))
    var gate: Double = -50
    @Option(name: .customLong("centroid-low"), parsing: .unconditional, help: ArgumentHelp("Spectral centroid for sharpness 0 (default 150).", valueName: "Hz"))
    var centroidLow: Double = 150
    @Option(
        name: .customLong("centroid-high"), parsing: .unconditional, help: ArgumentHelp("Spectral centroid for sharpness 1 (default 6000).", valueName: "Hz"))
    var centroidHigh: Double = 6000
    @Option(name: .customLong("sharpness-smoothing-ms"), parsing: .unconditional, help: ArgumentHelp("Sharpness smoothing (default 20).", valueName: "ms"))
    var sharpnessSmoothing: Double = 20
    @Option(
        name: .customLong("onset-k"), parsing: .unconditional,
        help: ArgumentHelp("Onset threshold: median + k·MAD of the spectral flux (default 6).", valueName: "k"))
    var onsetK: Double = 6
    @Option(name: .customLong("onset-window-ms"), parsing: .unconditional, help: ArgumentHelp("Span of that median and MAD (default 300).", valueName: "ms"))
    var onsetWindow: Double = 300
    @Option(
        name: .customLong("onset-floor"), parsing: .unconditional,
        help: ArgumentHelp("Onsets need this fraction of the largest flux (default 0.03).", valueName: "0…1"))
    var onsetFloor: Double = 0.03
    @Option(name: .customLong("min-onset-gap-ms"), parsing: .unconditional, help: ArgumentHelp("Shortest time between onsets (default 40).", valueName: "ms"))
    var minimumOnsetGap: Double = 40
    @Option(parsing: .unconditional, help: ArgumentHelp("Lower the continuous part under taps by this much (default 0.5).", valueName: "0…1"))
    var duck: Double = 0.5
    @Option(name: .customLong("duck-ms"), parsing: .unconditional, help: ArgumentHelp("How long after each tap (default 50).", valueName: "ms"))
    var duckDuration: Double = 50
    @Option(
        name: .customLong("points-per-second"), parsing: .unconditional,
        help: ArgumentHelp("Curve point budget (default 20; sharpness gets half).", valueName: "n"))
    var pointsPerSecond: Double = 20
    @Flag(name: .customLong("no-transients"), help: "No taps: the continuous part only.")
    var noTransients = false
    @Flag(name: .customLong("no-continuous"), help: "Taps only.")
    var noContinuous = false

    @Flag(help: "Play the result at once (as `haptics play`).")
    var play = false
    @Option(help: ArgumentHelp("With --play: the ALSA device (see `haptics devices`).", valueName: "name"))
    var device: String?
    @Option(help: ArgumentHelp("With --play or --plot: the actuator profile.", valueName: "name|file"))
    var profile: String?

    @Option(help: ArgumentHelp("Also draw the result (as `haptics plot`): .svg, or .png (drawn with librsvg).", valueName: "file"))
    var plot: String?

    @Flag(help: "Fail instead of approximating when the output format cannot hold the pattern.")
    var strict = false

    var options: AnalysisOptions {
        var o = AnalysisOptions()
        o.hop = hop / 1000
        o.window = window / 1000
        o.attack = attack / 1000
        o.release = release / 1000
        o.gateDecibels = gate
        o.centroidLow = centroidLow
        o.centroidHigh = centroidHigh
        o.sharpnessSmoothing = sharpnessSmoothing / 1000
        o.onsetK = onsetK
        o.onsetWindow = onsetWindow / 1000
        o.onsetFloor = onsetFloor
        o.minimumOnsetGap = minimumOnsetGap / 1000
        o.duckDepth = duck
        o.duckDuration = duckDuration / 1000
        o.pointsPerSecond = pointsPerSecond
        o.transients = !noTransients
        o.continuous = !noContinuous
        return o
    }

    func validate() throws {
        if let problem = options.problem { throw ValidationError(problem) }
        if noTransients && noContinuous { throw ValidationError("--no-transients and --no-continuous together leave nothing") }
        if !play && device != nil { throw ValidationError("--device goes with --play") }
        if !play && plot == nil && profile != nil { throw ValidationError("--profile goes with --play or --plot") }
        if play && output == "-" { throw ValidationError("--play needs an output file (-o FILE)") }
        if let plot, !["svg", "png"].contains(URL(fileURLWithPath: plot).pathExtension.lowercased()) {
            throw ValidationError("--plot must end in .svg or .png, not '\(plot)'")
        }
    }

    func run() throws {
        guard let target = to ?? (output == "-" ? .ahap : HapticFormat(path: output)) else {
            throw CLIError(message: "\(output): cannot tell the output format from the extension; give --to", code: .validationFailure)
        }
        let bar = ProgressBar("analyzing")
        let audio: AudioFile
        do {
            audio = try AudioFile(contentsOf: sound) { bar.update($0 * 0.4) }
        } catch {
            bar.finish()
            throw CLIError.invalidInput(error.description)
        }
        let result = try AudioAnalyzer(options: options).analyze(audio) { bar.update(0.4 + 0.6 * $0) }
        bar.finish()
        guard !result.layers.transients.isEmpty || result.layers.hasContinuous else {
            throw CLIError.invalidInput("\(sound): the sound is silent (\(String(cFormat: "%.2f", audio.duration)) s with nothing to feel); no pattern written")
        }
        let stem = URL(fileURLWithPath: sound).deletingPathExtension().lastPathComponent
        let pattern = result.pattern(
            metadata: HapticPattern.Metadata(description: "Analysed from \(URL(fileURLWithPath: sound).lastPathComponent) by haptics analyze"))
        var notes = ConversionNotes()
        let data: Data
        do { data = try target.write(pattern, name: stem, notes: &notes) } catch { throw CLIError.invalidInput(error.description) }
        try ConvertCommand.report(notes, strict: strict)
        try OutputFile.write(data, to: output)
        if let plot {
            let profile: ActuatorProfile
            do { profile = try ActuatorProfile.resolve(self.profile ?? "wideband") } catch { throw CLIError.invalidInput(error.description) }
            let picture = PatternPlot(pattern: pattern, profile: profile, title: URL(fileURLWithPath: sound).lastPathComponent)
            if URL(fileURLWithPath: plot).pathExtension.lowercased() == "png" {
                try PlotCommand.writePNG(picture, to: plot)
            } else {
                try OutputFile.write(Data(picture.svg.utf8), to: plot)
            }
        }
        guard play else { return }
        // Play as `haptics play` does: the pattern from a temporary AHAP file.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haptics", isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(stem + ".analyzed.ahap").path
        try OutputFile.write(AHAPEncoder().encode(pattern), to: path)
        var arguments = [path]
        if let device { arguments += ["--device", device] }
        if let profile { arguments += ["--profile", profile] }
        let command = try PlayCommand.parse(arguments)
        try command.run()
    }
}
