import FoundationEssentials
import HapticsPlayback
import HapticsPresets
import HapticsRender

/// Which output an engine plays on when the program names none: the one place that decides,
/// used by ``Haptics/engine()`` and by `CoreHaptics`' `CHHapticEngine()`.
///
/// The order is:
/// 1. the `HAPTICS_DEVICE` environment variable: any ALSA name, such as
///    `plughw:CARD=Device,DEV=0`, `null`, or ALSA's file plugin `file:'/tmp/x.wav',wav`, or
///    `pulse` for the PulseAudio/PipeWire server (see `AudioDevice`);
/// 2. the user's settings (``HapticSettings/device``, ``HapticSettings/profile``; see
///    ``HapticSettings/load(environment:)`` for where they are read from);
/// 3. ALSA's `default` device.
///
/// The actuator profile comes from the settings in every case (`wideband` when they name
/// none, or name one that cannot be read: see ``problems``).
package struct HapticOutputSelection: Sendable, Equatable {
    /// Where the device name came from.
    package enum Source: String, Sendable, Equatable {
        /// The `HAPTICS_DEVICE` environment variable.
        case environment
        /// The user's settings file.
        case settings
        /// Nothing named one: ALSA's `default`.
        case systemDefault
    }

    /// The environment variable naming the output device.
    package static let deviceVariable = "HAPTICS_DEVICE"

    /// The ALSA device name.
    package var device: String
    /// The actuator the output drives.
    package var profile: ActuatorProfile
    /// Where ``device`` came from.
    package var source: Source
    /// What could not be used (a profile file that does not load, a malformed settings file);
    /// defaults replaced it.
    package var problems: [String]

    /// Creates a selection naming a device and profile directly.
    package init(device: String, profile: ActuatorProfile = .wideband, source: Source = .environment, problems: [String] = []) {
        self.device = device
        self.profile = profile
        self.source = source
        self.problems = problems
    }

    /// Whether a device was configured explicitly (environment or settings), as opposed to
    /// falling back to ALSA's `default`.
    package var isConfigured: Bool { source != .systemDefault }

    /// Resolves the selection from an environment and the settings it leads to.
    ///
    /// - Parameters:
    ///   - environment: the variables to read (`HAPTICS_DEVICE`, and those that locate the
    ///     settings file).
    ///   - settings: the settings to use; read with ``HapticSettings/load(environment:)``
    ///     from `environment` when `nil`.
    package static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        settings: HapticSettings? = nil
    ) -> HapticOutputSelection {
        var problems: [String] = []
        let chosen: HapticSettings
        if let settings {
            chosen = settings
        } else {
            let loaded = HapticSettings.load(environment: environment)
            chosen = loaded.settings
            problems += loaded.problems.map { "\($0)" }
        }
        var profile = ActuatorProfile.wideband
        if let name = chosen.profile, !name.isEmpty {
            do {
                profile = try ActuatorProfile.resolve(name)
            } catch {
                problems.append("profile '\(name)': \(error); using 'wideband'")
            }
        }
        if let device = environment[deviceVariable], !device.isEmpty {
            return HapticOutputSelection(device: device, profile: profile, source: .environment, problems: problems)
        }
        if let device = chosen.device, !device.isEmpty {
            return HapticOutputSelection(device: device, profile: profile, source: .settings, problems: problems)
        }
        return HapticOutputSelection(device: "default", profile: profile, source: .systemDefault, problems: problems)
    }

    /// The selection for this process: ``override`` when a caller set one, else
    /// ``resolve(environment:settings:)`` from the process environment.
    package static var current: HapticOutputSelection {
        override ?? resolve()
    }

    /// A selection that replaces the environment and settings for code run inside
    /// `$override.withValue(…)`: lets tests and embedding programs choose an output for code
    /// that creates its engines itself (such as `CHHapticEngine()`), without changing the
    /// process environment other code reads.
    @TaskLocal package static var override: HapticOutputSelection?

    /// Whether there is an output to play on: one was configured (environment or settings),
    /// or ALSA has a sound card or lists a hardware playback device (`hw:`, `plughw:`,
    /// `sysdefault:`). ALSA's software plugins (`null`, `pulse`, `jack`, rate converters) are
    /// listed on every machine with alsa-lib, sound card or not, so they do not count.
    package var isOutputAvailable: Bool {
        isConfigured || Self.hasPlaybackHardware()
    }

    /// Whether ALSA sees a sound card or a hardware playback device.
    package static func hasPlaybackHardware() -> Bool {
        if !ALSADevices.soundCards().isEmpty { return true }
        return ALSADevices.playbackDevices().contains { device in
            ["hw:", "plughw:", "sysdefault:"].contains { device.name.hasPrefix($0) }
        }
    }

    /// An engine configuration for this output.
    package var configuration: HapticEngine.Configuration {
        HapticEngine.Configuration(device: device, profile: profile)
    }
}
