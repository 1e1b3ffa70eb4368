/// One force-feedback input device, as `haptics devices` lists it.
public struct RumbleDeviceInfo: Sendable, Hashable, Codable {
    /// The device node, e.g. `/dev/input/event5`.
    public var path: String
    /// The device's name, e.g. "Xbox Wireless Controller"; empty when unknown.
    public var name: String
    /// `FF_RUMBLE`: strong and weak motors.
    public var supportsRumble: Bool
    /// `FF_PERIODIC` with a usable waveform: rumble is emulated with it when `FF_RUMBLE` is
    /// missing.
    public var supportsPeriodic: Bool
    /// `FF_GAIN`: the gain is applied by the device.
    public var supportsGain: Bool
    /// Effects the device holds at once; nil when the node could not be opened to ask.
    public var simultaneousEffects: Int?
    /// Whether this process may open the node read-write, i.e. play on it.
    public var accessible: Bool
    /// Why it cannot be used, when it cannot (permission denied with the fix, no rumble).
    public var note: String?

    /// Creates a row.
    package init(
        path: String, name: String, supportsRumble: Bool, supportsPeriodic: Bool, supportsGain: Bool,
        simultaneousEffects: Int?, accessible: Bool, note: String? = nil
    ) {
        self.path = path
        self.name = name
        self.supportsRumble = supportsRumble
        self.supportsPeriodic = supportsPeriodic
        self.supportsGain = supportsGain
        self.simultaneousEffects = simultaneousEffects
        self.accessible = accessible
        self.note = note
    }

    /// Whether `haptics play --rumble` can use it.
    public var isUsable: Bool { accessible && (supportsRumble || supportsPeriodic) }

    /// What it can do, e.g. "rumble, gain, 16 effects".
    public var capabilitySummary: String {
        var parts: [String] = []
        if supportsRumble { parts.append("rumble") }
        if supportsPeriodic { parts.append(supportsRumble ? "periodic" : "periodic (rumble emulated)") }
        if supportsGain { parts.append("gain") }
        if let simultaneousEffects { parts.append("\(simultaneousEffects) effects") }
        return parts.isEmpty ? "force feedback without rumble" : parts.joined(separator: ", ")
    }

    /// One line for a text listing: path, name, capabilities and the note if any.
    public var summaryLine: String {
        let label = name.isEmpty ? "(unnamed)" : name
        let note = note.map { " [\($0)]" } ?? ""
        return "\(path)  \(label)  \(capabilitySummary)\(note)"
    }
}
