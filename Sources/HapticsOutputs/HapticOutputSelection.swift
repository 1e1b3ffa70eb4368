import FoundationEssentials
import HapticsPlayback
import HapticsPresets
import HapticsRender
import Synchronization

/// Which output an engine plays on when the program names none: the one choice that
/// `haptics play`, ``Haptics/engine()``, `CoreHaptics`' `CHHapticEngine()` and the feedback
/// service all make, and the engine for it (``makeEngine(latency:gain:)``).
///
/// The order is:
/// 1. the `HAPTICS_DEVICE` environment variable (`haptics play --device` comes before it):
///    any ALSA name, such as `plughw:CARD=Device,DEV=0`, `null`, or ALSA's file plugin
///    `file:'/tmp/x.wav',wav`, `pulse` for the PulseAudio/PipeWire server (see
///    `AudioDevice`), or an evdev node (`/dev/input/event5`, `event5`);
/// 2. the user's settings (``HapticSettings/device``, ``HapticSettings/profile``; see
///    ``HapticSettings/load(environment:)`` for where they are read from);
/// 3. the best haptic actuator ``HapticOutputDiscovery`` finds: a vibration motor, the
///    DualSense's audio haptics, a gamepad's rumble, another force-feedback device;
/// 4. nothing: ALSA's `null`, which plays silently. Speakers are not a haptic actuator, so the
///    library never plays on them unless configured to (`haptics play` does, so that a person
///    hears the pattern, and says so).
///
/// The actuator profile comes from the settings (`wideband` when they name none, or name one
/// that cannot be read: see ``problems``), except for the DualSense's card, which takes
/// `dualsense`.
package struct HapticOutputSelection: Sendable, Equatable {
    /// Where the device came from.
    package enum Source: String, Sendable, Equatable {
        /// The `HAPTICS_DEVICE` environment variable (or a name given directly).
        case environment
        /// The user's settings file.
        case settings
        /// Discovery's best haptic actuator.
        case discovered
        /// Nothing named one and no actuator was found: ALSA's `null`.
        case systemDefault
    }

    /// The environment variable naming the output device.
    package static let deviceVariable = "HAPTICS_DEVICE"

    /// The device: an ALSA name, `pulse`, or an evdev node.
    package var device: String
    /// The actuator the output drives.
    package var profile: ActuatorProfile
    /// Where ``device`` came from.
    package var source: Source
    /// What could not be used (a profile file that does not load, a malformed settings file);
    /// defaults replaced it.
    package var problems: [String]
    /// The discovered output, when discovery chose it.
    package var output: HapticOutput?

    /// Creates a selection naming a device and profile directly.
    package init(
        device: String, profile: ActuatorProfile = .wideband, source: Source = .environment, problems: [String] = [],
        output: HapticOutput? = nil
    ) {
        self.device = device
        self.profile = profile
        self.source = source
        self.problems = problems
        self.output = output
    }

    /// Whether a device was configured explicitly (environment or settings).
    package var isConfigured: Bool { source == .environment || source == .settings }

    /// Whether ``device`` is an evdev node (played as force feedback) rather than audio.
    package var isForceFeedback: Bool { output.map { $0.transport == .evdev } ?? Self.isForceFeedbackDevice(device) }

    /// The evdev path for ``device`` when it names one: `/dev/input/event5`, or `event5`.
    package static func isForceFeedbackDevice(_ device: String) -> Bool {
        device.hasPrefix("/dev/input/") || RumbleDevices.eventNumber(device) != nil
    }

    /// ALSA names that mean "the sound system" (speakers, headphones), not an actuator.
    package static func isSpeakersName(_ device: String) -> Bool {
        ["default", "pulse", "pipewire", "sysdefault", "plug:pulse", "dmix"].contains(device) || device.hasPrefix("sysdefault:")
            || device.hasPrefix("front:") || device.hasPrefix("dmix:")
    }

    /// Whether the output is felt: a discovered actuator, or a configured device other than
    /// the sound system's own names (`default`, `pulse`, `pipewire`, `sysdefault`, `front:…`).
    /// What `CHHapticDeviceCapability.supportsHaptics` reports.
    package var isHapticActuator: Bool {
        switch source {
        case .environment, .settings: !Self.isSpeakersName(device)
        case .discovered: output?.isHapticActuator ?? true
        case .systemDefault: false
        }
    }

    /// Whether audio events can be heard on it: audio outputs (not `null`), never force
    /// feedback.
    package var supportsAudio: Bool {
        if isForceFeedback { return false }
        if source == .systemDefault || device == "null" { return false }
        return output?.playsAudio ?? true
    }

    /// Resolves the selection from an environment, the settings it leads to and what
    /// discovery finds.
    ///
    /// - Parameters:
    ///   - environment: the variables to read (`HAPTICS_DEVICE`, and those that locate the
    ///     settings file).
    ///   - settings: the settings to use; read with ``HapticSettings/load(environment:)``
    ///     from `environment` when `nil`.
    ///   - discovery: the machine to look at when nothing is configured; ``HapticOutputDiscovery/current``
    ///     when nil.
    package static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        settings: HapticSettings? = nil,
        discovery: HapticOutputDiscovery? = nil
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
                profile = try ProfileLookup.resolve(name, environment: environment)
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
        return discovered(by: discovery ?? .current, profile: profile, problems: problems)
    }

    /// Discovery's best actuator with `profile`, or nothing (`null`).
    package static func discovered(
        by discovery: HapticOutputDiscovery, profile: ActuatorProfile = .wideband, problems: [String] = []
    ) -> HapticOutputSelection {
        guard let best = discovery.bestActuator() else {
            return HapticOutputSelection(device: "null", profile: profile, source: .systemDefault, problems: problems)
        }
        let ownProfile = best.profile.flatMap { ActuatorProfile.named($0) } ?? profile
        return HapticOutputSelection(device: best.device, profile: ownProfile, source: .discovered, problems: problems, output: best)
    }

    /// The selection for this process: ``override`` when a caller set one, else
    /// ``resolve(environment:settings:discovery:)`` from the process environment.
    package static var current: HapticOutputSelection {
        override ?? resolve()
    }

    /// A selection that replaces the environment and settings for code run inside
    /// `$override.withValue(…)`: lets tests and embedding programs choose an output for code
    /// that creates its engines itself (such as `CHHapticEngine()`), without changing the
    /// process environment other code reads.
    @TaskLocal package static var override: HapticOutputSelection?

    /// Whether there is something to play on: one was configured or an actuator found.
    package var isOutputAvailable: Bool { source != .systemDefault }

    /// An engine configuration for this output (audio outputs; force-feedback outputs play
    /// through ``makeEngine(latency:gain:idleTimeout:)``).
    package var configuration: HapticEngine.Configuration {
        HapticEngine.Configuration(device: device, profile: profile)
    }

    /// The engine for this output, whatever its kind: audio devices play the pattern as
    /// signals on the profile's channels (`HapticEngine(configuration:)`); an evdev node plays
    /// it as force feedback at control rate (`HapticEngine(rumble:)`: rumble on a gamepad, a
    /// periodic effect whose period follows sharpness on a vibration motor, a stored click at
    /// each onset on a haptic touchpad, `HapticTouchpadOutput`), reopening on each start
    /// the node chosen or, for a discovered one that went away, the next best force-feedback
    /// actuator. Nothing opens until the engine starts.
    package func makeEngine(
        latency: Duration = HapticEngine.Configuration.standardLatency, gain: Double = 1, idleTimeout: Duration = .seconds(10)
    ) -> HapticEngine {
        guard isForceFeedback else {
            return HapticEngine(
                configuration: HapticEngine.Configuration(
                    device: device, profile: profile, latency: latency, gain: gain, idleTimeout: idleTimeout))
        }
        let discovery = HapticOutputDiscovery.current
        let path = device.hasPrefix("/") ? device : discovery.roots.inputDirectory + "/" + device
        let reopensBest = source == .discovered
        let sharpnessAsPeriod = output?.kind == .vibrationMotor && output?.capabilities.contains("periodic") == true
        let knownKind = output?.kind
        let hotplug = HotplugLink()
        let engine = HapticEngine(
            rumble: { () throws(RumbleOutputError) -> any RumbleOutput in
                var chosen = path
                if reopensBest, !FileManager.default.fileExists(atPath: path), let next = discovery.bestForceFeedbackActuator() {
                    chosen = next.device
                }
                let node: any ForceFeedbackDevice
                do throws(ForceFeedbackDeviceError) { node = try discovery.open(chosen) } catch { throw .unavailable(chosen, error) }
                // A discovered node's kind is known; a named one's is asked of the device.
                let isTouchpad =
                    knownKind.map { $0 == .hapticTouchpad && chosen == path }
                    ?? ((try? node.supportedEffects()).map { HapticOutputDiscovery.kind(name: "", driver: nil, capabilities: $0) == .hapticTouchpad } ?? false)
                let output: any RumbleOutput =
                    if isTouchpad {
                        try HapticTouchpadOutput(device: node)
                    } else {
                        try EvdevRumbleOutput(device: node, gain: 1, sharpnessAsPeriod: sharpnessAsPeriod && chosen == path)
                    }
                hotplug.opened(chosen)
                return output
            }, gain: gain, idleTimeout: idleTimeout)
        hotplug.watch(engine, directory: FolderOfPath(path: path).folder)
        return engine
    }

    /// Every output there is to choose from, best first: the configured device when one is
    /// (kind ``HapticOutput/Kind/configured``), then what `discovery` finds.
    package func outputs(discovery: HapticOutputDiscovery? = nil) -> [HapticOutput] {
        let found = (discovery ?? .current).outputs()
        guard isConfigured else { return found }
        let configured = HapticOutput(
            device: device, name: source == .environment ? "named by \(Self.deviceVariable)" : "named by the settings file", kind: .configured,
            transport: isForceFeedback ? .evdev : .audio, capabilities: isHapticActuator ? [] : ["the sound system: not felt"],
            profile: profile.name, latencyMilliseconds: isForceFeedback ? 10 : 20, playsAudio: supportsAudio)
        return [configured] + found.filter { $0.device != device }
    }

    /// One line for messages: "the vibration motor gpio-vibrator (/dev/input/event1)".
    package var summary: String {
        switch source {
        case .discovered:
            let output = output
            return "the \(output?.kind.label ?? "actuator") \(output?.name ?? device) (\(device))"
        case .environment: return "\(device) (\(Self.deviceVariable))"
        case .settings: return "\(device) (from the settings file)"
        case .systemDefault: return "no haptic actuator (null)"
        }
    }
}

