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

    /// Creates a listing entry.
    public init(
        name: String, description: String, card: String? = nil, channels: ALSARange? = nil,
        sampleRates: ALSARange? = nil, formats: [String]? = nil, isBusy: Bool = false
    ) {
        self.name = name
        self.description = description
        self.card = card
        self.channels = channels
        self.sampleRates = sampleRates
        self.formats = formats
        self.isBusy = isBusy
    }

    private enum CodingKeys: String, CodingKey {
        case name, description, card, channels, sampleRates, formats
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
    /// Every PCM that ALSA's name hints offer for playback (hints marked input-only are left
    /// out), in ALSA's order. `hw:` devices are opened non-blocking to read their channel,
    /// rate and format limits; a busy one is marked ``ALSADevice/isBusy`` instead of waited for.
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
            if name.hasPrefix("hw:") { probe(&device) }
            devices.append(device)
        }
        return devices
    }

    /// The sound cards present; empty on a machine without one.
    public static func soundCards() -> [ALSASoundCard] {
        ALSADiagnostics.begin()
        var cards: [ALSASoundCard] = []
        var card: Int32 = -1
        while snd_card_next(&card) >= 0, card >= 0 {
            cards.append(ALSASoundCard(
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

    /// Reads a hardware device's limits without claiming it for longer than the query.
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

        var low: UInt32 = 0, high: UInt32 = 0, direction: Int32 = 0
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

