/// One output haptics can play on, as discovery finds it: a phone's vibration motor, a
/// gamepad's rumble motors, a haptic touchpad, the DualSense's audio haptics, a sound card's
/// speakers, or a device named in the settings.
public struct HapticOutput: Sendable, Hashable, Codable {
    /// What kind of output it is; the order of the cases is the order of preference.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A device named by `HAPTICS_DEVICE`, the settings file or `--device`.
        case configured
        /// A phone's or tablet's vibration motor (evdev force feedback whose driver feedbackd
        /// knows: `gpio-vibrator`, `pwm-vibrator`, `drv260x:haptics`, …).
        case vibrationMotor
        /// The DualSense's voice-coil actuators, on channels 3–4 of its USB sound card.
        case dualSenseAudio
        /// A gamepad's rumble motors (evdev `FF_RUMBLE`).
        case gamepadRumble
        /// A haptic touchpad (evdev `FF_HAPTIC`, Linux 6.18): predefined click waveforms.
        case hapticTouchpad
        /// Another force-feedback device (a wheel, a joystick with `FF_PERIODIC` only).
        case otherActuator
        /// A sound card's speakers or headphones: heard, not felt; never chosen for haptics.
        case speakers

        /// Whether it is felt: everything but speakers.
        public var isHapticActuator: Bool { self != .speakers }

        /// How `haptics devices` names it.
        public var label: String {
            switch self {
            case .configured: "configured"
            case .vibrationMotor: "vibration motor"
            case .dualSenseAudio: "DualSense audio haptics"
            case .gamepadRumble: "gamepad rumble"
            case .hapticTouchpad: "haptic touchpad"
            case .otherActuator: "force feedback"
            case .speakers: "speakers"
            }
        }
    }

    /// How the engine reaches it.
    public enum Transport: String, Sendable, Hashable, Codable {
        /// An ALSA PCM name or `pulse`, played as audio.
        case audio
        /// An evdev node, played as force-feedback effects.
        case evdev
    }

    /// What to pass to `--device` or `HAPTICS_DEVICE`: an ALSA name (`hw:CARD=Controller,DEV=0`)
    /// or an evdev node (`/dev/input/event5`).
    public var device: String
    /// The device's own name ("Sony DualSense Wireless Controller", "gpio-vibrator").
    public var name: String
    /// What kind of output it is.
    public var kind: Kind
    /// How the engine reaches it.
    public var transport: Transport
    /// The kernel driver, when sysfs names one (`gpio-vibrator`, `playstation`, `snd_usb_audio`).
    public var driver: String?
    /// What it can do, in words: "rumble", "periodic", "gain", "16 effects", "click waveforms",
    /// "4 channels".
    public var capabilities: [String]
    /// The actuator profile it plays with (`dualsense` for the DualSense's card); nil: the
    /// settings' profile.
    public var profile: String?
    /// About how long from a player's start until the actuator moves, in milliseconds: the
    /// engine's control interval for force feedback, its standard buffer for audio.
    public var latencyMilliseconds: Double
    /// Whether audio events (`AudioContinuous`, `AudioCustom`) can be heard on it.
    public var playsAudio: Bool
    /// Why it cannot be used, with the fix (permission: the group to join or the udev rule);
    /// nil when it can.
    public var problem: String?

    /// Creates a row.
    public init(
        device: String, name: String, kind: Kind, transport: Transport, driver: String? = nil, capabilities: [String] = [],
        profile: String? = nil, latencyMilliseconds: Double, playsAudio: Bool, problem: String? = nil
    ) {
        self.device = device
        self.name = name
        self.kind = kind
        self.transport = transport
        self.driver = driver
        self.capabilities = capabilities
        self.profile = profile
        self.latencyMilliseconds = latencyMilliseconds
        self.playsAudio = playsAudio
        self.problem = problem
    }

    /// Whether it can be played on now.
    public var isUsable: Bool { problem == nil }

    /// Whether it is felt rather than only heard.
    public var isHapticActuator: Bool { kind.isHapticActuator }
}
