import ArgumentParser
import Foundation
import Haptics

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
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

        With -o -, only the WAV (or timeline) goes to standard output; --stats and warnings go \
        to standard error.

        Exit status: 0 written, 1 invalid pattern or profile, or the output cannot be written, \
        2 usage error.

        Examples:
          haptics render success -o success.wav
          haptics render explosion.ahap -o - --format f32 | sox -t wav - -n stat
          haptics render heartbeat.ahap -o hb.wav --profile lra --stats
          haptics render success -o success.wav --sample-rate 96000
          haptics render game.ahap -o game.wav --profile dualsense --audio
          haptics render success --rumble -o success.csv
          haptics render success --rumble --json -o -
        """
    )

    @OptionGroup var input: PatternInput
    @OptionGroup(title: "Output") var profileOptions: ProfileOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file, or - for standard output.", valueName: "file"))
    var output: String

    @Option(name: .customLong("sample-rate"), parsing: .unconditional, help: ArgumentHelp("Sample rate in Hz, 8000…192000 (default: the profile's, 48000).", valueName: "hz"))
    var sampleRate: Int?

    @Option(help: "Sample format: s16 (16-bit PCM) or f32 (32-bit float).")
    var format: SampleFormat = .s16

    @Flag(help: "Print duration, the haptic signal's peak and RMS, the clipped-sample count, and with --audio the audio peak (on standard error when -o is -).")
    var stats = false

    @Flag(help: "Mix audio events in (tones and sound files), as `play` plays them; by default the WAV is the haptic drive signal alone.")
    var audio = false

    @Flag(help: "Write the rumble motor timeline (CSV: time_ms,strong,weak) instead of a WAV.")
    var rumble = false

    @Flag(help: "With --rumble, write a JSON array of {time_ms, strong, weak} instead of CSV.")
    var json = false

    @Option(name: .customLong("interval-ms"), parsing: .unconditional, help: ArgumentHelp("With --rumble, milliseconds between motor updates, 1…1000.", valueName: "ms"))
    var intervalMilliseconds: Int = 10

    func validate() throws {
        if json && !rumble { throw ValidationError("--json goes with --rumble (a WAV has no JSON form)") }
        if !rumble && intervalMilliseconds != 10 { throw ValidationError("--interval-ms goes with --rumble") }
        if rumble && audio { throw ValidationError("--audio does not go with --rumble (motors play haptics only)") }
        guard (1...1000).contains(intervalMilliseconds) else { throw ValidationError("--interval-ms must be 1…1000") }
    }

    @OptionGroup var watching: WatchOptions

    func run() throws {
        removeUnfinishedFilesOnSignals()
        guard watching.watch else { return try runOnce() }
        try FileWatcher.repeatedly(watching: [input.watchedFile()]) { try runOnce() }
    }

    private func runOnce() throws {
        let loaded = try input.load()
        if rumble {
            reportWarnings(loaded, audioLeftOut: "(rumble motors play haptic events only)")
            try writeRumble(loaded)
            return
        }
        let profile = try profileOptions.resolve()
        let rate = sampleRate ?? profile.sampleRate
        if let problem = profile.problem(withSampleRate: rate) {
            throw CLIError(message: "--sample-rate: \(problem)", code: .validationFailure)
        }
        reportWarnings(loaded, audioLeftOut: audio ? nil : "(add --audio to mix them in)")
        let renderer = HapticRenderer(pattern: loaded.pattern, profile: profile, sampleRate: rate, gain: profileOptions.gain,
                                      includingAudio: audio)
        reportSoundFileProblems(renderer.soundFileProblems, of: loaded)
        do {
            try renderer.writeWAV(to: output, format: format)
        } catch {
            throw CLIError.invalidInput(error.description)
        }
        if stats {
            let s = renderer.statistics
            // A silent render (muted settings, zero gain) is -inf dBFS, not an invented floor.
            let level = s.peak > 0 ? String(format: "%.1f", 20 * log10(s.peak)) : "-inf"
            let text = String(format: "duration %.3f s, %d frames at %d Hz, peak %.4f (", s.duration, s.frames, s.sampleRate, s.peak)
                + level + String(format: " dBFS), RMS %.4f, clipped samples %d", s.rms, s.clippedSamples)
                + (audio ? String(format: ", audio peak %.4f", s.audioPeak) : "")
            if output == "-" { writeStandardError(text) } else { writeStandardOutput(text + "\n") }
        }
        if let warning = clippingWarning(clippedSamples: renderer.statistics.clippedSamples, of: renderer.statistics.frames) {
            writeStandardError(warning)
        }
        if renderer.droppedEvents > 0 {
            writeStandardError("haptics: warning: \(renderer.droppedEvents) events overlapped more than the synthesizer's voices and were left out")
        }
    }

    /// Writes the motor timeline as CSV or JSON.
    private func writeRumble(_ loaded: LoadedPattern) throws {
        let frames = RumbleRenderer.timeline(loaded.pattern, intervalMilliseconds: intervalMilliseconds, gain: profileOptions.gain)
        var text: String
        if json {
            text = "[\n" + frames.map { "  {\"time_ms\": \($0.timeMilliseconds), \"strong\": \($0.strong), \"weak\": \($0.weak)}" }.joined(separator: ",\n") + "\n]\n"
        } else {
            text = "time_ms,strong,weak\n"
            for frame in frames { text += "\(frame.timeMilliseconds),\(frame.strong),\(frame.weak)\n" }
        }
        try OutputFile.write(Data(text.utf8), to: output)
    }
}
