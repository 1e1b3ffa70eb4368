import FoundationEssentials
import Glibc
import Haptics
import Synchronization
import HapticsSystem

/// Who writes the interrupted/terminated line, once: nobody yet, the orderly stop (writing, then
/// done) or the exit deadline. The deadline waits for a line the stop is writing: an `_exit`
/// between the stop's claim and its write lost the line when the stop ran at normal priority
/// under load and the deadline's thread (started by the signal watcher, which inherits the
/// start's real-time priority) preempted it.
private enum ExitLine {
    static let unclaimed = 0, stopWriting = 1, stopWrote = 2, deadline = 3
    static let state = Atomic<Int>(unclaimed)
}

struct PlayCommand: Command {
    static let name = "play"
    static let spec = CommandSpec(
        name: name,
        abstract: "Play a pattern in real time.",
        discussion: """
            Plays through ALSA (an actuator, a DualSense, a bass shaker, or headphones to preview). \
            Ctrl-C or SIGTERM fades the output out over 5 ms, lets the device play it, sets rumble \
            motors to zero and exits with 130 (SIGINT) or 143 (SIGTERM), within 100 ms even when \
            the sound server has frozen or gone away. A signal the shell set to be ignored (a \
            background job's Ctrl-C) stays ignored.

            Without --device, play uses the output the library would: HAPTICS_DEVICE, then the \
            settings file's device and profile, then the best haptic actuator found (a phone's \
            vibration motor, the DualSense's audio haptics, a gamepad's rumble: see `haptics \
            devices`). With none, it plays on the speakers (default) so you hear the pattern, and \
            says so in one line; when there is no audio output either (no sound card, no sound \
            server), the pattern is rendered to a WAV file instead, in the user's cache folder \
            ($XDG_CACHE_HOME/haptics or ~/.cache/haptics), and the command says where it went \
            and why, exiting 69: `haptics play x && next` runs next only when x was played. A \
            device that was named or found but is missing or busy exits with 69 too.

            Audio events (AudioContinuous tones, AudioCustom sound files, read relative to the \
            AHAP file's folder) play too, as in Core Haptics: on the profile's silent channels \
            (dualsense: 1-2, the controller's speaker), or added to channels 1-2 of a \
            mono-copied profile's output (summed on a mono output). --haptics-only leaves them \
            out; a sound file that is missing or unreadable is one warning, and its events are \
            silent.

            Presets follow the user's settings (HAPTICS_SETTINGS, HAPTICS_DISABLED, \
            HAPTICS_INTENSITY; see the README); files play as written.

            With --json, standard output is one JSON object (the README's JSON style) once the \
            pattern has played or been rendered instead: {"hapticsVersion", "pattern", "played", \
            "device", "profile", "duration", "clippedSamples", "renderedTo", "reason"} ("renderedTo" \
            and "reason" are null when it played).

            Exit status: 0 played, 1 invalid pattern or profile, 2 usage error, 69 not played: \
            the output device is unavailable, or there was none and the pattern was rendered to \
            a file instead, 130 interrupted (SIGINT), 143 terminated (SIGTERM).

            Examples:
              haptics play success
              haptics play impact --weight heavy --intensity 0.7
              haptics play heartbeat.ahap --device plughw:CARD=Device,DEV=0 --profile lra
              haptics play rumble.ahap --device hw:CARD=Controller --profile dualsense
              haptics play success --device null --loop 3 --rate 1.5
              haptics play - < pattern.ahap
              haptics play success --rumble
              haptics play explosion.ahap --rumble /dev/input/event17
            """,
        arguments: PatternInput.arguments, ProfileOptions.arguments,
        [
            .option(
                "device", valueName: "name",
                help:
                    "Playback device (see `haptics devices`): an ALSA name (default, hw:…, plughw:…, null, file:'out.wav',wav), pulse for the PulseAudio/PipeWire server through libpulse, or an evdev node (/dev/input/eventN) for force feedback.",
                completion: Completions.device),
            .option(
                "latency", choices: OutputLatency.self, valueName: "standard|low",
                help:
                    "Output buffer: standard (20 ms, the default) or low (10 ms in periods of at most 2.5 ms; on a busy machine it needs real-time priority: root, CAP_SYS_NICE or an rtprio limit)."
            ),
            .option("latency-ms", valueName: "ms", help: "Output buffer length in milliseconds, 2…2000, instead of --latency.", takesDashedValue: true),
            .option(
                "loop", valueName: "n", help: "Play the pattern N times in a row; forever with a bare --loop or 0 (stop with Ctrl-C).",
                optionalValue: OptionalValues.loopCount),
            .option(
                "rate", valueName: "r", help: "Playback speed, 0.001 to 100: 2 plays twice as fast (frequencies do not change).", default: "1.0",
                takesDashedValue: true),
            .flag("haptics-only", help: "Leave audio events out (the engine's playsHapticsOnly)."),
            .option(
                "rumble", valueName: "device",
                help:
                    "Play on a gamepad's rumble motors instead: the first capable device with a bare --rumble, or /dev/input/eventN, eventN, or --rumble=NAME (part of the device's name).",
                optionalValue: OptionalValues.rumbleDevice),
            .flag("json", help: "Print one JSON object on standard output when done: what played where, or where it was rendered instead."),
        ], WatchOptions.arguments
    )

