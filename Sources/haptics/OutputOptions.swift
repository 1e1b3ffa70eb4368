import ArgumentParser
import Haptics

/// `--profile` and `--gain`, shared by render and play.
struct ProfileOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Actuator profile: wideband, lra, dualsense, shaker, or a JSON file (see README).",
        valueName: "name|file"), completion: Completions.profile)
    var profile: String = "wideband"

    // Numbers take the next token even when it starts with a dash, so `--gain -1` reports the
    // range instead of "missing value".
    @Option(parsing: .unconditional, help: ArgumentHelp("Output gain, 0…4, multiplied with the profile's.", valueName: "0…4"))
    var gain: Double = 1

    func resolve() throws -> ActuatorProfile {
        guard gain.isFinite, (0...4).contains(gain) else { throw CLIError(message: "--gain must be between 0 and 4", code: .validationFailure) }
        do { return try ActuatorProfile.resolve(profile) } catch {
            throw CLIError.invalidInput(error)
        }
    }
}

extension SampleFormat: ExpressibleByArgument {}

/// Prints decoder warnings, and a note when the pattern has audio events, which the haptic
/// signal leaves out (render and play).
func reportWarnings(_ loaded: LoadedPattern) {
    reportWarnings(loaded.diagnostics)
    let audio = loaded.pattern.counts.audioContinuous + loaded.pattern.counts.audioCustom
    if audio > 0 {
        writeStandardError("\(loaded.name): note: \(audio) audio event\(audio == 1 ? "" : "s") kept in the pattern but not part of the haptic signal")
    }
}
