import FoundationEssentials
import Haptics

struct DevicesCommand: Command {
    static let name = "devices"
    static let spec = CommandSpec(
        name: name,
        abstract: "List every haptic output, the one used by default, and why any cannot be used.",
        discussion: """
            Haptic outputs come first, best first: phone vibration motors, the DualSense's audio \
            haptics (its sound card, with the dualsense profile), gamepad rumble, haptic touchpads, \
            other force-feedback devices, then speakers (heard, not felt). The one marked * is \
            what `haptics play`, `Haptics.play` and `CHHapticEngine()` use when no device is named \
            (HAPTICS_DEVICE, then the settings file's device, then the best one found); each one \
            that cannot be used says why and how to fix it. `haptics doctor` explains more.

            Audio outputs are ALSA playback devices: pass a name to `haptics play --device`. \
            `pulse` plays on the PulseAudio (or PipeWire) server through libpulse when it is \
            installed, through ALSA's plugin otherwise (its figures here are the plugin's). \
            Channel counts, rates and formats are shown for sound-card (hw:) devices that are not \
            in use by another program; every device that opens shows the shortest period and \
            buffer it allows (the lowest latency `play --latency` or `--latency-ms` can get). Rumble devices are evdev force-feedback devices (gamepads): \
            pass a path to `haptics play --rumble`. Gamepads are often readable only by root; \
            the list says so and shows the udev rule that fixes it.

            Examples:
              haptics devices
              haptics devices --json | jq -r '.audio[].name'
            """,
        arguments: [
            .flag(
                "json",
                help:
                    "Print one JSON object {\"hapticsVersion\", \"outputs\": [...], \"default\": {...}, \"audio\": [...], \"soundCards\": [...], \"rumble\": [...]}."
            )
        ]
    )

    var json: Bool

    init(_ arguments: ParsedArguments) throws {
        json = arguments.flag("json")
    }

    func run() throws {
        let selection = HapticOutputSelection.resolve(environment: PlayOutput.environment)
        let report = DevicesReport(
            outputs: selection.outputs(),
            default: DefaultOutput(selection),
            audio: ALSADevices.playbackDevices(),
            soundCards: ALSADevices.soundCards(),
            rumble: RumbleDevices.list()
        )
        writeStandardOutput(json ? try report.json() : report.text())
    }
}

/// What `haptics devices` prints; its JSON keys are part of the CLI contract.
struct DevicesReport: Encodable {
    /// Every haptic output discovery finds, best first.
    var outputs: [HapticOutput]
    /// What engines use when no device is named.
    var `default`: DefaultOutput
    var audio: [ALSADevice]
    var soundCards: [ALSASoundCard]
    var rumble: [RumbleDeviceInfo]

    func json() throws -> String {
        try JSONDocument.text(self)
    }

    func text() -> String {
        var lines = ["Haptic outputs (best first; * is the default; pass a device to --device):"]
        for output in outputs {
            let mark = output.device == `default`.device ? "*" : " "
            let details = ([output.kind.label] + output.capabilities + ["~\(Int(output.latencyMilliseconds)) ms"]).joined(separator: ", ")
            lines.append(" \(mark) \(output.device)  \(output.name.isEmpty ? "(unnamed)" : output.name)  (\(details))")
            if let problem = output.problem { lines.append("      cannot be used: \(problem)") }
        }
        if outputs.isEmpty { lines.append("  none found (no vibration motor, DualSense, gamepad or sound card)") }
        if !outputs.contains(where: { $0.device == `default`.device }) {
            lines.append(" * \(`default`.device)  (\(`default`.reason))")
        }
        lines.append("")
        lines.append("Audio outputs (ALSA; pass a name to --device):")
        let width = min(40, audio.map(\.name.count).max() ?? 0)
        for device in audio {
            let name = device.name.padded(to: max(width, device.name.count))
            lines.append("  \(name)  \(Self.summary(of: device))")
        }
        if audio.isEmpty {
            lines.append(
                ALSADevices.isAvailable
                    ? "  none (ALSA lists no playback device)" : "  none: alsa-lib is not installed (Debian/Ubuntu: apt-get install libasound2)")
        }
        if soundCards.isEmpty {
            lines.append("  no sound card found: only software devices are available")
        } else {
            lines.append("Sound cards:")
            for card in soundCards {
                lines.append("  \(card.index): \(card.name)\(card.longName.isEmpty ? "" : " — \(card.longName)")")
            }
        }
        lines.append("")
        lines.append("Rumble devices (force feedback; pass a path to play --rumble):")
        if rumble.isEmpty {
            lines.append("  none found (no /dev/input/event* device reports force feedback)")
        }
        for device in rumble { lines.append("  " + device.summaryLine) }
        if rumble.contains(where: { !$0.accessible }) {
            lines.append("")
            lines.append(RumbleDevices.udevRuleHelp)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func summary(of device: ALSADevice) -> String {
        var details: [String] = []
        if let channels = device.channels {
            details.append("\(channels) channel\(channels.max == 1 ? "" : "s")")
        }
        if let rates = device.sampleRates {
            details.append("\(rates) Hz")
        }
        if let formats = device.formats, !formats.isEmpty {
            details.append(formats.joined(separator: " "))
        }
        if let latency = device.latency {
            details.append(latency.description)
        }
        if device.isBusy {
            details.append("busy: in use by another program")
        }
        let description = device.description.isEmpty ? "" : device.description
        guard !details.isEmpty else { return description }
        return "\(description) (\(details.joined(separator: ", ")))"
    }
}

/// The output engines use when no device is named, for `haptics devices`.
struct DefaultOutput: Encodable {
    var device: String
    /// `environment`, `settings`, `discovered` or `systemDefault`.
    var source: String
    /// What `CHHapticDeviceCapability.supportsHaptics` reports.
    var supportsHaptics: Bool
    var supportsAudio: Bool
    var profile: String
    /// Why it is the default, in words.
    var reason: String

    init(_ selection: HapticOutputSelection) {
        device = selection.device
        source = selection.source.rawValue
        supportsHaptics = selection.isHapticActuator
        supportsAudio = selection.supportsAudio
        profile = selection.profile.name
        reason = Self.reason(selection.source)
    }

    /// Why the output from `source` is the default, in words.
    static func reason(_ source: HapticOutputSelection.Source) -> String {
        switch source {
        case .environment: "named by \(HapticOutputSelection.deviceVariable)"
        case .settings: "named by the settings file"
        case .discovered: "the best haptic actuator found"
        case .systemDefault: "no haptic actuator: the library plays nothing, `haptics play` plays on the speakers"
        }
    }
}