    var input: PatternInput
    var profileOptions: ProfileOptions
    var device: String?
    var latency: OutputLatency?
    var latencyMilliseconds: Int?
    var loop: Int?
    var rate: Double
    var hapticsOnly: Bool
    var rumble: String?
    var watching: WatchOptions
    var json: Bool
    /// A pattern already in memory, played instead of reading ``input`` (`analyze --play`:
    /// no file is written for it).
    var preloaded: LoadedPattern?

    init(_ arguments: ParsedArguments) throws {
        input = try PatternInput(arguments)
        profileOptions = try ProfileOptions(arguments)
        device = arguments.string("device")
        latency = try arguments.value("latency")
        latencyMilliseconds = try arguments.value("latency-ms")
        loop = try arguments.value("loop")
        rate = try arguments.value("rate") ?? 1
        hapticsOnly = arguments.flag("haptics-only")
        rumble = arguments.string("rumble")
        watching = WatchOptions(arguments)
        json = arguments.flag("json")
        try validate()
    }

    /// The buffer length asked of the device.
    var bufferLength: Duration {
        if let latencyMilliseconds { return .milliseconds(latencyMilliseconds) }
        return latency == .low ? HapticEngine.Configuration.lowLatency : HapticEngine.Configuration.standardLatency
    }

    func validate() throws {
        if let latencyMilliseconds {
            guard (2...2000).contains(latencyMilliseconds) else { throw UsageError("--latency-ms must be between 2 and 2000") }
            guard latency == nil else { throw UsageError("--latency and --latency-ms both set the buffer; give one") }
        }
        guard rate.isFinite, rate >= 0.001, rate <= 100 else { throw UsageError("--rate must be from 0.001 to 100") }
        if json && watching.watch { throw UsageError("--json reports one play; it does not go with --watch") }
        if let loop, loop < 0 { throw UsageError("--loop takes a count of 1 or more (0 or no count: forever)") }
    }

    func run() throws {
        // Real-time priority until the first period is queued, where allowed (root, an
        // rtprio limit): on a busy machine the start then waits for no normal process. First,
        // so that the library's loading, started below, inherits it. Only for a small input:
        // a large file (or a pattern `analyze` made) is no touch's feedback, and reading it
        // ahead of every normal process would starve them.
        let boost = RealtimePriority.StartBoost(if: preloaded == nil && input.isSmall)
        // Before anything opens: a signal during start-up still ends with the fade and the
        // right exit status rather than killing the process with a device half-open.
        let interruption = SignalWatcher(signals: [SIGINT, SIGTERM])
        if rumble == nil { AudioDevice.prepare(device ?? "default") }
        guard watching.watch else {
            let done = SystemSemaphore(value: 0)
            interruption.onSignal {
                done.signal()
                Self.exitByDeadline(code: 128 + (interruption.signal ?? SIGINT))
            }
            return try playOnce(until: done, interruption: interruption, boost: boost)
        }
        // Each save stops what plays and plays the new version; a bad edit is reported and
        // the last good one is not played again until the file is fixed.
        let watcher = try FileWatcher(paths: [input.watchedFile()])
        while true {
            let done = SystemSemaphore(value: 0)
            let changed = SystemSemaphore(value: 0)
            interruption.onSignal {
                done.signal()
                Self.exitByDeadline(code: 128 + (interruption.signal ?? SIGINT))
            }
            SystemThread.detachNewThread {
                watcher.waitForChange()
                changed.signal()
                done.signal()
            }
            do {
                try playOnce(until: done, interruption: interruption, boost: boost)
            } catch let error as CLIError {
                writeStandardError(error.line)
            }
            writeStandardError("haptics: watching \(input.pattern) for changes (Ctrl-C to stop)")
            changed.wait()
        }
    }

