// STAND-IN for the theme side (branch h25theme), behind the interface agreed for issue #25:
// replaced by `Theme/` when that branch is merged (delete this file then). It knows a few
// events of feedbackd's naming spec, maps them to presets, and reads no theme file.
import FoundationEssentials
import HapticsCore
import HapticsPresets

/// A feedback level, as feedbackd's profiles: `silent` < `quiet` < `full`.
package enum FeedbackLevel: Int, Comparable, Sendable {
    case silent, quiet, full

    /// The level a profile name names, or nil.
    package init?(name: String) {
        switch name {
        case "silent": self = .silent
        case "quiet": self = .quiet
        case "full": self = .full
        default: return nil
        }
    }

    /// The profile's name.
    package var name: String {
        switch self {
        case .silent: "silent"
        case .quiet: "quiet"
        case .full: "full"
        }
    }

    package static func < (a: FeedbackLevel, b: FeedbackLevel) -> Bool { a.rawValue < b.rawValue }
}

/// One feedback of a theme's event, ready to play.
package struct ThemeFeedback: Sendable {
    /// The theme's feedback types, and the `Pattern` extension.
    package enum Kind: Sendable { case vibraRumble, vibraPeriodic, vibraPattern, sound, led, pattern }
    package var kind: Kind
    /// What to play; nil where it cannot play here (Led; a sound not found).
    package var pattern: HapticPattern?
    /// Whether it drives the actuator (as opposed to sound or light).
    package var isHaptic: Bool
}

/// A feedback theme (stand-in: the built-in mapping only).
package struct FeedbackTheme: Sendable {
    /// The theme's name.
    package var name: String
    private var events: [String: (level: FeedbackLevel, preset: String)]

    /// The theme as feedbackd would find it (stand-in: the built-in one).
    package static func load(environment: [String: String]) throws -> FeedbackTheme { builtIn }

    /// A theme file (stand-in: not read yet).
    package init(contentsOf url: URL, environment: [String: String]) throws {
        throw FeedbackServiceError.invalidArguments("\(url.path): theme files are not read yet")
    }

    private init(name: String, events: [String: (level: FeedbackLevel, preset: String)]) {
        self.name = name
        self.events = events
    }

    /// A few events of feedbackd's naming spec mapped to presets.
    package static var builtIn: FeedbackTheme {
        FeedbackTheme(
            name: "haptics",
            events: [
                "button-pressed": (.quiet, "selection"),
                "button-released": (.quiet, "light"),
                "message-new-instant": (.quiet, "notification"),
                "message-new-sms": (.quiet, "notification"),
                "phone-incoming-call": (.quiet, "longPress"),
                "window-close": (.full, "soft"),
                "theme-demo": (.quiet, "success"),
            ])
    }

    /// What to play for an event at a level; empty when the theme has nothing for it there.
    package func feedbacks(for event: String, level: FeedbackLevel) -> [ThemeFeedback] {
        guard let entry = events[event], entry.level <= level,
            let pattern = PresetLibrary.pattern(named: entry.preset, settings: HapticSettings())
        else { return [] }
        return [ThemeFeedback(kind: .pattern, pattern: pattern, isHaptic: true)]
    }
}

/// The `sound-file` hint's pattern (stand-in: the file as an AudioCustom event).
package func soundFilePattern(_ url: URL) throws -> HapticPattern {
    HapticPattern(events: [HapticEvent(.audioCustom, at: 0, audio: HapticEvent.AudioResource(path: url.path))])
}

/// The user's feedback settings (stand-in: feedbackd's defaults).
package struct FeedbackSettings: Sendable {
    package var profile: FeedbackLevel = .full
    package var appLevels: [String: FeedbackLevel] = [:]
    package var allowImportant: Set<String> = ["mobi.phosh.Stevia", "org.sigxcpu.FbdAlertSlider", "org.gnome.clocks"]
    package var maxHapticStrength: Double = 1

    package init() {}

    /// The level an app's per-app profile allows (`full` when it has none).
    package func level(forApp appID: String) -> FeedbackLevel { appLevels[appID] ?? .full }

    /// The settings (stand-in: defaults).
    package static func load(environment: [String: String]) -> FeedbackSettings { FeedbackSettings() }
}
