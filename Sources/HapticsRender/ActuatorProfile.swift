import FoundationEssentials
import Glibc
import HapticsCore

/// What the signal drives: the actuator's usable frequency band, how intensity and sharpness
/// map onto amplitude and frequency, and the output format (rate, channels, which carry haptics).
///
/// Four profiles are built in (``wideband``, ``lra``, ``dualsense``, ``shaker``); others load
/// from a JSON file, see ``init(contentsOf:)``.
public struct ActuatorProfile: Sendable, Hashable {
    /// The profile's name (`wideband`, or the custom file's `name`).
    public var name: String
    /// The frequency at sharpness 0, in hertz.
    public var minFrequency: Double
    /// The frequency at sharpness 1, in hertz.
    public var maxFrequency: Double
    /// The default output sample rate, in hertz.
    public var sampleRate: Int
    /// Sample rates the actuator accepts (`nil`: any rate from 8 kHz to 192 kHz that keeps
    /// ``maxFrequency`` below half the rate).
    public var allowedSampleRates: [Int]?
    /// Channels of the output device.
    public var channelCount: Int
    /// Zero-based channels that carry the haptic signal; the others stay silent.
    public var hapticChannels: [Int]
    /// Linear output gain applied to the mix before clipping.
    public var gain: Double
    /// amplitude = intensity ^ exponent (2, as Lofelt/Meta's converter implies).
    public var intensityExponent: Double

    /// Creates a profile; see the built-in ones for typical values.
    public init(
        name: String, minFrequency: Double, maxFrequency: Double, sampleRate: Int = 48_000,
        allowedSampleRates: [Int]? = nil, channelCount: Int = 1, hapticChannels: [Int]? = nil,
        gain: Double = 1, intensityExponent: Double = 2
    ) {
        self.name = name
        self.minFrequency = minFrequency
        self.maxFrequency = maxFrequency
        self.sampleRate = sampleRate
        self.allowedSampleRates = allowedSampleRates
        self.channelCount = channelCount
        self.hapticChannels = hapticChannels ?? Array(0..<channelCount)
        self.gain = gain
        self.intensityExponent = intensityExponent
    }

    /// Voice-coil actuators, and headphones for previewing: 60–300 Hz, mono.
    public static let wideband = ActuatorProfile(name: "wideband", minFrequency: 60, maxFrequency: 300)
    /// Linear resonant actuators, whose band is narrow around resonance: 140–220 Hz, mono.
    public static let lra = ActuatorProfile(name: "lra", minFrequency: 140, maxFrequency: 220)
    /// Sony DualSense over USB: 4 channels at 48 kHz only, haptics on channels 3–4 (left/right
    /// voice coils), 1–2 (speaker/headphones) silent but for audio events.
    public static let dualsense = ActuatorProfile(
        name: "dualsense", minFrequency: 50, maxFrequency: 300, sampleRate: 48_000,
        allowedSampleRates: [48_000], channelCount: 4, hapticChannels: [2, 3])
    /// Bass shakers and seat transducers: 25–80 Hz, mono.
    public static let shaker = ActuatorProfile(name: "shaker", minFrequency: 25, maxFrequency: 80)

    /// The built-in profiles, default first.
    public static let builtIn: [ActuatorProfile] = [.wideband, .lra, .dualsense, .shaker]

    /// The built-in profile with that name, if any.
    public static func named(_ name: String) -> ActuatorProfile? {
        builtIn.first { $0.name == name.lowercased() }
    }

    /// Zero-based channels that carry audio events (`AudioContinuous`, `AudioCustom`), left
    /// then right (one channel: the pair summed to mono). Audio is mixed into the same output
    /// as the haptics:
    ///
    /// - a profile with silent channels sends audio to the first two of them: the DualSense's
    ///   speaker/headphone channels 1–2, while haptics drive 3–4;
    /// - a profile whose every channel carries haptics (the mono profiles `wideband`, `lra`,
    ///   `shaker`, copied to every device channel) adds audio to channels 1 and 2 (left,
    ///   right) of a stereo-or-wider output, or sums it to mono on a one-channel output.
    public var audioChannels: [Int] {
        let silent = (0..<channelCount).filter { !hapticChannels.contains($0) }
        if silent.count >= 2 { return Array(silent.prefix(2)) }
        if silent.count == 1 { return silent }
        return channelCount >= 2 ? [0, 1] : [0]
    }

    /// The frequency for a sharpness value (clamped to 0…1): `fMin + s·(fMax − fMin)`.
    @inlinable public func frequency(sharpness: Double) -> Double {
        minFrequency + min(max(sharpness, 0), 1) * (maxFrequency - minFrequency)
    }

    /// The amplitude for an intensity value (clamped to 0…1): `intensity ^ exponent`.
    @inlinable public func amplitude(intensity: Double) -> Double {
        let i = min(max(intensity, 0), 1)
        return intensityExponent == 2 ? i * i : pow(i, intensityExponent)
    }

    /// Checks that the profile can render at `rate`, returning the reason when it cannot: a rate
    /// outside ``allowedSampleRates``, outside ``sampleRateRange``, or not above twice
    /// ``maxFrequency``.
    public func problem(withSampleRate rate: Int) -> String? {
        if let allowed = allowedSampleRates, !allowed.contains(rate) {
            return "profile '\(name)' supports only \(allowed.map { "\($0) Hz" }.joined(separator: ", "))"
        }
        // Also for a rate the profile allows: a profile made in code is not checked.
        guard Self.sampleRateRange.contains(rate) else { return "sample rate must be between 8000 and 192000 Hz" }
        guard Double(rate) > 2 * maxFrequency else {
            return "sample rate \(rate) Hz is too low for frequencies up to \(maxFrequency) Hz"
        }
        return nil
    }
}