    /// Plays the pattern until it completes or `done` is signalled (a signal, a change).
    /// `boost` ends once the player's start returned (a file rendered instead, the wait and
    /// what follows run at normal priority).
    private func playOnce(until done: SystemSemaphore, interruption: SignalWatcher, boost: RealtimePriority.StartBoost) throws {
        defer { boost.end() }
        let loaded = try preloaded ?? input.load()
        let output = try PlayOutput.choose(
            device: device, rumble: rumble, profileOptions: profileOptions, latency: bufferLength, hapticsOnly: hapticsOnly)
        let profile = output.profile
        reportWarnings(
            loaded,
            audioLeftOut: output.isForceFeedback
                ? "(rumble motors play haptic events only)"
                : hapticsOnly ? "(--haptics-only)" : nil)
        if output.isTouchpad, case let continuous = loaded.pattern.counts.continuous, continuous > 0 {
            writeStandardError(
                "\(loaded.name): note: \(continuous) continuous event\(continuous == 1 ? " is" : "s are") not representable on a haptic touchpad: each plays one click at its start"
            )
        }
        // The player is made (its pattern compiled) before the device opens, which its start
        // does (below): whatever the audio thread queues before the player's start is heard
        // first (a 20 ms buffer's worth of silence when compiling came in between).
        let engine = output.engine
        let player: HapticAdvancedPatternPlayer
        do {
            player = try engine.makeAdvancedPlayer(with: loaded.pattern)
            reportSoundFileProblems(player.soundFileProblems, of: loaded)
            player.completionHandler = { _ in done.signal() }
            engine.stoppedHandler = { _ in done.signal() }
            if rate != 1 { player.playbackRate = rate }
            if let loop {
                player.loopCount = loop
                player.loopEnabled = true
            }
        } catch {
            throw CLIError.invalidInput("\(loaded.name): \(error)")
        }
        // The player's start opens the device (an engine with auto-shutdown starts on a
        // player's request), so the first period written holds the pattern rather than the
        // silence an engine started first writes while the player's start is on its way:
        // heard a period sooner, about when a new `paplay` is.
        engine.isAutoShutdownEnabled = true
        do {
            defer { boost.end() }
            try player.start()
        } catch {
            switch error {
            case .output, .rumble:
                if output.isForceFeedback { throw CLIError.deviceUnavailable(error.description) }
                if output.chosenDevice != nil { throw CLIError.deviceUnavailable(error.description) }
                try renderInstead(loaded, profile: profile, because: error)
                // Not played: a script's `haptics play x && next` must not go on as if it had
                // been (69, as for a device that is missing). A watch goes on watching.
                if watching.watch { return }
                throw ExitCode.deviceUnavailable
            default:
                engine.stop()
                throw CLIError.invalidInput("\(loaded.name): \(error)")
            }
        }
        if let note = output.note { writeStandardError(note) }
        writeVerboseNote(
            "playing \(loaded.name == "-" ? "standard input" : loaded.name) on \(output.summary)"
                + (rate != 1 ? ", at \(rate)× speed" : "") + (loop.map { $0 == 0 ? ", looping until stopped" : ", \($0) times" } ?? ""))
        done.wait()
        let clipped = engine.clippedSamples
        let played = Int(engine.currentTime * Double(output.isForceFeedback ? 1000 : profile.sampleRate))
        engine.stop()
        if let warning = clippingWarning(clippedSamples: clipped, of: played) { writeStandardError(warning) }
        if let signal = interruption.signal {
            // The deadline got there first: it has written the line and is ending the process.
            guard ExitLine.state.compareExchange(expected: ExitLine.unclaimed, desired: ExitLine.stopWriting, ordering: .acquiringAndReleasing).exchanged
            else { while true { pause() } }
            // Written here, not by the caller: once the line is written, the deadline may
            // `_exit` at any moment, and unwinding to `main` under load has taken longer than that.
            writeErrorLine(signal == SIGTERM ? "haptics: terminated" : "haptics: interrupted")
            ExitLine.state.store(ExitLine.stopWrote, ordering: .releasing)
            throw ExitCode(128 + signal)
        }
        if let error = engine.outputError {
            throw CLIError.deviceUnavailable(error.description)
        }
        if json {
            try JSONDocument.print(
                Report(
                    pattern: loaded.name, played: true, device: output.device, profile: output.isForceFeedback ? nil : profile.name,
                    duration: loaded.pattern.duration, clippedSamples: clipped))
        }
    }

