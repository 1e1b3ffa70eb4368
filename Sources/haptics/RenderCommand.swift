import FoundationEssentials
import Glibc
import Haptics

struct RenderCommand: Command {
    static let name = "render"
    static let spec = CommandSpec(
        name: name,
        abstract: "Render a pattern offline to a WAV file (or the rumble motor timeline).",
        discussion: """
            The WAV holds the drive signal for the chosen actuator profile: what `haptics play \
            --haptics-only` would send to the device, sample for sample. Audio events \
            (AudioContinuous tones, AudioCustom sound files) are left out by default, since a \
            render is a drive signal for an actuator; --audio mixes them in as `haptics play` \
            plays them: on the profile's silent channels (dualsense: 1-2, its speaker), or added \
            to channels 1-2 of a mono-copied profile's output (summed on a mono output).

            With --rumble the output is the dual-motor timeline a gamepad would get: one row every \
            --interval-ms milliseconds, `time_ms,strong,weak` with 16-bit motor levels (strong = \
            heavy low-frequency motor, weak = light high-frequency motor).

            The output's format comes from its extension: .wav (the drive signal), .csv or .json \
            (the rumble motor timeline, as with --rumble), .ahap (the pattern as canonical AHAP, \
            as `haptics export` writes it); - and a name without an extension (/dev/null, a FIFO) \
            are a WAV (or the timeline with --rumble). Any other extension is an error naming these.

            --loop, --loop-end and --rate render what an advanced player with the same loop \
            count, loop end and playback rate plays, sample for sample. --channels copies the \
            drive signal to that many channels, as a device with that many channels gets it.

            With -o -, only the WAV (or timeline) goes to standard output; --stats and warnings go \
            to standard error. --stats --json prints the figures as one JSON object.

            Exit status: 0 written, 1 invalid pattern or profile, or the output cannot be written, \
            2 usage error.

            Examples:
              haptics render success -o success.wav
              haptics render explosion.ahap -o - --format f32 | sox -t wav - -n stat
              haptics render heartbeat.ahap -o hb.wav --profile lra --stats
              haptics render success -o success.wav --sample-rate 96000
              haptics render game.ahap -o game.wav --profile dualsense --audio
              haptics render success -o success.csv
              haptics render success --rumble --json -o -
              haptics render heartbeat.ahap -o hb.wav --loop 4 --loop-end 0.8 --rate 1.25
              haptics render success -o success.wav --channels 2 --stats --json
            """,
        arguments: PatternInput.arguments, ProfileOptions.arguments,
        [
            .option(
                "output", short: "o", valueName: "file", help: "Output file, or - for standard output.", required: true,
                completion: .files(extensions: ["wav", "csv", "json", "ahap"])),
            .option("sample-rate", valueName: "hz", help: "Sample rate in Hz, 8000…192000 (default: the profile's, 48000).", takesDashedValue: true),
            .option("format", choices: SampleFormat.self, valueName: "format", help: "Sample format: s16 (16-bit PCM) or f32 (32-bit float).", default: .s16),
            .flag(
                "stats",
                help:
                    "Print duration, the haptic signal's peak and RMS, the clipped-sample count, and with --audio the audio peak (on standard error when -o is -)."
            ),
            .flag("audio", help: "Mix audio events in (tones and sound files), as `play` plays them; by default the WAV is the haptic drive signal alone."),
            .flag("rumble", help: "Write the rumble motor timeline (CSV: time_ms,strong,weak) instead of a WAV."),
            .flag(
                "json",
                help:
                    "With --rumble, write JSON {hapticsVersion, intervalMs, frames: [{timeMs, strong, weak}]} instead of CSV; with --stats, print the figures as JSON."
            ),
            .option("interval-ms", valueName: "ms", help: "With --rumble, milliseconds between motor updates, 1…1000.", default: "10", takesDashedValue: true),
            .option(
                "loop", valueName: "n", help: "Play the pattern N times in a row, as `play --loop N` does (1…10000).", default: "1", takesDashedValue: true),
            .option("loop-end", valueName: "s", help: "Where each repetition wraps, in pattern seconds (default: the pattern's end).", takesDashedValue: true),
            .option(
                "rate", valueName: "r", help: "Playback speed, 0.001 to 100: 2 plays twice as fast (frequencies do not change).", default: "1.0",
                takesDashedValue: true),
            .option("channels", valueName: "n", help: "Output channels, 1…32: the drive signal on every one (default: the profile's).", takesDashedValue: true),
        ], WatchOptions.arguments
    )

