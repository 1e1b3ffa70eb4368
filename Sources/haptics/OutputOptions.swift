import Glibc
import Haptics

/// `--profile` and `--gain`, shared by render and play.
struct ProfileOptions {
    // Numbers take the next word even when it starts with a dash, so `--gain -1` reports the
    // range instead of "missing value".
    static let arguments = ArgumentSpec.section(
        "Output",
        [
            .option(
                "profile", valueName: "name|file", help: "Actuator profile: wideband, lra, dualsense, shaker, or a JSON file (see README).",
                default: "wideband", completion: Completions.profile),
            .option("gain", valueName: "0…4", help: "Output gain, 0…4, multiplied with the profile's.", default: "1.0", takesDashedValue: true),
        ])

    var profile: String
    var gain: Double
    /// Whether `--profile` was given (`play` otherwise takes the settings' profile, as the
    /// library does).
    var isProfileGiven: Bool

    init(_ arguments: ParsedArguments) throws {
        profile = arguments.string("profile") ?? "wideband"
        isProfileGiven = arguments.string("profile") != nil
        gain = try arguments.value("gain") ?? 1
    }

    func resolve() throws -> ActuatorProfile {
        guard gain.isFinite, (0...4).contains(gain) else { throw CLIError(message: "--gain must be between 0 and 4", code: .validationFailure) }
        do { return try ProfileLookup.resolve(profile, environment: PlayOutput.environment) } catch {
            throw CLIError.invalidInput(error)
        }
    }
}

extension SampleFormat: ChoiceArgument {}

/// Prints decoder warnings, and, when audio events are left out (`render` without `--audio`,
/// `play --haptics-only`, rumble), a note saying so and how to include them.
func reportWarnings(_ loaded: LoadedPattern, audioLeftOut: String? = nil) {
    reportWarnings(loaded.diagnostics)
    let audio = loaded.pattern.counts.audioContinuous + loaded.pattern.counts.audioCustom
    if audio > 0, let audioLeftOut {
        writeStandardError("\(loaded.name): note: \(audio) audio event\(audio == 1 ? "" : "s") left out \(audioLeftOut)")
    }
}

/// Prints one warning line per sound file that could not be loaded (its events are silent).
/// A missing file the decoder already reported (it looks for them next to an AHAP file) is not
/// reported twice.
func reportSoundFileProblems(_ problems: [SoundFileError], of loaded: LoadedPattern) {
    for problem in problems {
        if problem.reason == .missing && loaded.isFile { continue }
        writeStandardError("\(loaded.name): warning: \(problem.description); its audio events are silent")
    }
}

/// Where `haptics play` plays: the library's choice (``HapticOutputSelection``: `--device`,
/// then `HAPTICS_DEVICE`, then the settings' `device` and `profile`, then the best haptic
/// actuator found), or `--rumble`; with no actuator, the speakers, so that a person hears it.
struct PlayOutput {
    /// The engine, not started.
    var engine: HapticEngine
    /// The profile audio outputs play with (and a render instead uses).
    var profile: ActuatorProfile
    /// Force feedback (rumble motors, a vibration motor) rather than audio.
    var isForceFeedback: Bool
    /// The device the user or the settings named, or discovery found: failing to open it exits
    /// 69. Nil for the speakers fallback, which renders to a file instead.
    var chosenDevice: String?
    /// Said once the pattern plays (the speakers fallback).
    var note: String?
    /// A haptic touchpad, which plays a stored click per onset and nothing continuous.
    var isTouchpad = false
    /// What `--verbose` says about the output: the device, why it was chosen, its kind.
    var summary = ""
    /// The device played on, as `play --json` names it.
    var device = ""

