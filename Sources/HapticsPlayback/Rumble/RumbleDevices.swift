import FoundationEssentials
import Glibc

/// Finding and opening force-feedback input devices.
public enum RumbleDevices {
    /// Where evdev nodes live.
    package static let inputDirectory = "/dev/input"
    /// Where the kernel describes them, readable by everyone.
    package static let sysfsInputDirectory = "/sys/class/input"

    /// The force-feedback devices among `/dev/input/event*`, in node order.
    ///
    /// Each node is opened read-write (what playing needs) to ask its name and `EV_FF` bits, then
    /// closed. A node this process may not open is still listed, with `accessible == false` and
    /// a note, its name and capabilities read from sysfs, so a user sees the controller and
    /// learns they lack permission rather than that nothing is there. Nodes without force
    /// feedback, and nodes whose capabilities cannot be learnt at all, are left out. No
    /// `/dev/input` (a container, a server) gives an empty list, not an error.
    public static func list() -> [RumbleDeviceInfo] {
        list(inputDirectory: inputDirectory, sysfsDirectory: sysfsInputDirectory)
    }

    /// ``list()`` over other directories, for tests.
    static func list(inputDirectory: String, sysfsDirectory: String) -> [RumbleDeviceInfo] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: inputDirectory)) ?? []
        let nodes = entries.compactMap { entry in eventNumber(entry).map { (number: $0, name: entry) } }
            .sorted { $0.number < $1.number }
        return nodes.compactMap { node in
            describe(path: inputDirectory + "/" + node.name, sysfsNode: sysfsDirectory + "/" + node.name)
        }
    }

    /// Opens a rumble output.
    ///
    /// - Parameter device: nil for the first usable device; a path (anything with a `/`);
    ///   `eventN`; or part of a device name, case-insensitive ("xbox", "DualSense").
    /// - Parameter gain: 0…1, see ``EvdevRumbleOutput/init(device:gain:)``.
    public static func open(_ device: String?, gain: Double = 1) throws(RumbleOutputError) -> EvdevRumbleOutput {
        let path: String
        if let device, device.contains("/") {
            path = device
        } else if let device, eventNumber(device) != nil {
            path = inputDirectory + "/" + device
        } else {
            path = try resolve(device, among: list())
        }
        return try open(path: path, gain: gain)
    }

    /// Opens the node at `path` as a rumble output.
    public static func open(path: String, gain: Double = 1) throws(RumbleOutputError) -> EvdevRumbleOutput {
        let device: LinuxForceFeedbackDevice
        do {
            device = try LinuxForceFeedbackDevice(path: path)
        } catch {
            throw .unavailable(path, error)
        }
        return try EvdevRumbleOutput(device: device, gain: gain)
    }

    /// The path of the device `query` names among `devices` (nil: the first usable one).
    ///
    /// A named device that is present but unusable is still returned, so that opening it
    /// reports the precise reason (permission, no rumble).
    static func resolve(_ query: String?, among devices: [RumbleDeviceInfo]) throws(RumbleOutputError) -> String {
        let rumbleCapable = devices.filter { $0.supportsRumble || $0.supportsPeriodic }
        guard let query else {
            if let usable = rumbleCapable.first(where: \.accessible) { return usable.path }
            if let denied = rumbleCapable.first { return denied.path }
            if let other = devices.first {
                throw .deviceUnavailable(
                    device: other.path, reason: "supports force feedback, but neither rumble nor periodic effects")
            }
            throw .deviceUnavailable(
                device: inputDirectory + "/event*",
                reason: "no force-feedback input device found (is the controller connected? `haptics devices` lists them)")
        }
        let matches = devices.filter { $0.name.lowercased().contains(query.lowercased()) }
        if let match = matches.first(where: \.isUsable) ?? matches.first { return match.path }
        throw .deviceUnavailable(
            device: query, reason: "no force-feedback device has this in its name (`haptics devices` lists them)")
    }

    /// N for a node called `eventN`.
    package static func eventNumber(_ name: String) -> Int? {
        guard name.hasPrefix("event") else { return nil }
        let digits = name.dropFirst("event".count)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    private static func describe(path: String, sysfsNode: String) -> RumbleDeviceInfo? {
        let device: LinuxForceFeedbackDevice
        do {
            device = try LinuxForceFeedbackDevice(path: path)
        } catch {
            guard error.code == EACCES || error.code == EPERM else { return nil }
            return describeFromSysfs(path: path, sysfsNode: sysfsNode)
        }
        defer { device.close() }
        guard let capabilities = try? device.supportedEffects(), capabilities.hasForceFeedback else { return nil }
        let info = info(path: path, name: (try? device.name()) ?? "", capabilities: capabilities, accessible: true)
        return info
    }

    private static func describeFromSysfs(path: String, sysfsNode: String) -> RumbleDeviceInfo? {
        let bitmap = try? String(contentsOfFile: sysfsNode + "/device/capabilities/ff", encoding: .utf8)
        guard let bitmap, let capabilities = ForceFeedbackCapabilities(sysfsBitmap: bitmap),
            capabilities.hasForceFeedback
        else { return nil }
        let name = (try? String(contentsOfFile: sysfsNode + "/device/name", encoding: .utf8)) ?? ""
        return info(
            path: path, name: name.trimmingCharacters(in: " \t\n\r"), capabilities: capabilities,
            accessible: false)
    }

    /// A row from what is known of a device. Capabilities read from sysfs lack the effect
    /// count, which only `EVIOCGEFFECTS` tells: 0 stands for unknown (a force-feedback device
    /// holds at least one).
    static func info(
        path: String, name: String, capabilities: ForceFeedbackCapabilities, accessible: Bool
    ) -> RumbleDeviceInfo {
        let usableKind = RumbleEffectKind(capabilities: capabilities) != nil
        let note: String? =
            if !accessible {
                "no permission to open it read-write; see the udev rule"
            } else if !usableKind {
                "no rumble or periodic effects"
            } else {
                nil
            }
        return RumbleDeviceInfo(
            path: path, name: name, supportsRumble: capabilities.supportsRumble,
            supportsPeriodic: capabilities.supportsPeriodic, supportsGain: capabilities.supportsGain,
            simultaneousEffects: capabilities.simultaneousEffects > 0 ? capabilities.simultaneousEffects : nil,
            accessible: accessible,
            note: note)
    }
}
