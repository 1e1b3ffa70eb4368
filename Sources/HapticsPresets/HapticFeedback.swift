/// A kind of feedback with a fixed meaning, played as an authored preset pattern.
///
/// The cases are SwiftUI's `SensoryFeedback` kinds, plus the kinds of watchOS and Android whose
/// meaning SwiftUI has no name for. Platform names that mean the same as a case are static
/// aliases (``failure`` is ``error``; UIKit's ``light`` is `impact(weight: .light)`); see
/// `Patterns/README.md` for every name, what it means and how it feels.
///
/// ```swift
/// let pattern = HapticPattern(feedback: .impact(weight: .heavy, intensity: 0.7))
/// let same = HapticFeedback(name: "impact(weight: heavy, intensity: 0.7)")
/// ```
public enum HapticFeedback: Sendable, Hashable {
    /// A task or action finished as the user hoped.
    case success
    /// Something finished but needs the user's attention.
    case warning
    /// An action failed.
    case error
    /// The selection moved to another value.
    case selection
    /// A value went up.
    case increase
    /// A value went down.
    case decrease
    /// An activity started.
    case start
    /// An activity stopped.
    case stop
    /// A dragged item snapped into alignment.
    case alignment
    /// A value crossed into a new level.
    case levelChange
    /// A drawn path was completed.
    case pathComplete
    /// A collision between UI objects of a given weight; `intensity` (0…1) scales it.
    case impact(weight: Weight = .medium, intensity: Double = 1)
    /// A collision between UI objects of a given flexibility; write it
    /// ``impact(flexibility:intensity:)``, as in SwiftUI.
    case flexibleImpact(flexibility: Flexibility, intensity: Double = 1)
    /// Something arrived that the user should look at (watchOS).
    case notification
    /// An action failed but trying again may work (watchOS).
    case retry
    /// The user's input was accepted (Android).
    case confirm
    /// The user's input was refused (Android).
    case reject
    /// A fine step in a fast, continuous movement (Android).
    case textureTick
    /// A long press was recognised (Android).
    case longPress
    /// A switch was turned on (Android).
    case toggleOn
    /// A switch was turned off (Android).
    case toggleOff

    /// How heavy the colliding objects are: sets an impact's strength, and heavier is rounder.
    public enum Weight: String, Sendable, Hashable, CaseIterable {
        /// Small, light objects: a weaker, slightly crisper tap.
        case light
        /// Ordinary objects: the plain impact.
        case medium
        /// Large, heavy objects: the strongest, roundest tap.
        case heavy
    }

    /// How stiff the colliding objects are: sets an impact's sharpness, rigid crisp, soft round.
    public enum Flexibility: String, Sendable, Hashable, CaseIterable {
        /// Hard, stiff objects: a crisp tap.
        case rigid
        /// Ordinary objects: the plain impact.
        case solid
        /// Yielding objects: a round, low tap.
        case soft
    }

    /// A collision between UI objects of a given flexibility, as SwiftUI spells it.
    public static func impact(flexibility: Flexibility, intensity: Double = 1) -> HapticFeedback {
        .flexibleImpact(flexibility: flexibility, intensity: intensity)
    }

    /// A medium impact at full strength: SwiftUI's `.impact`.
    public static var impact: HapticFeedback { .impact() }
}

extension HapticFeedback {
    /// watchOS `failure`: the same meaning as ``error``.
    public static var failure: HapticFeedback { .error }
    /// watchOS `directionUp`: the same meaning as ``increase``.
    public static var directionUp: HapticFeedback { .increase }
    /// watchOS `directionDown`: the same meaning as ``decrease``.
    public static var directionDown: HapticFeedback { .decrease }
    /// watchOS `click` (a crown detent): the same meaning as ``selection``.
    public static var click: HapticFeedback { .selection }
    /// Android `TICK`: the same meaning as ``selection``.
    public static var tick: HapticFeedback { .selection }
    /// UIKit's light impact style.
    public static var light: HapticFeedback { .impact(weight: .light) }
    /// UIKit's medium impact style.
    public static var medium: HapticFeedback { .impact(weight: .medium) }
    /// UIKit's heavy impact style.
    public static var heavy: HapticFeedback { .impact(weight: .heavy) }
    /// UIKit's rigid impact style.
    public static var rigid: HapticFeedback { .impact(flexibility: .rigid) }
    /// UIKit's soft impact style.
    public static var soft: HapticFeedback { .impact(flexibility: .soft) }

    /// One value for each preset, with default parameters, in the order `haptics list` shows
    /// them within a category.
    public static let presets: [HapticFeedback] = [
        .success, .warning, .error, .retry, .notification, .confirm, .reject,
        .impact, .light, .heavy, .rigid, .soft, .longPress,
        .selection, .textureTick, .alignment, .toggleOn, .toggleOff,
        .increase, .decrease, .levelChange,
        .start, .stop, .pathComplete,
    ]

    /// The name of the pattern file that plays this feedback (`Patterns/NAME.ahap`).
    public var presetName: String {
        switch self {
        case .success: return "success"
        case .warning: return "warning"
        case .error: return "error"
        case .selection: return "selection"
        case .increase: return "increase"
        case .decrease: return "decrease"
        case .start: return "start"
        case .stop: return "stop"
        case .alignment: return "alignment"
        case .levelChange: return "levelChange"
        case .pathComplete: return "pathComplete"
        case .impact(let weight, _):
            switch weight {
            case .light: return "light"
            case .medium: return "impact"
            case .heavy: return "heavy"
            }
        case .flexibleImpact(let flexibility, _):
            switch flexibility {
            case .rigid: return "rigid"
            case .solid: return "impact"
            case .soft: return "soft"
            }
        case .notification: return "notification"
        case .retry: return "retry"
        case .confirm: return "confirm"
        case .reject: return "reject"
        case .textureTick: return "textureTick"
        case .longPress: return "longPress"
        case .toggleOn: return "toggleOn"
        case .toggleOff: return "toggleOff"
        }
    }

    /// How much of the preset's authored strength plays, 0…1: an impact's intensity, 1 for
    /// every other kind.
    public var intensity: Double {
        switch self {
        case .impact(_, let intensity), .flexibleImpact(_, let intensity): return intensity
        default: return 1
        }
    }

    /// The preset's description: name, category, meaning and aliases.
    public var info: PresetInfo? { PresetLibrary.info(named: presetName) }
}
