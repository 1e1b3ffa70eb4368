internal import CALSA
import Glibc

/// An ALSA playback device as ALSA's name hints describe it, with what could be learnt by
/// probing it.
public struct ALSADevice: Sendable, Codable, Equatable {
    /// The PCM name to pass to ``ALSAOutput/init(device:sampleRate:channelCount:latency:formats:)``.
    public var name: String
    /// ALSA's description of the device, its lines joined with ", ".
    public var description: String
    /// The sound card the device belongs to (the `CARD=` part of its name); nil for software
    /// devices such as `null` and `pulse`.
    public var card: String?
    /// The channel counts the hardware takes; only known for `hw:` devices that could be probed.
    public var channels: ALSARange?
    /// The sample rates, in Hz, the hardware takes; only known for probed `hw:` devices.
    public var sampleRates: ALSARange?
    /// The ALSA sample formats the hardware takes (`S16_LE`, `FLOAT_LE`, …); only for probed `hw:` devices.
    public var formats: [String]?
    /// The device is held by another program, so it was not probed.
    public var isBusy: Bool
    /// The shortest period and buffer the device allows for the engine's sample format at
    /// 48 kHz (or its nearest rate): the lowest latency it can achieve. Nil when the device
    /// could not be opened (busy, missing, or its server is not running).
    public var latency: ALSALatencyLimits?

    /// Creates a listing entry.
    public init(
        name: String, description: String, card: String? = nil, channels: ALSARange? = nil,
        sampleRates: ALSARange? = nil, formats: [String]? = nil, isBusy: Bool = false, latency: ALSALatencyLimits? = nil
    ) {
        self.name = name
        self.description = description
        self.card = card
        self.channels = channels
        self.sampleRates = sampleRates
        self.formats = formats
        self.isBusy = isBusy
        self.latency = latency
    }

    private enum CodingKeys: String, CodingKey {
        case name, description, card, channels, sampleRates, formats, latency
        case isBusy = "busy"
    }
}

/// An inclusive range of integers, as ALSA reports hardware limits.
public struct ALSARange: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The smallest value.
    public var min: Int
    /// The largest value.
    public var max: Int

    /// Creates a range.
    public init(min: Int, max: Int) {
        self.min = min
        self.max = max
    }

    /// "2" or "2–8".
    public var description: String { min == max ? "\(min)" : "\(min)–\(max)" }
}

/// The shortest period and buffer a device allows, in frames at ``sampleRate`` and in
/// milliseconds: what the lowest-latency configuration can get from it (the engine keeps at
/// least three periods in its buffer).
public struct ALSALatencyLimits: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The rate the limits were asked at: 48 kHz, or the device's nearest.
    public var sampleRate: Int
    /// The shortest period, in frames.
    public var minimumPeriodFrames: Int
    /// The shortest buffer, in frames.
    public var minimumBufferFrames: Int
    /// The shortest period, in milliseconds.
    public var minimumPeriodMilliseconds: Double
    /// The shortest buffer, in milliseconds.
    public var minimumBufferMilliseconds: Double

    /// Creates limits from frame counts at `sampleRate`.
    public init(sampleRate: Int, minimumPeriodFrames: Int, minimumBufferFrames: Int) {
        self.sampleRate = sampleRate
        self.minimumPeriodFrames = minimumPeriodFrames
        self.minimumBufferFrames = minimumBufferFrames
        let milliseconds = { (frames: Int) in (Double(frames) * 1_000_000 / Double(max(1, sampleRate))).rounded() / 1000 }
        minimumPeriodMilliseconds = milliseconds(minimumPeriodFrames)
        minimumBufferMilliseconds = milliseconds(minimumBufferFrames)
    }

    /// "period ≥ 2.5 ms, buffer ≥ 7.5 ms".
    public var description: String {
        "period ≥ \(Self.format(minimumPeriodMilliseconds)) ms, buffer ≥ \(Self.format(minimumBufferMilliseconds)) ms"
    }

    private static func format(_ milliseconds: Double) -> String {
        milliseconds >= 10 ? String(Int(milliseconds.rounded())) : String((milliseconds * 100).rounded() / 100)
    }
}

/// A sound card ALSA knows about.
public struct ALSASoundCard: Sendable, Codable, Equatable {
    /// The card number, as in `hw:0`.
    public var index: Int
    /// The card's short name.
    public var name: String
    /// The card's long name (bus, address, codec).
    public var longName: String

    /// Creates a card entry.
    public init(index: Int, name: String, longName: String) {
        self.index = index
        self.name = name
        self.longName = longName
    }
}

/// Lists what ALSA can play to.
public enum ALSADevices {
    /// Whether alsa-lib is installed (it is opened on first use rather than linked): without
    /// it there is nothing to list and `play` renders to a file instead.
    public static var isAvailable: Bool { ALSADiagnostics.isLibraryAvailable }