    var input: PatternInput
    var profileOptions: ProfileOptions
    var output: String
    var sampleRate: Int?
    var format: SampleFormat
    var stats: Bool
    var audio: Bool
    var rumble: Bool
    var json: Bool
    var intervalMilliseconds: Int
    var loop: Int
    var loopEnd: Double
    var rate: Double
    var channels: Int?
    var watching: WatchOptions

    init(_ arguments: ParsedArguments) throws {
        input = try PatternInput(arguments)
        profileOptions = try ProfileOptions(arguments)
        output = arguments.required("output")
        sampleRate = try arguments.value("sample-rate")
        format = try arguments.value("format") ?? .s16
        stats = arguments.flag("stats")
        audio = arguments.flag("audio")
        rumble = arguments.flag("rumble")
        json = arguments.flag("json")
        intervalMilliseconds = try arguments.value("interval-ms") ?? 10
        loop = try arguments.value("loop") ?? 1
        loopEnd = try arguments.value("loop-end") ?? 0
        rate = try arguments.value("rate") ?? 1
        channels = try arguments.value("channels")
        watching = WatchOptions(arguments)
        try validate()
    }

    /// What `-o` asks for, from its extension.
    enum OutputKind { case wav, rumbleCSV, rumbleJSON, ahap }

    /// The output's kind: the extension decides; `-` is a WAV, or the timeline with --rumble.
    var outputKind: OutputKind {
        get throws {
            let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
            if output == "-" { return rumble ? (json ? .rumbleJSON : .rumbleCSV) : .wav }
            // With --rumble the timeline goes wherever -o says (a .wav or .ahap is refused in
            // validate); without it, the extension decides.
            if rumble && ext != "wav" && ext != "ahap" { return json || ext == "json" ? .rumbleJSON : .rumbleCSV }
            switch ext {
            // No extension: a WAV (`/dev/null`, a FIFO, a file named as the user likes).
            case "wav", "": return .wav
            case "csv": return .rumbleCSV
            case "json": return .rumbleJSON
            case "ahap": return .ahap
            default:
                throw UsageError(
                    "-o \(output): unknown output format; use .wav (drive signal), .csv or .json (rumble motor timeline), .ahap (canonical AHAP) or - (WAV on standard output)"
                )
            }
        }
    }

    func validate() throws {
        let kind = try outputKind
        let timeline = kind == .rumbleCSV || kind == .rumbleJSON
        if rumble && ["wav", "ahap"].contains(URL(fileURLWithPath: output).pathExtension.lowercased()) {
            throw UsageError("--rumble writes the motor timeline: use -o FILE.csv or FILE.json")
        }
        if json && !(timeline || stats) { throw UsageError("--json goes with --rumble or --stats (a WAV has no JSON form)") }
        if !timeline && intervalMilliseconds != 10 { throw UsageError("--interval-ms goes with --rumble") }
        guard (1...10_000).contains(loop) else { throw UsageError("--loop must be 1…10000") }
        guard loopEnd.isFinite, loopEnd >= 0 else { throw UsageError("--loop-end must be 0 or more seconds") }
        guard rate.isFinite, rate >= 0.001, rate <= 100 else { throw UsageError("--rate must be from 0.001 to 100") }
        if let channels, !(1...32).contains(channels) { throw UsageError("--channels must be 1…32") }
        if kind == .ahap && (loop != 1 || loopEnd != 0 || rate != 1 || channels != nil || audio || stats) {
            throw UsageError("-o .ahap writes the pattern itself; --loop, --loop-end, --rate, --channels, --audio and --stats go with a .wav")
        }
        if timeline && (loop != 1 || loopEnd != 0 || rate != 1 || channels != nil) {
            throw UsageError("--loop, --loop-end, --rate and --channels go with a .wav, not the rumble timeline")
        }
        if rumble && audio { throw UsageError("--audio does not go with --rumble (motors play haptics only)") }
        guard (1...1000).contains(intervalMilliseconds) else { throw UsageError("--interval-ms must be 1…1000") }
    }

    func run() throws {
        removeUnfinishedFilesOnSignals()
        try watching.run(input) { try runOnce() }
    }