/// A folder's path without its last component: "/dev/input" for "/dev/input/event5".
private struct FolderOfPath {
    var path: String
    var folder: String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}

/// Ties a force-feedback engine to a ``HapticOutputWatcher`` on its node's folder: when the
/// node the engine plays on is removed (the device was unplugged) while it runs, the engine
/// stops and its stopped handler hears ``HapticEngineStoppedReason/deviceLost`` (Core Haptics'
/// `gameControllerDisconnect`), at once rather than at its next motor change. The engine's
/// factory holds this link, and the link the watcher, so both live as long as the engine.
final class HotplugLink: @unchecked Sendable {
    private struct State {
        weak var engine: HapticEngine?
        var node: String?
        var watcher: HapticOutputWatcher?
    }

    private let state = Mutex(State())

    /// The engine opened `node`.
    func opened(_ node: String) { state.withLock { $0.node = node } }

    func watch(_ engine: HapticEngine, directory: String) {
        let watcher = HapticOutputWatcher(directory: directory) { [weak self] change in
            guard case .removed(let path) = change, let self else { return }
            let engine = self.state.withLock { $0.node == path ? $0.engine : nil }
            guard let engine, engine.isRunning else { return }
            engine.stop()
            engine.stoppedHandler?(.deviceLost)
        }
        state.withLock {
            $0.engine = engine
            $0.watcher = watcher
        }
    }
}
