import HapticsCore

/// The user's haptics settings: whether presets play at all, how strong they are overall, and
/// how strong each category is.
///
/// Presets honour them when they become patterns (``HapticPattern/init(feedback:settings:)``):
/// every haptic intensity is multiplied by ``scale(for:)``. Read the user's settings with
/// ``current`` (the settings file plus environment overrides; see `Patterns/README.md` and
/// ``load(environment:)``), or make a value for tests and previews.
public struct HapticSettings: Sendable, Hashable {
    /// Whether presets play. Off makes every preset silent.
    public var isEnabled: Bool
    /// The master strength, 0…1, multiplying every preset.
    public var intensity: Double
    /// Strength per category, 0…1, multiplying the presets of that category; a missing
    /// category is 1.
    public var categoryIntensities: [PresetCategory: Double]
    /// The output device engines use when the program names none (`HAPTICS_DEVICE` still
    /// wins): any ALSA name, such as `plughw:CARD=Device,DEV=0`. `nil`: ALSA's `default`.
    public var device: String?
    /// The actuator profile engines use when the program names none: a built-in name
    /// (`wideband`, `lra`, `dualsense`, `shaker`) or a profile file. `nil`: `wideband`.
    public var profile: String?

    /// Creates settings; out-of-range strengths are clamped when used.
    public init(
        isEnabled: Bool = true, intensity: Double = 1, categoryIntensities: [PresetCategory: Double] = [:],
        device: String? = nil, profile: String? = nil
    ) {
        self.isEnabled = isEnabled
        self.intensity = intensity
        self.categoryIntensities = categoryIntensities
        self.device = device
        self.profile = profile
    }

    /// Haptics on, everything at full strength: what applies without a settings file.
    public static let standard = HapticSettings()

    /// The factor a preset of the category is scaled by: 0 when haptics are off, otherwise the
    /// master strength times the category's, each clamped to 0…1.
    public func scale(for category: PresetCategory) -> Double {
        guard isEnabled else { return 0 }
        let unit = 0.0...1.0
        return unit.clamp(intensity) * unit.clamp(categoryIntensities[category] ?? 1)
    }
}
