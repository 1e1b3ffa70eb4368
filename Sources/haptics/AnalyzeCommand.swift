import FoundationEssentials
import Haptics
import HapticsFormats

struct AnalyzeCommand: Command {
    static let name = "analyze"
    static let spec = CommandSpec(
        name: name,
        abstract: "Turn a sound into a haptic pattern (audio to haptics).",
        discussion: """
            Reads WAV, FLAC, Ogg or MP3 (through libsndfile; 1,000 to 384,000 Hz, up to 64 channels \
            mixed to mono, up to 3,600 s, streamed in blocks) and \
            writes a pattern that follows it: intensity from the sound's level (an RMS follower), \
            sharpness from its brightness (spectral centroid), taps where its hits start (whitened \
            spectral flux over an adaptive threshold; a swell is followed, not tapped), the \
            continuous part ducked under the taps, taps lowered so the pattern never clips, \
            curves simplified to a point budget. Every step's setting has an option below; the defaults \
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
            """,
        arguments: [
            .positional("sound", help: "The sound: WAV, FLAC, Ogg or MP3.", completion: .files(extensions: Completions.soundExtensions)),
            .option(
                "output", short: "o", valueName: "out", help: "Output file (.ahap, .haptic, …), or - for AHAP on standard output.", required: true,
                completion: .files(extensions: ["ahap", "json", "haptic", "kt", "js", "csv"])),
            .option("to", choices: HapticFormat.self, valueName: "format", help: "Output format (default: from the extension)."),
            .option("hop-ms", valueName: "ms", help: "Analysis step (default 5).", takesDashedValue: true),
            .option("window-ms", valueName: "ms", help: "FFT window, rounded up to a power of two samples (default 20).", takesDashedValue: true),
            .option("attack-ms", valueName: "ms", help: "Level follower attack (default 5).", takesDashedValue: true),
            .option("release-ms", valueName: "ms", help: "Level follower release (default 80).", takesDashedValue: true),
            .option("gate-db", valueName: "dB", help: "Silence below this level relative to the loudest (default -50).", takesDashedValue: true),
            .option("centroid-low", valueName: "Hz", help: "Spectral centroid for sharpness 0 (default 150).", takesDashedValue: true),
            .option("centroid-high", valueName: "Hz", help: "Spectral centroid for sharpness 1 (default 6000).", takesDashedValue: true),
            .option("sharpness-smoothing-ms", valueName: "ms", help: "Sharpness smoothing (default 20).", takesDashedValue: true),
            .option("onset-k", valueName: "k", help: "Onset threshold: median + k·MAD of the whitened spectral flux (default 6).", takesDashedValue: true),
            .option("onset-window-ms", valueName: "ms", help: "Span of that median and MAD (default 300).", takesDashedValue: true),
            .option("onset-floor", valueName: "0…1", help: "Onsets need this fraction of the loudest level (default 0.03).", takesDashedValue: true),
            .option("min-onset-gap-ms", valueName: "ms", help: "Shortest time between onsets (default 40).", takesDashedValue: true),
            .option("duck", valueName: "0…1", help: "Lower the continuous part under taps by this much (default 0.5).", takesDashedValue: true),
            .option("duck-ms", valueName: "ms", help: "How long after each tap (default 50).", takesDashedValue: true),
            .option("points-per-second", valueName: "n", help: "Curve point budget (default 20; sharpness gets half).", takesDashedValue: true),
            .flag("no-transients", help: "No taps: the continuous part only."),
            .flag("no-continuous", help: "Taps only."),
            .flag("play", help: "Play the result at once (as `haptics play`)."),
            .option(
                "device", valueName: "name", help: "With --play: the playback device, as for `haptics play --device`.", completion: Completions.device),
            .option("profile", valueName: "name|file", help: "With --play or --plot: the actuator profile.", completion: Completions.profile),
            .option(
                "plot", valueName: "file", help: "Also draw the result (as `haptics plot`): .svg, or .png (drawn with librsvg).",
                completion: .files(extensions: ["svg", "png"])),
            .flag("strict", help: "Fail instead of approximating when the output format cannot hold the pattern."),
            .flag("json", help: "Print one JSON object on standard output: the sound's duration, the onsets found, the pattern's counts, approximations."),
        ]
    )