    /// The variables the choice reads, looked up one by one (copying the whole environment is
    /// a noticeable part of start-up).
    static var environment: [String: String] {
        var values: [String: String] = [:]
        let names = [
            HapticOutputSelection.deviceVariable, "HAPTICS_SETTINGS", "HAPTICS_DISABLED", "HAPTICS_INTENSITY", "XDG_CONFIG_HOME", "HOME",
            HapticSettings.systemRootVariable,
        ]
        for name in names {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }

    static func choose(
        device: String?, rumble: String?, profileOptions: ProfileOptions, latency: Duration, hapticsOnly: Bool
    ) throws -> PlayOutput {
        let given = try profileOptions.resolve()
        if let rumble {
            if device != nil { throw CLIError(message: "--device and --rumble choose different outputs; give one", code: .validationFailure) }
            let name: String? = rumble == OptionalValues.automatic ? nil : rumble
            let engine = HapticEngine(rumble: { try RumbleDevices.open(name, gain: 1) }, gain: profileOptions.gain)
            return PlayOutput(
                engine: engine, profile: given, isForceFeedback: true, chosenDevice: name ?? "rumble",
                summary: "rumble motors of \(name.map { "'\($0)'" } ?? "the first gamepad with force feedback") (--rumble), at 1 kHz",
                device: name ?? "rumble")
        }
        var selection: HapticOutputSelection
        var note: String?
        if let device {
            selection = HapticOutputSelection(device: device, profile: given)
        } else {
            // Settings-file problems are reported where presets read the settings; the
            // profile's own here.
            let environment = environment
            selection = HapticOutputSelection.resolve(environment: environment, settings: HapticSettings.load(environment: environment).settings)
            for problem in selection.problems { writeStandardError("haptics: warning: \(problem)") }
            if profileOptions.isProfileGiven { selection.profile = given }
            if selection.source == .systemDefault {
                selection.device = "default"
                note = "haptics: no haptic actuator found, so playing on the speakers (default) for you to hear it; `haptics devices` lists outputs"
            }
        }
        let engine = selection.makeEngine(latency: latency, gain: profileOptions.gain)
        if !selection.isForceFeedback { engine.playsHapticsOnly = hapticsOnly }
        let why = device != nil ? "--device" : note != nil ? "no haptic actuator found" : DefaultOutput.reason(selection.source)
        let kind = selection.output.map { ", \($0.kind.label)" } ?? ""
        let profile = selection.profile
        let format =
            selection.isForceFeedback
            ? "force feedback at 1 kHz"
            : "profile '\(profile.name)', \(profile.sampleRate) Hz, \(profile.channelCount) channel\(profile.channelCount == 1 ? "" : "s"), buffer \(latency.components.seconds * 1000 + latency.components.attoseconds / 1_000_000_000_000_000) ms"
        return PlayOutput(
            engine: engine, profile: selection.profile, isForceFeedback: selection.isForceFeedback,
            chosenDevice: note == nil ? selection.device : nil, note: note, isTouchpad: selection.output?.kind == .hapticTouchpad,
            summary: "'\(selection.device)' (\(why)\(kind)), \(format)", device: selection.device)
    }
}

/// `--no-clobber` (`-n`, as cp's and mv's): a command that writes files refuses, before any
/// work, to replace one that exists, so a sequence of commands cannot overwrite its own input.
/// Every command with an `--output` takes it (``CommandSpec``).
enum NoClobber {
    static let argument = ArgumentSpec.flag(
        "no-clobber", short: "n", help: "Do not replace an output file that exists: stop with an error before any work (as cp -n).")

    /// The options that name files a command writes.
    static let outputKeys = ["output", "plot"]

    static func check(_ parsed: ParsedArguments) throws(CLIError) {
        guard parsed.command.arguments.contains(where: { $0.key == argument.key }), parsed.flag(argument.key) else { return }
        for key in outputKeys where parsed.command.arguments.contains(where: { $0.key == key }) {
            if let path = parsed.string(key), path != "-", FileManager.default.fileExists(atPath: path) {
                throw CLIError.invalidInput("\(path): the file exists; not replaced (--no-clobber)")
            }
        }
    }
}
