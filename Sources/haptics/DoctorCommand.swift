import FoundationEssentials
import Glibc
import Haptics

struct DoctorCommand: Command {
    static let name = "doctor"
    static let spec = CommandSpec(
        name: name,
        abstract: "Explain, in one screen, why nothing vibrates: outputs, permissions, sound server, libraries.",
        discussion: """
            Checks what playing needs and says what to do about each problem: the output chosen \\
            when no device is named (and why), every haptic output found and why any cannot be \\
            used, access to /dev/input and the udev rule, your groups, the sound server (asked of \\
            libpulse) and ALSA's pulse plugin, the sound cards, the real-time priority limit that \\
            --latency low needs, and the optional libraries with the package that provides each. \\
            Lines start with "ok", "--" (not needed here) or "!!" (a problem, with the fix).

            Examples:
              haptics doctor
            """,
        arguments: []
    )

    init(_ arguments: ParsedArguments) throws {}

    func run() throws {
        writeStandardOutput(DoctorReport.make().joined(separator: "\n") + "\n")
    }
}

/// The checks of `haptics doctor`, one line each.
enum DoctorReport {
    static func make() -> [String] {
        var lines: [String] = []
        let selection = HapticOutputSelection.resolve(environment: PlayOutput.environment)
        let outputs = HapticOutputDiscovery.current.outputs()
        let summary = "output: \(selection.summary)"
        lines.append(selection.isHapticActuator ? "ok \(summary)" : "!! \(summary): nothing will vibrate; see the outputs below")
        for problem in selection.problems { lines.append("!! \(problem)") }

        let actuators = outputs.filter(\.isHapticActuator)
        if actuators.isEmpty {
            lines.append("-- no vibration motor, DualSense, gamepad or haptic touchpad found")
        }
        for output in actuators {
            let line = "\(output.kind.label) \(output.name.isEmpty ? output.device : output.name) (\(output.device))"
            lines.append(output.problem.map { "!! \(line): \($0)" } ?? "ok \(line)")
            if output.kind == .vibrationMotor, output.problem?.hasPrefix("no permission") == true {
                let rule = #"SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}==""# + output.name + #"", TAG+="uaccess""#
                lines.append("   the udev rule for it (feedbackd installs one like it): echo '\(rule)' | sudo tee \(RumbleDevices.udevRuleFile)")
            }
        }
        let speakers = outputs.filter { $0.kind == .speakers }
        lines.append(
            speakers.isEmpty
                ? "-- no sound card (only software devices: null, pulse, file:…)"
                : "ok sound cards: \(speakers.map(\.name).joined(separator: ", ")) (speakers: heard, not felt)")

        lines += inputAccess(hasForceFeedback: outputs.contains { $0.transport == .evdev })
        lines += soundServer()
        lines += realtimeLimit()
        lines += libraries()
        return lines
    }

    /// `/dev/input`: how many nodes this user may open read-write, the groups, the udev rule.
    static func inputAccess(hasForceFeedback: Bool) -> [String] {
        var lines: [String] = []
        let directory = HapticOutputDiscovery.current.roots.inputDirectory
        let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix("event") }
        if nodes.isEmpty {
            lines.append("-- \(directory): no event devices (a container or a server?)")
        } else {
            let writable = nodes.filter { access(directory + "/" + $0, R_OK | W_OK) == 0 }.count
            lines.append(
                writable == nodes.count
                    ? "ok \(directory): all \(nodes.count) event devices can be opened read-write"
                    : "!! \(directory): \(writable) of \(nodes.count) event devices can be opened read-write (force feedback needs read-write)")
        }
        lines.append("ok groups: \(groupNames().joined(separator: ", "))")
        let rules = [
            RumbleDevices.udevRuleFile, "/usr/lib/udev/rules.d/72-feedbackd.rules", "/lib/udev/rules.d/72-feedbackd.rules",
            "/etc/udev/rules.d/72-feedbackd.rules",
        ]
        if let rule = rules.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            lines.append("ok udev rule: \(rule)")
        } else if hasForceFeedback {
            lines.append("!! no udev rule gives you gamepads or vibration motors; \(RumbleDevices.udevRuleOneLineHelp)")
        } else {
            lines.append("-- no udev rule for gamepads (none is connected); when one is: \(RumbleDevices.udevRuleOneLineHelp)")
        }
        return lines
    }

    /// The names of this process's groups.
    static func groupNames() -> [String] {
        var ids = [gid_t](repeating: 0, count: 256)
        let count = getgroups(Int32(ids.count), &ids)
        let all = [getgid()] + ids.prefix(max(0, Int(count)))
        var names: [String] = []
        for id in all {
            let name = getgrgid(id).flatMap { $0.pointee.gr_name.map { String(cString: $0) } } ?? "\(id)"
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// libpulse's answer, and ALSA's pulse plugin.
    static func soundServer() -> [String] {
        guard let answer = PulseOutput.serverAnswers() else {
            return ["-- libpulse is not installed (Debian: libpulse0): `--device pulse` plays through ALSA's plugin, if any"]
        }
        guard answer.answers else {
            return ["-- no sound server answers (\(answer.reason)): `default` and `pulse` need one; sound cards and actuators do not"]
        }
        let plugin = ALSADevices.hintNames().contains("pulse")
        return [
            "ok a sound server answers",
            plugin
                ? "ok ALSA's pulse plugin is installed"
                : "!! ALSA's pulse plugin is not installed: `default` may not reach the server (Debian: libasound2-plugins)",
        ]
    }

    /// `--latency low` wants real-time priority on a busy machine.
    static func realtimeLimit() -> [String] {
        var limit = rlimit()
        // RLIMIT_RTPRIO (14) is an enumerator of glibc's __rlimit_resource, which Swift does not import by name.
        guard getrlimit(__rlimit_resource_t(14), &limit) == 0 else { return [] }
        if getuid() == 0 || limit.rlim_cur > 0 {
            return ["ok real-time priority allowed (rtprio limit \(getuid() == 0 ? "root" : "\(limit.rlim_cur)")): --latency low holds on a busy machine"]
        }
        return [
            "-- no real-time priority (rtprio limit 0): --latency low may underrun on a busy machine; allow it with `@audio - rtprio 95` in /etc/security/limits.d/audio.conf and join the audio group"
        ]
    }

    /// The libraries opened on first use, and the package for each.
    static func libraries() -> [String] {
        let libraries: [(name: String, files: [String], package: String, use: String)] = [
            ("alsa-lib", ["libasound.so.2"], "libasound2", "play on sound cards"),
            ("libpulse", ["libpulse.so.0"], "libpulse0", "play on the sound server"),
            ("libsndfile", ["libsndfile.so.1"], "libsndfile1", "analyze and AudioCustom sound files"),
            ("kissfft", ["libkissfft-float.so.131"], "libkissfft-float131", "analyze"),
        ]
        return libraries.map { library in
            let found = library.files.contains { file in
                guard let handle = dlopen(file, RTLD_LAZY | RTLD_LOCAL) else { return false }
                dlclose(handle)
                return true
            }
            return found
                ? "ok \(library.name) (\(library.use))"
                : "!! \(library.name) is missing, needed to \(library.use): apt-get install \(library.package)"
        }
    }
}
