import CLinuxInput
import FoundationEssentials
import Glibc
import HapticsPlayback

/// Finds every haptic output of a machine: evdev force-feedback devices (vibration motors,
/// gamepads, haptic touchpads) and sound cards (the DualSense's audio haptics, speakers).
///
/// It reads what the kernel publishes, from roots that tests replace with a tree of their own:
/// `/dev/input/event*` (each node opened through the ``ForceFeedbackDevice`` seam for its name
/// and `EVIOCGBIT(EV_FF)` bitmap), `/sys/class/input/eventN/device` (`capabilities/ff`, `name`,
/// `id/vendor`, `id/product`, and the parent's `driver` link), and `/proc/asound` (`cards`,
/// `cardN/id`, `cardN/usbid`). Nodes whose sysfs bitmap has no force feedback (keyboards,
/// mice) are not opened. Cheap enough for every `haptics play`: a directory listing, a few
/// small files and, per force-feedback node, an open and three ioctls.
package struct HapticOutputDiscovery: Sendable {
    /// Where the kernel's files are.
    package struct Roots: Sendable, Hashable {
        /// The evdev nodes: `/dev/input`.
        package var inputDirectory: String
        /// Their sysfs descriptions: `/sys/class/input`.
        package var sysfsInputDirectory: String
        /// ALSA's cards: `/proc/asound`.
        package var soundCardDirectory: String
        /// The cards' device nodes: `/dev/snd` (`pcmC1D0p`, whose access says whether this
        /// user may play on the card).
        package var soundDeviceDirectory: String

        /// Creates roots.
        package init(inputDirectory: String, sysfsInputDirectory: String, soundCardDirectory: String, soundDeviceDirectory: String = "/dev/snd") {
            self.inputDirectory = inputDirectory
            self.sysfsInputDirectory = sysfsInputDirectory
            self.soundCardDirectory = soundCardDirectory
            self.soundDeviceDirectory = soundDeviceDirectory
        }

        /// The running system's.
        package static let system = Roots(
            inputDirectory: RumbleDevices.inputDirectory, sysfsInputDirectory: RumbleDevices.sysfsInputDirectory,
            soundCardDirectory: "/proc/asound")
    }

    /// Opens an evdev node read-write (the seam tests replace with a recording fake).
    package typealias Opener = @Sendable (_ path: String) throws(ForceFeedbackDeviceError) -> any ForceFeedbackDevice

    /// Where to look.
    package var roots: Roots
    /// How evdev nodes are opened.
    package var open: Opener
    /// Whether this process may open a sound card's node read-write (`access(2)`; tests
    /// replace it, since root may open anything).
    package var mayOpenSoundDevice: @Sendable (_ path: String) -> Bool = { access($0, R_OK | W_OK) == 0 }

    /// Creates a discovery over `roots`, opening nodes with `open`.
    package init(roots: Roots, open: @escaping Opener) {
        self.roots = roots
        self.open = open
    }

    /// The running system's discovery.
    package static let system = HapticOutputDiscovery(roots: .system) { path throws(ForceFeedbackDeviceError) in
        try LinuxForceFeedbackDevice(path: path)
    }

    /// A discovery for code run inside `$override.withValue(…)`: lets tests give code that
    /// discovers by itself (``HapticOutputSelection/current``, `CHHapticEngine()`) a machine
    /// of their own.
    @TaskLocal package static var override: HapticOutputDiscovery?

    /// The variable naming another machine's tree to discover instead of this one's:
    /// `$HAPTICS_SYSTEM_ROOT/dev/input`, `…/sys/class/input`, `…/proc/asound` (tests, and
    /// inspecting a copy of a device's files). Its nodes may be regular files: they are then
    /// described from sysfs alone and cannot play.
    package static let rootVariable = "HAPTICS_SYSTEM_ROOT"

    /// ``override``, else the tree `HAPTICS_SYSTEM_ROOT` names, else ``system``.
    package static var current: HapticOutputDiscovery {
        if let override { return override }
        if let value = getenv(rootVariable), value.pointee != 0 { return rooted(at: String(cString: value)) }
        return system
    }

    /// Discovery over a copy of a machine's files under `root`.
    package static func rooted(at root: String) -> HapticOutputDiscovery {
        let roots = Roots(
            inputDirectory: root + "/dev/input", sysfsInputDirectory: root + "/sys/class/input", soundCardDirectory: root + "/proc/asound",
            soundDeviceDirectory: root + "/dev/snd")
        return HapticOutputDiscovery(roots: roots) { path throws(ForceFeedbackDeviceError) in
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return try LinuxForceFeedbackDevice(path: path) }
            let node = roots.sysfsInputDirectory + "/" + (path.split(separator: "/").last.map(String.init) ?? "") + "/device"
            return SnapshotForceFeedbackDevice(path: path, sysfs: node)
        }
    }

    /// `FF_HAPTIC`, Linux 6.18's effect for HID haptic touchpads (older headers lack it).
    package static let forceFeedbackHaptic: Int32 = 0x4f

    /// The drivers (and input names) of vibration motors, as feedbackd's udev rule
    /// (`72-feedbackd.rules`) lists them.
    package static let vibrationMotorDrivers: Set<String> = [
        "aw86927-haptics", "aw8695-haptics", "gpio-vibrator", "pwm-vibrator", "regulator-haptic", "isa1200-haptic",
        "max77693-haptic", "twl4030:vibrator", "pm8xxx_vib_ffmemless", "spmi_haptics", "drv260x:haptics", "drv2624:haptics",
        "twl4030-vibra", "twl6040-vibra", "drv260x", "drv2665", "drv2667", "regulator-vibrator",
    ]

    /// Sony's USB vendor id and the DualSense's product ids (DualSense, DualSense Edge).
    package static let sonyVendor = "054c"
    package static let dualSenseProducts: Set<String> = ["0ce6", "0df2"]

    /// Every output, best first: by ``HapticOutput/Kind`` in order of preference, then usable
    /// before unusable, then by device.
    package func outputs() -> [HapticOutput] {
        let all = forceFeedbackOutputs() + soundCardOutputs()
        return all.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.kind != y.kind { return Self.rank(x.kind) < Self.rank(y.kind) }
            if x.isUsable != y.isUsable { return x.isUsable }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The best usable haptic actuator (configured outputs are not discovered): a vibration
    /// motor, else the DualSense's audio haptics, else a gamepad's rumble, else another
    /// actuator. Nil when there is none: speakers are not a haptic actuator.
    package func bestActuator(among outputs: [HapticOutput]? = nil) -> HapticOutput? {
        (outputs ?? self.outputs()).first { $0.isUsable && $0.isHapticActuator && $0.kind != .configured }
    }

    /// The best usable force-feedback actuator: what a rumble engine reopens after its device
    /// went away.
    package func bestForceFeedbackActuator() -> HapticOutput? {
        forceFeedbackOutputs().filter { $0.isUsable }.min { Self.rank($0.kind) < Self.rank($1.kind) }
    }

    static func rank(_ kind: HapticOutput.Kind) -> Int { HapticOutput.Kind.allCases.firstIndex(of: kind) ?? 99 }

    // MARK: evdev

    /// The force-feedback nodes among `eventN`, in node order.
    package func forceFeedbackOutputs() -> [HapticOutput] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: roots.inputDirectory)) ?? []
        let nodes = entries.compactMap { entry in RumbleDevices.eventNumber(entry).map { (number: $0, name: entry) } }
            .sorted { $0.number < $1.number }
        return nodes.compactMap { describe(node: $0.name) }
    }

    /// One node, or nil when it has no force feedback.
    package func describe(node: String) -> HapticOutput? {
        let path = roots.inputDirectory + "/" + node
        let sysfs = roots.sysfsInputDirectory + "/" + node + "/device"
        let sysfsBitmap = read(sysfs + "/capabilities/ff").flatMap { ForceFeedbackCapabilities(sysfsBitmap: $0) }
        if let sysfsBitmap, !sysfsBitmap.hasForceFeedback { return nil }
        var name = read(sysfs + "/name") ?? ""
        var capabilities: ForceFeedbackCapabilities
        var problem: String?
        do {
            let device = try open(path)
            defer { device.close() }
            capabilities = try device.supportedEffects()
            if let asked = try? device.name(), !asked.isEmpty { name = asked }
        } catch {
            guard let sysfsBitmap else { return nil }
            capabilities = sysfsBitmap
            problem =
                error.code == EACCES || error.code == EPERM
                ? permissionProblem(path: path, name: name, driver: driver(sysfs: sysfs))
                : "cannot open it: \(error.systemMessage)"
        }
        guard capabilities.hasForceFeedback else { return nil }
        let driver = driver(sysfs: sysfs)
        let vendor = read(sysfs + "/id/vendor")?.lowercased()
        let product = read(sysfs + "/id/product")?.lowercased()
        let kind = Self.kind(name: name, driver: driver, capabilities: capabilities)
        if problem == nil {
            if kind == .hapticTouchpad {
                // Plays its stored waveforms: nothing else to check.
            } else if RumbleEffectKind(capabilities: capabilities) == nil {
                problem = "supports force feedback, but neither rumble nor periodic effects"
            }
        }
        var words: [String] = []
        if capabilities.supportsRumble { words.append("rumble") }
        if capabilities.supportsPeriodic { words.append("periodic") }
        if capabilities.supports(Self.forceFeedbackHaptic) { words.append("click waveforms") }
        if capabilities.supportsGain { words.append("gain") }
        if capabilities.simultaneousEffects > 0 { words.append("\(capabilities.simultaneousEffects) effects") }
        let isDualSense = vendor == Self.sonyVendor && product.map(Self.dualSenseProducts.contains) == true
        return HapticOutput(
            device: path, name: isDualSense && name.isEmpty ? "DualSense" : name, kind: kind, transport: .evdev,
            driver: driver, capabilities: words, latencyMilliseconds: 10, playsAudio: false, problem: problem)
    }

    /// What a force-feedback device is, from its names and bits.
    package static func kind(name: String, driver: String?, capabilities: ForceFeedbackCapabilities) -> HapticOutput.Kind {
        let known = vibrationMotorDrivers
        if known.contains(name) || driver.map(known.contains) == true { return .vibrationMotor }
        if capabilities.supports(forceFeedbackHaptic) && !capabilities.supportsRumble { return .hapticTouchpad }
        if capabilities.supportsRumble { return .gamepadRumble }
        return .otherActuator
    }

    /// The driver bound to the input device's parent: the last part of `device/device/driver`.
    func driver(sysfs: String) -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: sysfs + "/device/driver") else { return nil }
        let name = target.split(separator: "/").last.map(String.init)
        return name?.isEmpty == false ? name : nil
    }

    /// "no permission …": who may open the node, and the two fixes.
    func permissionProblem(path: String, name: String, driver: String?) -> String {
        var owner = ""
        var info = stat()
        if stat(path, &info) == 0 {
            let group = getgrgid(info.st_gid).flatMap { $0.pointee.gr_name.map { String(cString: $0) } } ?? "\(info.st_gid)"
            owner = " (group '\(group)', mode \(String(info.st_mode & 0o777, radix: 8)))"
            if group != "root" {
                return
                    "no permission to open it read-write\(owner): join the group (sudo usermod -aG \(group) $USER, then log in again) or add the udev rule `haptics doctor` shows"
            }
        }
        return "no permission to open it read-write\(owner): add the udev rule `haptics doctor` shows, then replug it"
    }

    // MARK: sound cards

    /// The sound cards in `/proc/asound`: the DualSense's as its audio haptics, the others as
    /// speakers.
    package func soundCardOutputs() -> [HapticOutput] {
        let root = roots.soundCardDirectory
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let cards = entries.compactMap { entry -> Int? in
            guard entry.hasPrefix("card"), let number = Int(entry.dropFirst(4)) else { return nil }
            return number
        }.sorted()
        let names = cardNames()
        return cards.map { number in
            let folder = "\(root)/card\(number)"
            let id = read(folder + "/id") ?? "\(number)"
            let usb = read(folder + "/usbid")?.lowercased().split(separator: ":").map(String.init) ?? []
            let name = names[number] ?? id
            let problem = soundDeviceProblem(card: number)
            let isDualSense = usb.count == 2 && usb[0] == Self.sonyVendor && Self.dualSenseProducts.contains(usb[1])
            if isDualSense {
                return HapticOutput(
                    device: "hw:CARD=\(id),DEV=0", name: name, kind: .dualSenseAudio, transport: .audio, driver: "snd-usb-audio",
                    capabilities: ["4 channels (haptics on 3–4)", "48 kHz"], profile: "dualsense", latencyMilliseconds: 20,
                    playsAudio: true, problem: problem)
            }
            return HapticOutput(
                device: "plughw:CARD=\(id),DEV=0", name: name, kind: .speakers, transport: .audio,
                capabilities: ["audio"], latencyMilliseconds: 20, playsAudio: true, problem: problem)
        }
    }

    /// Why this user may not play on card `card`: its playback node (`pcmCND0p`) is there but
    /// cannot be opened read-write; the group that may, and how to join it.
    func soundDeviceProblem(card: Int) -> String? {
        let node = "\(roots.soundDeviceDirectory)/pcmC\(card)D0p"
        guard FileManager.default.fileExists(atPath: node), !mayOpenSoundDevice(node) else { return nil }
        var info = stat()
        let group =
            stat(node, &info) == 0 ? getgrgid(info.st_gid).flatMap { $0.pointee.gr_name.map { String(cString: $0) } } ?? "\(info.st_gid)" : "audio"
        return "no permission to open \(node) (group '\(group)'): join the group (sudo usermod -aG \(group) $USER, then log in again)"
    }

    /// Card number → long name, from `/proc/asound/cards` (" 0 [PCH ]: HDA-Intel - HDA Intel PCH").
    func cardNames() -> [Int: String] {
        guard let text = read(roots.soundCardDirectory + "/cards") else { return [:] }
        var names: [Int: String] = [:]
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmedBlanks
            guard let first = trimmed.split(separator: " ").first, let number = Int(first),
                let dash = trimmed.firstRange(of: " - ")
            else { continue }
            names[number] = trimmed[dash.upperBound...].trimmedBlanks
        }
        return names
    }

    private func read(_ path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let trimmed = text.trimmedBlanks
        return trimmed.isEmpty ? nil : trimmed
    }
}

