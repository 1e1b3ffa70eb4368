import FoundationEssentials
import Haptics
import HapticsService

struct DaemonCommand: Command {
    static let name = "daemon"
    static let spec = CommandSpec(
        name: name,
        abstract: "Run the feedback service: feedbackd's D-Bus interface (org.sigxcpu.Feedback) on this engine.",
        discussion: """
            Runs in the foreground on the session bus of DBUS_SESSION_BUS_ADDRESS and owns \
            org.sigxcpu.Feedback, answering feedbackd's interface, so fbcli, libfeedback, Phosh and \
            every other feedbackd client play their events through this engine. The name is owned so \
            that another instance may replace it; --replace takes it from a running feedbackd or \
            daemon (the one replaced exits). Nothing is printed per event; each problem is one line \
            on standard error. SIGTERM or SIGINT ends every feedback and exits 0; SIGHUP reloads the \
            theme. The device is released after 5 s without a feedback and opened again on the next.

            The output is chosen as for `haptics play`: --device, else HAPTICS_DEVICE, else the \
            settings, else ALSA's default. The theme is FEEDBACK_THEME or --theme, else the one \
            feedbackd would use, else the built-in one.

            Examples:
              haptics daemon --replace
              haptics daemon --device plughw:CARD=Device,DEV=0 --profile lra
              fbcli -E button-pressed
            """,
        arguments: [
            .flag("replace", help: "Take org.sigxcpu.Feedback from the process that owns it (feedbackd or another daemon)."),
            .option(
                "device", valueName: "name",
                help: "Output device: an ALSA name (default, hw:…, plughw:…, null, file:'out.wav',wav), or pulse.",
                completion: Completions.device),
            .option(
                "profile", valueName: "name|file", help: "Actuator profile: wideband, lra, dualsense, shaker, or a JSON file.",
                completion: Completions.profile),
            .option("theme", valueName: "file", help: "A feedbackd theme file to use instead of the installed ones.", completion: .files(extensions: ["json"])),
        ]
    )

    var replace: Bool
    var device: String?
    var profile: String?
    var theme: String?

    init(_ arguments: ParsedArguments) throws {
        replace = arguments.flag("replace")
        device = arguments.string("device")
        profile = arguments.string("profile")
        theme = arguments.string("theme")
    }

    func run() throws {
        var options = HapticsDaemonOptions(environment: ProcessInfo.processInfo.environment)
        options.replace = replace
        options.device = device
        options.themeFile = theme
        if let profile {
            do { options.profile = try ActuatorProfile.resolve(profile) } catch {
                throw CLIError.invalidInput(error)
            }
        }
        let status = HapticsDaemon.run(options)
        // The daemon has written its one line already.
        if status != 0 { throw ExitCode(status) }
    }
}
