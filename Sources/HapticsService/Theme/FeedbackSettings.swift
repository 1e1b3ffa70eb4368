import FoundationEssentials
import Glibc
import Haptics
import Synchronization
import HapticsSystem

/// The feedback service's settings, read as feedbackd reads them: the global profile, per-app
/// profiles, `allow-important`, `max-haptic-strength` and the theme's name.
///
/// Where feedbackd's GSettings schema `org.sigxcpu.feedbackd` is installed they come from
/// GSettings (the user's dconf database, as feedbackd and `gsettings set` see it), read by
/// running `gsettings` with the given environment: GIO opened in the daemon would read the
/// process's own environment and start GIO's threads and dconf's watch for a handful of
/// strings read at start, on `SIGHUP` and once per new app. Keys that Debian's 0.0.3 schema
/// lacks (`allow-important`, `max-haptic-strength`) take feedbackd's defaults. Without the
/// schema they come from our settings file's `feedback` object (``HapticSettings/Feedback``).
package struct FeedbackSettings: Sendable {
    /// Where the settings came from.
    package enum Source: Sendable, Equatable {
        /// GSettings, through `gsettings`.
        case gsettings
        /// The settings file (or defaults when it has none).
        case settingsFile
    }

    /// The global level (`profile`).
    package var profile: FeedbackLevel
    /// The theme's name (`theme`).
    package var themeName: String
    /// Apps whose `important` hint is honoured (`allow-important`).
    package var allowImportant: Set<String>
    /// The strongest haptic magnitude, 0…1 (`max-haptic-strength`).
    package var maxHapticStrength: Double
    /// Where they came from.
    package var source: Source
    /// Per-app levels known so far (from the settings file, or read from GSettings).
    package var applications: [String: FeedbackLevel]
    /// Problems met (one line each): a malformed settings file, a value out of range.
    package var problems: [String]
    /// The environment they were read with, for per-app lookups.
    var environment: [String: String]
    /// Per-app levels read from GSettings, each app read once (a `gsettings` run, a few ms)
    /// until the settings are loaded again (`SIGHUP`); shared by copies of this value.
    let applicationCache = ApplicationLevels()

    /// feedbackd's default `allow-important` (0.8.x's schema).
    package static let defaultAllowImportant: Set<String> = ["mobi.phosh.Stevia", "sm.puri.OSK0"]
    /// The schema's id.
    package static let schema = "org.sigxcpu.feedbackd"
    /// The per-app relocatable schema's id.
    package static let applicationSchema = "org.sigxcpu.feedbackd.application"

    /// Settings as given, for tests and `--profile`-style overrides.
    package init(
        profile: FeedbackLevel = .full, themeName: String = "default", allowImportant: Set<String> = defaultAllowImportant,
        maxHapticStrength: Double = 1, applications: [String: FeedbackLevel] = [:]
    ) {
        self.profile = profile
        self.themeName = themeName
        self.allowImportant = allowImportant
        self.maxHapticStrength = maxHapticStrength
        self.applications = applications
        self.source = .settingsFile
        self.problems = []
        self.environment = [:]
    }

    /// The level of an app: its own profile (which can only lower the global one; feedbackd
    /// combines the two with `min`), or `full` when it has none.
    package func level(forApp appID: String) -> FeedbackLevel {
        if let known = applications[appID] { return known }
        guard source == .gsettings else { return .full }
        if let cached = applicationCache.level(of: appID) { return cached }
        let level = Self.gsettingsApplicationLevel(appID, environment: environment) ?? .full
        applicationCache.store(level, for: appID)
        return level
    }

    /// Stores a new global level where feedbackd keeps it (the D-Bus `Profile` property set by a
    /// client): GSettings' `profile` when the settings came from GSettings; with the settings
    /// file, only this value (the file is the user's and is not rewritten). Returns the
    /// problem, in one line, if `gsettings` failed.
    package mutating func setProfile(_ level: FeedbackLevel) -> String? {
        profile = level
        guard source == .gsettings, let gsettings = GSettingsReader.executable(environment: environment) else { return nil }
        let result = ChildOutput.run([gsettings, "set", Self.schema, "profile", level.name], environment: environment)
        return result?.status == 0 ? nil : "gsettings set \(Self.schema) profile \(level.name) failed"
    }

    /// The GSettings path of an app's settings: `sm.puri.Phosh` →
    /// `/org/sigxcpu/feedbackd/application/sm-puri-phosh/`.
    package static func applicationPath(_ appID: String) -> String {
        "/org/sigxcpu/feedbackd/application/" + String(appID.map { $0 == "." ? "-" : $0 }).lowercased() + "/"
    }

    /// Reads the settings: GSettings when feedbackd's schema is installed, else the settings file.
    package static func load(environment: [String: String]) -> FeedbackSettings {
        if let values = GSettingsReader.values(of: schema, path: nil, environment: environment) {
            var settings = FeedbackSettings()
            settings.source = .gsettings
            settings.environment = environment
            if let text = values["profile"] {
                if let name = GVariantText.string(text), let level = FeedbackLevel(name: name) {
                    settings.profile = level
                } else {
                    settings.problems.append("GSettings \(schema) profile: expected full, quiet or silent, got \(text); using full")
                }
            }
            if let text = values["theme"], let name = GVariantText.string(text), !name.isEmpty { settings.themeName = name }
            if let text = values["allow-important"], let ids = GVariantText.strings(text) { settings.allowImportant = Set(ids) }
            if let text = values["max-haptic-strength"], let value = Double(text.trimmingSpaces()) {
                settings.maxHapticStrength = min(max(value, 0), 1)
            }
            return settings
        }
        let (feedback, problem) = HapticSettings.Feedback.load(environment: environment)
        var settings = FeedbackSettings()
        settings.environment = environment
        settings.problems = problem.map { [$0.description] } ?? []
        if let profile = feedback.profile, let level = FeedbackLevel(name: profile) { settings.profile = level }
        if let theme = feedback.theme { settings.themeName = theme }
        for (app, name) in feedback.applications {
            if let level = FeedbackLevel(name: name) { settings.applications[app] = level }
        }
        if let ids = feedback.allowImportant { settings.allowImportant = Set(ids) }
        if let strength = feedback.maxHapticStrength { settings.maxHapticStrength = min(max(strength, 0), 1) }
        return settings
    }

    /// An app's `profile` from the relocatable per-app schema, if set and valid.
    static func gsettingsApplicationLevel(_ appID: String, environment: [String: String]) -> FeedbackLevel? {
        guard !appID.isEmpty, appID.utf8.count <= 255,
            let values = GSettingsReader.values(of: applicationSchema, path: applicationPath(appID), environment: environment),
            let text = values["profile"], let name = GVariantText.string(text)
        else { return nil }
        return FeedbackLevel(name: name)
    }
}

