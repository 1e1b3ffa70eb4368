/// What a preset is for. Users scale each category in their settings, so a category groups
/// presets a person would want louder or quieter together.
public enum PresetCategory: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The outcome of an action, or something arriving: success, warning, error, retry,
    /// notification, confirm, reject.
    case notification
    /// A physical collision or press: impact and its weights and flexibilities, longPress.
    case impact
    /// A discrete step through choices or states: selection, textureTick, alignment, toggles.
    case selection
    /// A value moving: increase, decrease, levelChange.
    case change
    /// Something starting or finishing: start, stop, pathComplete.
    case activity

    /// The name used in settings files and `haptics list`.
    public var description: String { rawValue }
}
