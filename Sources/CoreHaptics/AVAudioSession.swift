import Foundation
import HapticsSystem

/// Stands in for AVFoundation's audio session so that the session set-up iOS code does right
/// before `CHHapticEngine(audioSession:)` compiles unchanged.
///
/// On Linux there is no audio session: no category, no interruptions from phone calls, no
/// ducking, no routes. Every call here is a documented no-op that succeeds: the session
/// remembers what it was told (``category``, ``mode``, ``categoryOptions``, ``isActive``) so
/// code that reads it back sees its own settings, and an engine created with a session plays
/// exactly as one created with ``CHHapticEngine/init()``, on the output chosen the same way
/// (`HAPTICS_DEVICE`, the user's settings, ALSA's `default`), mixed with other programs' sound
/// by the sound server as `.mixWithOthers` would be.
///
/// Linux has no `AVFoundation` or `AVFAudio` module, and this package deliberately ships none:
/// cross-platform files guard Apple-only code with `#if canImport(AVFoundation)`, which such a
/// module would turn on. A file that imports AVFoundation only for the session puts the import
/// behind that guard; `import CoreHaptics` brings this class.
open class AVAudioSession {
    nonisolated(unsafe) private static let shared = AVAudioSession()
    private let lock = SystemLock()
    private var settings = (category: Category.soloAmbient, mode: Mode.default, options: CategoryOptions(), active: false)

    /// The process's one session, as on Apple's platforms.
    open class func sharedInstance() -> AVAudioSession { shared }

    /// Creates a session; every session behaves the same on Linux.
    public init() {}

    /// An audio session category (`.playback`, `.ambient`, …): remembered, no effect on Linux.
    public struct Category: RawRepresentable, Hashable, Sendable {
        /// The category's name, as Apple's (`AVAudioSessionCategoryPlayback`, …).
        public let rawValue: String
        /// Creates a category from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Sound that mixes with others and is silenced by the ring/silent switch.
        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
        /// The default: silenced by the switch, silences others.
        public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
        /// Playback that continues with the switch on silent.
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        /// Recording.
        public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
        /// Recording and playback.
        public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
        /// Several routes at once.
        public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")
    }

    /// An audio session mode (`.default`, `.gameChat`, …): remembered, no effect on Linux.
    public struct Mode: RawRepresentable, Hashable, Sendable {
        /// The mode's name, as Apple's.
        public let rawValue: String
        /// Creates a mode from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The default mode.
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        /// Voice chat in a game.
        public static let gameChat = Mode(rawValue: "AVAudioSessionModeGameChat")
        /// Measurement: no signal processing.
        public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
        /// Film playback.
        public static let moviePlayback = Mode(rawValue: "AVAudioSessionModeMoviePlayback")
        /// Spoken audio such as podcasts.
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
        /// Video recording.
        public static let videoRecording = Mode(rawValue: "AVAudioSessionModeVideoRecording")
        /// Voice calls.
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
    }

    /// Options of a category (`.mixWithOthers`, `.duckOthers`, …): remembered, no effect on
    /// Linux, where the sound server mixes every program's sound.
    public struct CategoryOptions: OptionSet, Hashable, Sendable {
        /// The options' bits, as Apple's.
        public let rawValue: UInt
        /// Creates options from their bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Mix with other apps' sound.
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        /// Lower other apps' sound while this one plays.
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        /// Bluetooth hands-free input.
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        /// Play through the speaker rather than the receiver.
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
        /// Interrupt spoken audio of other apps and mix with the rest.
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
        /// Bluetooth A2DP output.
        public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
        /// AirPlay output.
        public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
    }

    /// Options of ``setActive(_:options:)``: remembered nowhere, no effect on Linux.
    public struct SetActiveOptions: OptionSet, Hashable, Sendable {
        /// The options' bits, as Apple's.
        public let rawValue: UInt
        /// Creates options from their bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Let other apps resume when this session deactivates.
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

    /// The category last set (``Category/soloAmbient`` at first).
    open var category: Category { lock.withLock { settings.category } }
    /// The mode last set (``Mode/default`` at first).
    open var mode: Mode { lock.withLock { settings.mode } }
    /// The category options last set (none at first).
    open var categoryOptions: CategoryOptions { lock.withLock { settings.options } }
    /// Whether ``setActive(_:options:)`` last made the session active (not part of Apple's API, which
    /// has no getter; for tests).
    open var isActive: Bool { lock.withLock { settings.active } }

    /// Sets the category; no effect on Linux, never throws.
    open func setCategory(_ category: Category) throws {
        lock.withLock { settings.category = category }
    }

    /// Sets the category and its options; no effect on Linux, never throws.
    open func setCategory(_ category: Category, options: CategoryOptions) throws {
        lock.withLock { (settings.category, settings.options) = (category, options) }
    }

    /// Sets the category, mode and options; no effect on Linux, never throws.
    open func setCategory(_ category: Category, mode: Mode, options: CategoryOptions = []) throws {
        lock.withLock { (settings.category, settings.mode, settings.options) = (category, mode, options) }
    }

    /// Sets the mode; no effect on Linux, never throws.
    open func setMode(_ mode: Mode) throws {
        lock.withLock { settings.mode = mode }
    }

    /// Activates or deactivates the session (`setActive(true)` too); no effect on Linux (the
    /// engine opens its output when it starts), never throws.
    open func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        lock.withLock { settings.active = active }
    }
}