    /// Every PCM that ALSA's name hints offer for playback (hints marked input-only are left
    /// out), in ALSA's order. Each (but `jack`) is opened non-blocking for a moment to read its
    /// ``ALSADevice/latency`` limits, and `hw:` devices their channel, rate and format limits
    /// too; a busy one is marked ``ALSADevice/isBusy`` instead of waited for.
    public static func playbackDevices() -> [ALSADevice] {
        ALSADiagnostics.begin()
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) >= 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }

        var devices: [ALSADevice] = []
        var seen = Set<String>()
        var index = 0
        while let hint = hints[index] {
            index += 1
            guard let name = hintValue(hint, "NAME"), !seen.contains(name) else { continue }
            // IOID is absent for devices that do both directions.
            if let direction = hintValue(hint, "IOID"), direction != "Output" { continue }
            seen.insert(name)
            let description = (hintValue(hint, "DESC") ?? "")
                .split(separator: "\n").map { $0.trimmingCharacters(in: " \t") }.joined(separator: ", ")
            var device = ALSADevice(name: name, description: description, card: cardName(in: name))
            if !unprobed.contains(name) { probe(&device) }
            devices.append(device)
        }
        return devices
    }

    /// The names of every playback PCM alsa-lib's configuration defines (its name hints),
    /// without opening any: the plugins that are installed (`pulse`, `jack`, `null`, rate
    /// converters) and each card's devices.
    package static func hintNames() -> [String] {
        ALSADiagnostics.begin()
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) >= 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var names: [String] = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            guard let name = hintValue(hint, "NAME"), !names.contains(name) else { continue }
            if let direction = hintValue(hint, "IOID"), direction != "Output" { continue }
            names.append(name)
        }
        return names
    }

    /// The sound cards present; empty on a machine without one.
    public static func soundCards() -> [ALSASoundCard] {
        ALSADiagnostics.begin()
        var cards: [ALSASoundCard] = []
        var card: Int32 = -1
        while snd_card_next(&card) >= 0, card >= 0 {
            cards.append(
                ALSASoundCard(
                    index: Int(card),
                    name: cardString(card, snd_card_get_name) ?? "card \(card)",
                    longName: cardString(card, snd_card_get_longname) ?? ""
                ))
        }
        return cards
    }

    private static func hintValue(_ hint: UnsafeMutableRawPointer, _ key: String) -> String? {
        guard let value = snd_device_name_get_hint(hint, key) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }

    private static func cardString(_ card: Int32, _ get: (Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard get(card, &value) >= 0, let value else { return nil }
        defer { free(value) }
        return String(cString: value)
    }

    /// "PCH" from "hw:CARD=PCH,DEV=0".
    static func cardName(in name: String) -> String? {
        guard let range = name.firstRange(of: "CARD=") else { return nil }
        let rest = name[range.upperBound...]
        return String(rest.prefix { $0 != "," && $0 != "'" && $0 != "\"" })
    }

    /// Devices not opened to probe them: libjack, when no JACK server runs, tries to start one
    /// and writes its failure to the process's standard error, which is not ours to write to.
    static let unprobed: Set<String> = ["jack"]

    /// Reads a device's limits without claiming it for longer than the query.
    private static func probe(_ device: inout ALSADevice) {
        var opened: OpaquePointer?
        let result = snd_pcm_open(&opened, device.name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        if result == -EBUSY {
            device.isBusy = true
            return
        }
        guard result >= 0, let pcm = opened else { return }
        defer { snd_pcm_close(pcm) }
        var params: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&params) >= 0, let params else { return }
        defer { snd_pcm_hw_params_free(params) }
        guard snd_pcm_hw_params_any(pcm, params) >= 0 else { return }
        if device.name.hasPrefix("hw:") { readHardwareLimits(pcm, params, into: &device) }
        device.latency = latencyLimits(pcm, params)
    }

    /// The shortest period and buffer once access, format (the engine's: Float32, else
    /// 16-bit), channels and rate are fixed as the engine would fix them: the limits of a
    /// plugin device (pulse's minimum period is in bytes) depend on them. Narrows `params`.
    private static func latencyLimits(_ pcm: OpaquePointer, _ params: OpaquePointer) -> ALSALatencyLimits? {
        guard snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED) >= 0 else { return nil }
        guard let format = [ALSASampleFormat.float32, .s16].first(where: { snd_pcm_hw_params_test_format(pcm, params, $0.pcmFormat) == 0 }),
            snd_pcm_hw_params_set_format(pcm, params, format.pcmFormat) >= 0
        else { return nil }
        var channels: UInt32 = 1
        guard snd_pcm_hw_params_set_channels_near(pcm, params, &channels) >= 0 else { return nil }
        var rate: UInt32 = 48_000
        var direction: Int32 = 0
        guard snd_pcm_hw_params_set_rate_near(pcm, params, &rate, &direction) >= 0, rate > 0 else { return nil }
        var period: snd_pcm_uframes_t = 0
        var buffer: snd_pcm_uframes_t = 0
        guard snd_pcm_hw_params_get_period_size_min(params, &period, &direction) >= 0,
            snd_pcm_hw_params_get_buffer_size_min(params, &buffer) >= 0
        else { return nil }
        return ALSALatencyLimits(sampleRate: Int(rate), minimumPeriodFrames: Int(period), minimumBufferFrames: Int(buffer))
    }

    /// A sound card's channel, rate and format limits.
    private static func readHardwareLimits(_ pcm: OpaquePointer, _ params: OpaquePointer, into device: inout ALSADevice) {

        var low: UInt32 = 0
        var high: UInt32 = 0
        var direction: Int32 = 0
        if snd_pcm_hw_params_get_channels_min(params, &low) >= 0, snd_pcm_hw_params_get_channels_max(params, &high) >= 0 {
            device.channels = ALSARange(min: Int(low), max: Int(high))
        }
        if snd_pcm_hw_params_get_rate_min(params, &low, &direction) >= 0, snd_pcm_hw_params_get_rate_max(params, &high, &direction) >= 0 {
            device.sampleRates = ALSARange(min: Int(low), max: Int(high))
        }
        device.formats = (0...SND_PCM_FORMAT_LAST.rawValue).compactMap { raw in
            let format = snd_pcm_format_t(rawValue: raw)
            guard snd_pcm_hw_params_test_format(pcm, params, format) == 0, let name = snd_pcm_format_name(format) else { return nil }
            return String(cString: name)
        }
    }
}