    var sound: String
    var output: String
    var to: HapticFormat?
    var hop: Double
    var window: Double
    var attack: Double
    var release: Double
    var gate: Double
    var centroidLow: Double
    var centroidHigh: Double
    var sharpnessSmoothing: Double
    var onsetK: Double
    var onsetWindow: Double
    var onsetFloor: Double
    var minimumOnsetGap: Double
    var duck: Double
    var duckDuration: Double
    var pointsPerSecond: Double
    var noTransients: Bool
    var noContinuous: Bool
    var play: Bool
    var device: String?
    var profile: String?
    var plot: String?
    var strict: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        sound = arguments.required("sound")
        output = arguments.required("output")
        to = try arguments.value("to")
        hop = try arguments.value("hop-ms") ?? 5
        window = try arguments.value("window-ms") ?? 20
        attack = try arguments.value("attack-ms") ?? 5
        release = try arguments.value("release-ms") ?? 80
        gate = try arguments.value("gate-db") ?? -50
        centroidLow = try arguments.value("centroid-low") ?? 150
        centroidHigh = try arguments.value("centroid-high") ?? 6000
        sharpnessSmoothing = try arguments.value("sharpness-smoothing-ms") ?? 20
        onsetK = try arguments.value("onset-k") ?? 6
        onsetWindow = try arguments.value("onset-window-ms") ?? 300
        onsetFloor = try arguments.value("onset-floor") ?? 0.03
        minimumOnsetGap = try arguments.value("min-onset-gap-ms") ?? 40
        duck = try arguments.value("duck") ?? 0.5
        duckDuration = try arguments.value("duck-ms") ?? 50
        pointsPerSecond = try arguments.value("points-per-second") ?? 20
        noTransients = arguments.flag("no-transients")
        noContinuous = arguments.flag("no-continuous")
        play = arguments.flag("play")
        device = arguments.string("device")
        profile = arguments.string("profile")
        plot = arguments.string("plot")
        strict = arguments.flag("strict")
        json = arguments.flag("json")
        try validate()
    }

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
        if let problem = options.problem { throw UsageError(problem) }
        if noTransients && noContinuous { throw UsageError("--no-transients and --no-continuous together leave nothing") }
        if !play && device != nil { throw UsageError("--device goes with --play") }
        if !play && plot == nil && profile != nil { throw UsageError("--profile goes with --play or --plot") }
        if json && output == "-" { throw UsageError("--json prints a report on standard output; give the pattern a file (-o FILE)") }
        if play && output == "-" { throw UsageError("--play needs an output file (-o FILE)") }
        if let plot, !["svg", "png"].contains(URL(fileURLWithPath: plot).pathExtension.lowercased()) {
            throw UsageError("--plot must end in .svg or .png, not '\(plot)'")
        }
    }

    func run() throws {
        guard let target = to ?? (output == "-" ? .ahap : HapticFormat(path: output)) else {
            throw CLIError(message: "\(output): cannot tell the output format from the extension; give --to", code: .validationFailure)
        }
        removeUnfinishedFilesOnSignals()
        let bar = ProgressBar("analyzing")
        let result: AudioAnalyzer.Result
        do {
            result = try AudioAnalyzer(options: options).analyze(contentsOf: sound) { bar.update($0) }
        } catch {
            bar.finish()
            throw CLIError.invalidInput(error.description)
        }
        bar.finish()
        guard !result.layers.transients.isEmpty || result.layers.hasContinuous else {
            throw CLIError.invalidInput("\(sound): the sound is silent (\(result.duration.fixed(2)) s with nothing to feel); no pattern written")
        }
        let stem = URL(fileURLWithPath: sound).deletingPathExtension().lastPathComponent
        let pattern = result.pattern(
            metadata: HapticPattern.Metadata(description: "Analysed from \(URL(fileURLWithPath: sound).lastPathComponent) by haptics analyze"))
        var notes = ConversionNotes()
        let data: Data
        do throws(FormatError) { data = try target.write(pattern, name: stem, notes: &notes) } catch { throw CLIError(error) }
        try ConvertCommand.report(notes, strict: strict, asLines: !json)
        try OutputFile.write(data, to: output)
        if json {
            try JSONDocument.print(
                Report(
                    sound: sound, output: output, to: target.rawValue, duration: result.duration, onsets: result.onsets,
                    counts: PatternSummary.Counts(pattern.counts), patternDuration: pattern.duration,
                    approximations: notes.notes.map(ConvertCommand.Approximation.init)))
        }
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
        // Play as `haptics play` does, the pattern handed over in memory: no temporary file
        // (in a shared folder, or left behind by a signal).
        var arguments = [output]
        if let device { arguments += ["--device", device] }
        if let profile { arguments += ["--profile", profile] }
        var command = try PlayCommand.parse(arguments)
        command.preloaded = LoadedPattern(pattern: pattern, diagnostics: [], name: output, isFile: false)
        try command.run()
    }
}

extension AnalyzeCommand {
    /// `analyze --json`: what was found in the sound and what was written.
    struct Report: Encodable {
        var sound: String
        var output: String
        /// The output format.
        var to: String
        /// The sound's length, in seconds.
        var duration: Double
        /// Where taps were found, in seconds.
        var onsets: [Double]
        var counts: PatternSummary.Counts
        var patternDuration: Double
        var approximations: [ConvertCommand.Approximation]
    }
}
