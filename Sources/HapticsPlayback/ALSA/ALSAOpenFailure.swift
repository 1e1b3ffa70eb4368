import FoundationEssentials
import Glibc
import HapticsCore

/// Why a playback device did not open, in words that name the cause and the fix: a misspelt
/// name (did you mean…, first), a busy device, a missing permission (and the group to join),
/// no sound card, no sound server. Causes are asked of the system: alsa-lib for the names and
/// plugins it knows, libpulse for whether a server answers.
enum ALSAOpenFailure {
    /// One clause: the suggestion for a typo first, else alsa-lib's message followed by the
    /// cause in parentheses.
    ///
    /// - Parameter environment: where to ask for a sound server (`PULSE_SERVER`,
    ///   `XDG_RUNTIME_DIR`); nil: where libpulse itself looks, for this process.
    static func describe(device: String, code: Int32, environment: [String: String]? = nil) -> String {
        let text = ALSADiagnostics.describeWithMessage(code)
        // "alsa-lib is not installed (…apt-get install libasound2)" says it all.
        guard ALSADiagnostics.isLibraryAvailable else { return text }
        switch -code {
        case EBUSY:
            return "\(text) (another program is using it: close that program, or play through the sound server with --device pulse)"
        case EACCES, EPERM:
            return "\(text) (no permission to open sound devices: add your user to the 'audio' group with 'sudo usermod -aG audio $USER', then log in again)"
        default:
            if let near = suggestion(for: device) {
                return "did you mean '\(near)'? \(text) (ALSA has no device of that name; see 'haptics devices')"
            }
            // Missing cards come back as ENOENT, ENODEV, ENXIO or, for a card number that
            // does not exist, EINVAL; unknown names as ENOENT.
            return "\(text) (\(cause(device: device, environment: environment)))"
        }
    }

    /// The names that go through the sound server when there is one.
    static let serverNames: Set<String> = ["default", "pulse", "pipewire"]

    /// Whether `device` names a sound card's device (`hw:0`, `plughw:CARD=PCH,DEV=0`,
    /// `sysdefault:CARD=…`, `front:…`), whose absence is the card's.
    static func isCardDevice(_ device: String) -> Bool {
        device.contains("CARD=")
            || ["hw:", "plughw:", "sysdefault:", "front:", "dmix:", "dsnoop:", "iec958:", "hdmi:", "surround"].contains { device.hasPrefix($0) }
    }

    /// The nearest name ALSA knows for a name it does not (a typo): nil for names that are
    /// not typos (card devices, the server's names, the file plugin, names ALSA lists).
    static func suggestion(for device: String) -> String? {
        guard !isCardDevice(device), !serverNames.contains(device), !device.hasPrefix("file:"), !device.contains(":") else { return nil }
        let names = ALSADevices.hintNames()
        guard !names.contains(device) else { return nil }
        return NameSuggestion.best(for: device, among: names + ["default", "null", "pulse"])
    }

    /// What is missing for `device` to exist.
    static func cause(device: String, environment: [String: String]? = nil) -> String {
        let cards = soundCardCount()
        if isCardDevice(device) {
            return cards == 0
                ? "no sound card: only software devices are available (default, pulse, null, file:…); see 'haptics devices'"
                : "is the card connected? see 'haptics devices'"
        }
        let throughServer = serverNames.contains(device)
        let server = serverAnswer(environment: environment)
        if throughServer, server?.answers == true, !pulsePluginInstalled() {
            return "a sound server is running, but ALSA's pulse plugin is not installed (Debian: libasound2-plugins)"
        }
        switch (cards, server) {
        case (0, nil):
            return "no sound card, and libpulse is not installed to reach a sound server (Debian: libpulse0); see 'haptics devices'"
        case (0, .some(let server)) where !server.answers:
            if throughServer, let address = serverAddress(environment: environment) {
                return "no sound card, and the sound server at \(address) does not answer; see 'haptics devices'"
            }
            return "no sound card, and no sound server (PulseAudio or PipeWire) is running for this user; see 'haptics devices'"
        case (0, _):
            return "no sound card: only software devices are available (default, pulse, null, file:…); see 'haptics devices'"
        default:
            return "is the card connected? see 'haptics devices'"
        }
    }

    /// libpulse's answer: does a server answer where it would look (or where `environment`
    /// points)? Nil when libpulse is not installed.
    static func serverAnswer(environment: [String: String]?) -> (answers: Bool, reason: String)? {
        guard let environment else { return PulseOutput.serverAnswers() }
        if let address = environment["PULSE_SERVER"], !address.isEmpty { return PulseOutput.serverAnswers(at: address) }
        if let folder = environment["PULSE_RUNTIME_PATH"], !folder.isEmpty { return PulseOutput.serverAnswers(at: "unix:\(folder)/native") }
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"
        return PulseOutput.serverAnswers(at: "unix:\(runtime)/pulse/native")
    }

    /// Where a server that does not answer left its socket, for the message: the address
    /// `PULSE_SERVER` names, else the user's PulseAudio or PipeWire socket when one is there.
    static func serverAddress(environment: [String: String]?) -> String? {
        let exists = { (path: String) in FileManager.default.fileExists(atPath: path) }
        let variable = { (name: String) -> String? in
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        if let address = variable("PULSE_SERVER"), !address.isEmpty {
            let path = address.hasPrefix("unix:") ? String(address.dropFirst(5)) : address
            return path.hasPrefix("/") && !exists(path) ? nil : path
        }
        if let folder = variable("PULSE_RUNTIME_PATH"), !folder.isEmpty, exists(folder + "/native") { return folder + "/native" }
        let runtime = variable("XDG_RUNTIME_DIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/run/user/\(getuid())"
        return ["\(runtime)/pulse/native", "\(runtime)/pipewire-0"].first(where: exists)
    }

    /// Sound cards the kernel knows, from /proc/asound/cards (0 when ALSA is absent).
    static func soundCardCount() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8) else { return 0 }
        // Each card's first line starts with its number: " 0 [PCH            ]: HDA-Intel - …".
        return text.split(separator: "\n").filter { $0.trimmingCharacters(in: " \t").first?.isNumber == true }.count
    }

    /// Whether alsa-lib knows the `pulse` device, which ALSA's pulse plugin package defines:
    /// asked of alsa-lib's configuration (its name hints), not of folders on disk.
    static func pulsePluginInstalled() -> Bool {
        ALSADevices.hintNames().contains("pulse")
    }
}
