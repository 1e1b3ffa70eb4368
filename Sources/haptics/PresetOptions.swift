import ArgumentParser
import Haptics

// STUB — owned by the preset library work.

/// `--intensity`, `--weight`, `--flexibility` for presets.
struct PresetOptions: ParsableArguments {
    @Option(help: "Scales a preset's strength, 0…1.")
    var intensity: Double?

    /// Resolves a preset name with these options, or nil when no preset has that name.
    func resolve(name: String) throws -> HapticPattern? { nil }
}