    /// `play --json`: what was played where, or where it was rendered instead.
    struct Report: Encodable {
        var pattern: String
        var played: Bool
        var device: String?
        var profile: String?
        /// The pattern's duration, in seconds (once, at speed 1).
        var duration: Double
        var clippedSamples: Int
        var renderedTo: String?
        /// Why it was not played.
        var reason: String?

        enum CodingKeys: String, CodingKey { case pattern, played, device, profile, duration, clippedSamples, renderedTo, reason }

        // Every key, null when it does not apply, so scripts can read each without checking.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pattern, forKey: .pattern)
            try container.encode(played, forKey: .played)
            try container.encode(device, forKey: .device)
            try container.encode(profile, forKey: .profile)
            try container.encode(duration, forKey: .duration)
            try container.encode(clippedSamples, forKey: .clippedSamples)
            try container.encode(renderedTo, forKey: .renderedTo)
            try container.encode(reason, forKey: .reason)
        }
    }

    /// Ends the process `deadline` after a signal if the orderly stop has not: a frozen or
    /// vanished sound server can block alsa-lib's drop, drain and close for good. The kernel
    /// then closes the devices (a rumble effect belongs to its file descriptor and stops with
    /// it); a file being written is never left half-done (files are renamed into place whole).
    private static func exitByDeadline(code: Int32, deadline: Duration = .milliseconds(70)) {
        let thread = SystemThread {
            let c = deadline.components
            SystemClock.sleep(nanoseconds: Int(c.seconds) * 1_000_000_000 + Int(c.attoseconds / 1_000_000_000))
            if ExitLine.state.compareExchange(expected: ExitLine.unclaimed, desired: ExitLine.deadline, ordering: .acquiringAndReleasing).exchanged {
                let line = code == 128 + SIGTERM ? "haptics: terminated\n" : "haptics: interrupted\n"
                _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            } else {
                // The stop is writing its line: a moment more (bounded: its stderr may block).
                for _ in 0..<100 where ExitLine.state.load(ordering: .acquiring) == ExitLine.stopWriting {
                    SystemClock.sleep(nanoseconds: 1_000_000)
                }
            }
            _exit(code)
        }
        thread.name = "haptics-deadline"
        thread.start()
    }

    /// No device to play on: render the pattern to a file so the user has something real.
    private func renderInstead(_ loaded: LoadedPattern, profile: ActuatorProfile, because reason: HapticError) throws {
        // The user's own cache folder, never a shared one such as /tmp: there another user
        // could have made the folder first, with this name linked to one of the user's files.
        let directory: String
        do { directory = try PrivateFolder.cache() } catch {
            throw CLIError.deviceUnavailable("no audio output (\(reason)), and rendering instead failed too: \(error)")
        }
        let stem = URL(fileURLWithPath: loaded.name).deletingPathExtension().lastPathComponent
        let path = directory + "/" + (stem == "-" ? "stdin" : stem) + ".wav"
        PrivateFolder.clear(path)
        let renderer = HapticRenderer(pattern: loaded.pattern, profile: profile, gain: profileOptions.gain, includingAudio: !hapticsOnly)
        reportSoundFileProblems(renderer.soundFileProblems, of: loaded)
        do {
            try renderer.writeWAV(to: path, format: .s16)
        } catch {
            throw CLIError.deviceUnavailable("no audio output (\(reason)), and rendering instead failed too: \(error)")
        }
        let s = renderer.statistics
        writeStandardError("haptics: no audio output to play on (\(reason)).")
        if let warning = clippingWarning(clippedSamples: s.clippedSamples, of: s.frames) { writeStandardError(warning) }
        if json {
            return try JSONDocument.print(
                Report(
                    pattern: loaded.name, played: false, device: nil, profile: profile.name, duration: loaded.pattern.duration,
                    clippedSamples: s.clippedSamples, renderedTo: path, reason: "no audio output to play on (\(reason))"))
        }
        writeStandardOutput(
            """
            Rendered \(loaded.name == "-" ? "standard input" : loaded.name) for the '\(profile.name)' profile instead: \(path)
              \(s.duration.fixed(3)) s, \(s.sampleRate) Hz, peak \(s.peak.fixed(2)), RMS \(s.rms.fixed(3)), \(loaded.pattern.counts.events) event\(loaded.pattern.counts.events == 1 ? "" : "s")
            \(Sparkline.envelope(of: loaded.pattern, profile: profile))
            Choose a device with --device (see `haptics devices`), or play the file on a machine with an actuator.

            """)
    }
}

/// `--latency`: the engine's buffer presets.
enum OutputLatency: String, ChoiceArgument {
    case standard, low
}
