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

    init(_ arguments: ParsedArguments) throws {
        profile = arguments.string("profile") ?? "wideband"
        gain = try arguments.value("gain") ?? 1
    }

    func resolve() throws -> ActuatorProfile {
        guard gain.isFinite, (0...4).contains(gain) else { throw CLIError(message: "--gain must be between 0 and 4", code: .validationFailure) }
        do { return try ActuatorProfile.resolve(profile) } catch {
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
