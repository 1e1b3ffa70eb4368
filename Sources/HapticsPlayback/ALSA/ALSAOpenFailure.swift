import FoundationEssentials
import Glibc

/// Why a playback device did not open, in words that name the cause and the fix: a busy
/// device, a missing permission (and the group to join), no sound card, no sound server.
enum ALSAOpenFailure {
    /// One clause: alsa-lib's message followed by the cause, in parentheses.
    static func describe(device: String, code: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let text = ALSADiagnostics.describeWithMessage(code)
        // "alsa-lib is not installed (…apt-get install libasound2)" says it all.
        guard ALSADiagnostics.isLibraryAvailable else { return text }
        switch -code {
        case EBUSY:
            return "\(text) (another program is using it: close that program, or play through the sound server with --device pulse)"
        case EACCES, EPERM:
            return "\(text) (no permission to open sound devices: add your user to the 'audio' group with 'sudo usermod -aG audio $USER', then log in again)"
        default:
            // Missing cards come back as ENOENT, ENODEV, ENXIO or, for a card number that
            // does not exist, EINVAL; unknown names as ENOENT.
            return "\(text) (\(cause(device: device, environment: environment)))"
        }
    }

    /// What is missing for `device` to exist.
    static func cause(device: String, environment: [String: String]) -> String {
        let server = soundServer(environment: environment)
        let cards = soundCardCount()
        let throughServer = ["default", "pulse", "pipewire"].contains(device)
        if throughServer, server != nil, !pulsePluginInstalled() {
            return "a sound server is running, but ALSA's pulse plugin is not installed (Debian: libasound2-plugins)"
        }
        switch (cards, server) {
        case (0, nil):
            return "no sound card, and no sound server (PulseAudio or PipeWire) is running for this user; see 'haptics devices'"
        case (0, .some(let server)) where throughServer:
            return "no sound card, and the sound server at \(server) does not answer; see 'haptics devices'"
        case (0, _):
            return "no sound card: only software devices are available (default, pulse, null, file:…); see 'haptics devices'"
        default:
            return "is the card connected? see 'haptics devices'"
        }
    }

    /// The sound server's socket when one is there: `PULSE_SERVER`, else the user's PulseAudio
    /// or PipeWire socket in the runtime folder.
    static func soundServer(environment: [String: String]) -> String? {
        let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
        if let address = environment["PULSE_SERVER"], !address.isEmpty {
            let path = address.hasPrefix("unix:") ? String(address.dropFirst(5)) : address
            return path.hasPrefix("/") && !exists(path) ? nil : path
        }
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"
        return ["\(runtime)/pulse/native", "\(runtime)/pipewire-0"].first(where: exists)
    }

    /// Sound cards the kernel knows, from /proc/asound/cards (0 when ALSA is absent).
    static func soundCardCount() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8) else { return 0 }
        // Each card's first line starts with its number: " 0 [PCH            ]: HDA-Intel - …".
        return text.split(separator: "\n").filter { $0.trimmingCharacters(in: " \t").first?.isNumber == true }.count
    }

    /// Whether alsa-lib can reach a PulseAudio (or pipewire-pulse) server at all.
    static func pulsePluginInstalled() -> Bool {
        [
            "/usr/lib/x86_64-linux-gnu/alsa-lib", "/usr/lib/aarch64-linux-gnu/alsa-lib", "/usr/lib/arm-linux-gnueabihf/alsa-lib",
            "/usr/lib/alsa-lib", "/usr/lib64/alsa-lib",
        ]
        .contains { FileManager.default.fileExists(atPath: $0 + "/libasound_module_pcm_pulse.so") }
    }
}