    private func runOnce() throws {
        let loaded = try input.load()
        switch try outputKind {
        case .rumbleCSV, .rumbleJSON:
            reportWarnings(loaded, audioLeftOut: "(rumble motors play haptic events only)")
            try writeRumble(loaded)
            return
        case .ahap:
            reportWarnings(loaded.diagnostics)
            try OutputFile.write(AHAPEncoder().encode(loaded.pattern), to: output)
            return
        case .wav:
            break
        }
        var profile = try profileOptions.resolve()
        if let channels, channels != profile.channelCount {
            // As a device with another channel count gets a mono profile: the drive signal on
            // every channel.
            profile.channelCount = channels
            profile.hapticChannels = Array(0..<channels)
        }
        let rate = sampleRate ?? profile.sampleRate
        if let problem = profile.problem(withSampleRate: rate) {
            throw CLIError(message: "--sample-rate: \(problem)", code: .validationFailure)
        }
        reportWarnings(loaded, audioLeftOut: audio ? nil : "(add --audio to mix them in)")
        let renderer = HapticRenderer(
            pattern: loaded.pattern, profile: profile, sampleRate: rate, gain: profileOptions.gain,
            includingAudio: audio,
            playback: HapticRenderer.Playback(count: loop, loopEnd: loopEnd, rate: self.rate))
        writeVerboseNote(
            "rendering \(loaded.name == "-" ? "standard input" : loaded.name) for the '\(profile.name)' profile, \(rate) Hz, "
                + "\(profile.channelCount) channel\(profile.channelCount == 1 ? "" : "s"), \(format.rawValue), to \(output == "-" ? "standard output" : output)"
        )
        let progress = ProgressBar("rendering")
        reportSoundFileProblems(renderer.soundFileProblems, of: loaded)
        do {
            let total = Double(max(1, renderer.totalFrames))
            try renderer.writeWAV(to: output, format: format) { progress.update(Double($0) / total) }
            progress.finish()
        } catch {
            throw CLIError.invalidInput(error.description)
        }
        if stats && json {
            let s = renderer.statistics
            let figures = StatisticsReport(statistics: s, includesAudio: audio)
            let text = try JSONDocument.text(figures)
            if output == "-" { StandardError.write(text) } else { writeStandardOutput(text) }
        } else if stats {
            let s = renderer.statistics
            // A silent render (muted settings, zero gain) is -inf dBFS, not an invented floor.
            let level = s.peak > 0 ? (20 * log10(s.peak)).fixed(1) : "-inf"
            let text =
                "duration \(s.duration.fixed(3)) s, \(s.frames) frames at \(s.sampleRate) Hz, peak \(s.peak.fixed(4)) ("
                + level + " dBFS), RMS \(s.rms.fixed(4)), clipped samples \(s.clippedSamples)"
                + (audio ? ", audio peak \(s.audioPeak.fixed(4))" : "")
            if output == "-" { writeStandardError(text) } else { writeStandardOutput(text + "\n") }
        }
        if let warning = clippingWarning(clippedSamples: renderer.statistics.clippedSamples, of: renderer.statistics.frames) {
            writeStandardError(warning)
        }
        if renderer.droppedEvents > 0 {
            writeStandardError("haptics: warning: \(renderer.droppedEvents) events overlapped more than the synthesizer's voices and were left out")
        }
    }

    /// `render --stats --json`: the figures `--stats` prints, for scripts.
    struct StatisticsReport: Encodable {
        var duration: Double
        var frames: Int
        var sampleRate: Int
        var peak: Double
        var peakDBFS: Double?
        var rms: Double
        var clippedSamples: Int
        var droppedEvents: Int
        var audioPeak: Double?

        init(statistics s: RenderStatistics, includesAudio: Bool) {
            duration = s.duration
            frames = s.frames
            sampleRate = s.sampleRate
            peak = s.peak
            // null for silence: -inf has no JSON form.
            peakDBFS = s.peak > 0 ? 20 * log10(s.peak) : nil
            rms = s.rms
            clippedSamples = s.clippedSamples
            droppedEvents = s.droppedEvents
            audioPeak = includesAudio ? s.audioPeak : nil
        }
    }

    /// Writes the motor timeline as CSV or JSON.
    private func writeRumble(_ loaded: LoadedPattern) throws {
        let frames = RumbleRenderer.timeline(loaded.pattern, intervalMilliseconds: intervalMilliseconds, gain: profileOptions.gain)
        var text: String
        if try outputKind == .rumbleJSON {
            struct Timeline: Encodable {
                struct Frame: Encodable { var timeMs, strong, weak: Int }
                var intervalMs: Int
                var frames: [Frame]
            }
            text = try JSONDocument.text(
                Timeline(
                    intervalMs: intervalMilliseconds,
                    frames: frames.map { Timeline.Frame(timeMs: $0.timeMilliseconds, strong: Int($0.strong), weak: Int($0.weak)) }))
        } else {
            text = "time_ms,strong,weak\n"
            for frame in frames { text += "\(frame.timeMilliseconds),\(frame.strong),\(frame.weak)\n" }
        }
        try OutputFile.write(Data(text.utf8), to: output)
    }
}