extension StringProtocol {
    /// The text without ASCII blanks (spaces, tabs, line ends) at either end: what sysfs and
    /// /proc files hold around their values.
    var trimmedBlanks: String {
        var slice = Substring(self)
        while let first = slice.first, " \t\n\r".contains(first) { slice.removeFirst() }
        while let last = slice.last, " \t\n\r".contains(last) { slice.removeLast() }
        return String(slice)
    }
}

/// A copied node (a regular file) described from its copied sysfs files: answers the name and
/// capabilities, and refuses to play (`ENOTTY`, as the kernel does for a file that is not an
/// input device).
final class SnapshotForceFeedbackDevice: ForceFeedbackDevice {
    let path: String
    private let sysfs: String

    init(path: String, sysfs: String) {
        self.path = path
        self.sysfs = sysfs
    }

    func name() throws(ForceFeedbackDeviceError) -> String {
        ((try? String(contentsOfFile: sysfs + "/name", encoding: .utf8)) ?? "").trimmedBlanks
    }

    func supportedEffects() throws(ForceFeedbackDeviceError) -> ForceFeedbackCapabilities {
        let text = (try? String(contentsOfFile: sysfs + "/capabilities/ff", encoding: .utf8)) ?? ""
        guard let capabilities = ForceFeedbackCapabilities(sysfsBitmap: text) else { throw ForceFeedbackDeviceError(.queryCapabilities, code: ENOTTY) }
        return capabilities
    }

    func upload(_ effect: inout ff_effect) throws(ForceFeedbackDeviceError) { throw ForceFeedbackDeviceError(.upload, code: ENOTTY) }
    func erase(effectID: Int16) throws(ForceFeedbackDeviceError) { throw ForceFeedbackDeviceError(.erase, code: ENOTTY) }
    func write(_ event: input_event) throws(ForceFeedbackDeviceError) { throw ForceFeedbackDeviceError(.write, code: ENOTTY) }
    func close() {}
}