/// Per-app levels already read, by app id (at most 1,024 kept: app ids come from clients).
final class ApplicationLevels: Sendable {
    private let levels = Mutex<[String: FeedbackLevel]>([:])
    static let limit = 1024

    func level(of appID: String) -> FeedbackLevel? { levels.withLock { $0[appID] } }

    func store(_ level: FeedbackLevel, for appID: String) {
        levels.withLock { known in
            if known.count >= Self.limit { known.removeAll() }
            known[appID] = level
        }
    }
}

/// Runs `gsettings list-recursively` and returns each key's value as GVariant text; nil when
/// `gsettings` is missing or the schema is not installed.
enum GSettingsReader {
    /// `gsettings` on the environment's `PATH`, or the usual places.
    static func executable(environment: [String: String]) -> String? {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        return folders.lazy.map { $0 + "/gsettings" }.first { access($0, X_OK) == 0 }
    }

    static func values(of schema: String, path: String?, environment: [String: String]) -> [String: String]? {
        guard let gsettings = executable(environment: environment) else { return nil }
        let target = path.map { "\(schema):\($0)" } ?? schema
        guard let output = ChildOutput.run([gsettings, "list-recursively", target], environment: environment), output.status == 0 else {
            return nil
        }
        var values: [String: String] = [:]
        for line in output.text.split(separator: "\n") {
            // "org.sigxcpu.feedbackd profile 'full'"
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0] == schema else { continue }
            values[String(parts[1])] = String(parts[2])
        }
        return values
    }
}

/// The GVariant text `gsettings` prints: `'full'`, `['a', 'b']`, `@as []`.
enum GVariantText {
    /// A string value, unquoted.
    static func string(_ text: String) -> String? {
        var scanner = Scanner(text.trimmingSpaces())
        let value = scanner.quoted()
        return scanner.atEnd ? value : nil
    }

    /// A list of strings.
    static func strings(_ text: String) -> [String]? {
        var body = Substring(text.trimmingSpaces())
        if body.hasPrefix("@as ") { body = body.dropFirst(4) }
        var scanner = Scanner(String(body))
        guard scanner.take("[") else { return nil }
        var items: [String] = []
        scanner.skipSpaces()
        if scanner.take("]") { return scanner.atEnd ? items : nil }
        while true {
            scanner.skipSpaces()
            guard let item = scanner.quoted() else { return nil }
            items.append(item)
            scanner.skipSpaces()
            if scanner.take("]") { return scanner.atEnd ? items : nil }
            guard scanner.take(",") else { return nil }
        }
    }

    struct Scanner {
        var characters: [Character]
        var index = 0
        init(_ text: String) { characters = Array(text) }
        var atEnd: Bool { index == characters.count }
        mutating func skipSpaces() { while index < characters.count, characters[index] == " " { index += 1 } }
        mutating func take(_ character: Character) -> Bool {
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
            return true
        }
        /// `'text'` or `"text"`, with backslash escapes.
        mutating func quoted() -> String? {
            guard index < characters.count, characters[index] == "'" || characters[index] == "\"" else { return nil }
            let quote = characters[index]
            index += 1
            var value = ""
            while index < characters.count {
                let character = characters[index]
                index += 1
                if character == quote { return value }
                if character == "\\", index < characters.count {
                    value.append(characters[index])
                    index += 1
                } else {
                    value.append(character)
                }
            }
            return nil
        }
    }
}

/// A child's standard output and exit status: `posix_spawn` with the given environment,
/// standard error discarded, output capped at 1 MiB.
enum ChildOutput {
    struct Result {
        var status: Int32
        var text: String
    }

    static func run(_ arguments: [String], environment: [String: String]) -> Result? {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            return nil
        }
        // Nothing gsettings prints for a key comes near 1 MiB: more is no answer.
        let bytes = (try? BoundedFile.read(descriptor: pipeEnds[0], limit: 1 << 20)) ?? []
        close(pipeEnds[0])
        var status: Int32 = 0
        _ = try? systemCall { waitpid(pid, &status, 0) }
        let exited = status & 0x7f == 0
        return Result(status: exited ? (status >> 8) & 0xff : -1, text: String(decoding: bytes, as: UTF8.self))
    }
}
