import FoundationEssentials
import Haptics

extension HapticFeedback.Weight: ChoiceArgument {}
extension HapticFeedback.Flexibility: ChoiceArgument {}

/// `--intensity`, `--weight` and `--flexibility`: how a preset is played.
struct PresetOptions {
    static let arguments = ArgumentSpec.section(
        "Preset options",
        [
            .option("intensity", valueName: "0…1", help: "Scales a preset's strength, 0…1 (1 plays it as authored).", takesDashedValue: true),
            .option(
                "weight", choices: HapticFeedback.Weight.self, valueName: "weight", help: "The impact preset's weight, which sets its strength and roundness."),
            .option(
                "flexibility", choices: HapticFeedback.Flexibility.self, valueName: "flexibility",
                help: "The impact preset's flexibility, which sets its sharpness."),
        ])

    var intensity: Double?
    var weight: HapticFeedback.Weight?
    var flexibility: HapticFeedback.Flexibility?

    init(_ arguments: ParsedArguments) throws {
        intensity = try arguments.value("intensity")
        weight = try arguments.value("weight")
        flexibility = try arguments.value("flexibility")
        try validate()
    }

    func validate() throws {
        if let intensity, !(intensity >= 0 && intensity <= 1) {
            throw UsageError("--intensity must be from 0 to 1, got \(intensity)")
        }
        if weight != nil, flexibility != nil {
            throw UsageError("--weight and --flexibility are alternatives (as impact(weight:) and impact(flexibility:) are in SwiftUI); give one")
        }
    }

    /// Resolves a preset name (or `impact(weight: heavy, intensity: 0.7)`) with these options
    /// and the user's settings; nil when no preset has that name. Settings problems are
    /// warnings: the preset still plays, with defaults.
    func resolve(name: String) throws -> HapticPattern? {
        guard let info = PresetLibrary.info(named: baseName(of: name)) else { return nil }
        var feedback = HapticFeedback(name: name)
        if feedback == nil, name.contains("(") {
            throw usageError(
                "'\(name)': unknown parameters; write impact(weight: light|medium|heavy, intensity: 0…1) or impact(flexibility: rigid|solid|soft, intensity: 0…1)"
            )
        }
        if weight != nil || flexibility != nil {
            let option = weight != nil ? "--weight" : "--flexibility"
            guard info.category == .impact else {
                throw usageError("\(option) applies to impact presets only; '\(info.name)' is a \(info.category) preset")
            }
            guard isPlainImpact(baseName(of: name)), let adjusted = feedback?.with(weight: weight, flexibility: flexibility) else {
                throw usageError("'\(name)' already sets its weight or flexibility; use 'impact \(option) …'")
            }
            feedback = adjusted
        }
        let loaded = HapticSettings.load()
        for problem in loaded.problems {
            let consequence = isSettingsFile(problem.source, loaded.file) ? "; using default settings" : ""
            writeStandardError(problem.cliWarningLine(consequence: consequence))
        }
        let scale = (feedback?.intensity ?? 1) * (intensity ?? 1)
        let pattern = PresetLibrary.pattern(named: feedback?.presetName ?? info.name, intensity: scale, settings: loaded.settings)
        if loaded.settings.scale(for: info.category) == 0 {
            writeStandardError("haptics: note: \(mutedReason(loaded)); '\(info.name)' is silent")
        }
        return pattern
    }

    /// Options that do not fit the pattern named: a usage error, reported on one line like
    /// every other failure of the tool (validate() cannot see the pattern argument).
    private func usageError(_ message: String) -> CLIError {
        CLIError(message: message, code: .validationFailure)
    }

    /// Whether a problem's source is the settings file, which the library names by its absolute
    /// path even when `HAPTICS_SETTINGS` gave a relative one.
    private func isSettingsFile(_ source: String, _ file: String?) -> Bool {
        guard let file else { return false }
        return URL(fileURLWithPath: source).standardizedFileURL.path == URL(fileURLWithPath: file).standardizedFileURL.path
    }

    /// Only the plain `impact` takes a weight or flexibility; `medium`, `solid`, `heavy` and
    /// the others already name one.
    private func isPlainImpact(_ name: String) -> Bool {
        let key = name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != "." }
        return key == "impact"
    }

    /// The name without a parameter list: `impact` for `impact(weight: heavy)`.
    private func baseName(of name: String) -> String {
        let base = name.split(separator: "(", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return base.trimmingSpaces()
    }

    private func mutedReason(_ loaded: HapticSettings.Loaded) -> String {
        if !loaded.settings.isEnabled {
            let variable = HapticSettings.EnvironmentKey.disabled
            if ProcessInfo.processInfo.environment[variable].map({ !$0.isEmpty }) == true {
                return "haptics are turned off by \(variable)"
            }
            return "haptics are turned off in \(loaded.file ?? "the settings")"
        }
        return "the settings scale this preset's category to 0"
    }
}
