// Tests of the output layer: discovery over fake /dev/input and /sys/class/input trees, the
// choice table, capabilities.
import CLinuxInput
import Foundation
import Glibc
import HapticsOutputs
import HapticsTestSupport
import Synchronization

/// `EV_FF` codes, as linux/input.h numbers them.
enum FF {
    static let haptic: Int32 = 0x4f
    static let rumble: Int32 = 0x50
    static let periodic: Int32 = 0x51
    static let square: Int32 = 0x58
    static let triangle: Int32 = 0x59
    static let sine: Int32 = 0x5a
    static let gain: Int32 = 0x60
}

/// The bitmaps real devices publish in sysfs's `capabilities/ff` (64-bit words, most
/// significant first) and return from `EVIOCGBIT(EV_FF, …)`.
enum Bitmap {
    /// An ff-memless device with FF_RUMBLE: the driver's rumble, plus the periodic waveforms and
    /// gain ff-memless adds (an Xbox 360 pad, hid-playstation's DualSense, gpio-vibrator).
    static let memlessRumble = "107030000 0"
    /// A haptic touchpad: FF_HAPTIC only.
    static let hapticTouchpad = "8000 0"
    /// A keyboard: no force feedback.
    static let none = "0"
}

/// A force-feedback node that answers like the kernel and records what is asked of it.
final class FakeForceFeedbackDevice: ForceFeedbackDevice, Sendable {
    enum Call: Equatable {
        case name, supportedEffects
        case upload(type: UInt16, id: Int16)
        case erase(Int16)
        case write(type: UInt16, code: UInt16, value: Int32)
        case close
    }

    let path: String
    let deviceName: String
    let capabilities: ForceFeedbackCapabilities
    private let log: Mutex<[Call]>

    init(path: String, name: String, capabilities: ForceFeedbackCapabilities) {
        self.path = path
        deviceName = name
        self.capabilities = capabilities
        log = Mutex([])
    }

    var calls: [Call] { log.withLock { $0 } }

    func name() throws(ForceFeedbackDeviceError) -> String {
        log.withLock { $0.append(.name) }
        return deviceName
    }

    func supportedEffects() throws(ForceFeedbackDeviceError) -> ForceFeedbackCapabilities {
        log.withLock { $0.append(.supportedEffects) }
        return capabilities
    }

    func upload(_ effect: inout ff_effect) throws(ForceFeedbackDeviceError) {
        if effect.id == -1 { effect.id = 2 }
        let (type, id) = (effect.type, effect.id)
        log.withLock { $0.append(.upload(type: type, id: id)) }
    }

    func erase(effectID: Int16) throws(ForceFeedbackDeviceError) {
        log.withLock { $0.append(.erase(effectID)) }
    }

    func write(_ event: input_event) throws(ForceFeedbackDeviceError) {
        log.withLock { $0.append(.write(type: event.type, code: event.code, value: event.value)) }
    }

    func close() {
        log.withLock { $0.append(.close) }
    }
}

/// A machine's `/dev/input`, `/sys/class/input` and `/proc/asound`, built in a scratch folder
/// with the kernel's layout, and the evdev nodes' answers behind the discovery's seam.
final class FakeMachine: Sendable {
    let folder: TemporaryFolder
    let roots: HapticOutputDiscovery.Roots
    /// What opening each node gives: a device's name and capabilities (each open a new
    /// descriptor, as the kernel's), or the error it fails with.
    private let nodes = Mutex<[String: Result<(name: String, capabilities: ForceFeedbackCapabilities), ForceFeedbackDeviceError>]>([:])
    /// Every device opened, in order.
    private let opened = Mutex<[FakeForceFeedbackDevice]>([])

    init() throws {
        folder = try TemporaryFolder(prefix: "haptics-machine")
        roots = HapticOutputDiscovery.Roots(
            inputDirectory: folder.path("dev/input"), sysfsInputDirectory: folder.path("sys/class/input"),
            soundCardDirectory: folder.path("proc/asound"))
        for directory in [roots.inputDirectory, roots.sysfsInputDirectory, roots.soundCardDirectory, folder.path("sys/devices")] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
    }

    /// The discovery over this machine.
    var discovery: HapticOutputDiscovery {
        HapticOutputDiscovery(roots: roots) { [self] path throws(ForceFeedbackDeviceError) in
            let result = nodes.withLock { $0[path] } ?? .failure(ForceFeedbackDeviceError(.open, code: ENOENT))
            switch result {
            case .success(let node):
                let device = FakeForceFeedbackDevice(path: path, name: node.name, capabilities: node.capabilities)
                opened.withLock { $0.append(device) }
                return device
            case .failure(let error): throw error
            }
        }
    }

    /// The devices opened so far.
    var openedDevices: [FakeForceFeedbackDevice] { opened.withLock { $0 } }

    /// Adds `eventN` with sysfs's files (`name`, `capabilities/ff`, `id/vendor`, `id/product`,
    /// and the parent device's `driver` link) and what opening it gives (`denied`: EACCES).
    @discardableResult
    func addInputDevice(
        _ number: Int, name: String, ff bitmap: String, driver: String? = nil, vendor: String = "0000", product: String = "0000",
        simultaneousEffects: Int = 16, denied: Bool = false
    ) throws -> String {
        let node = "event\(number)"
        let path = roots.inputDirectory + "/" + node
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        // /sys/class/input/eventN → /sys/devices/…/inputN/eventN; its `device` → inputN.
        let devices = folder.path("sys/devices/parent\(number)")
        let input = devices + "/input/input\(number)"
        let event = input + "/" + node
        try FileManager.default.createDirectory(atPath: event, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: input + "/capabilities", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: input + "/id", withIntermediateDirectories: true)
        try (name + "\n").write(toFile: input + "/name", atomically: false, encoding: .utf8)
        try (bitmap + "\n").write(toFile: input + "/capabilities/ff", atomically: false, encoding: .utf8)
        try (vendor + "\n").write(toFile: input + "/id/vendor", atomically: false, encoding: .utf8)
        try (product + "\n").write(toFile: input + "/id/product", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: event + "/device", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: input + "/device", withDestinationPath: "../..")
        if let driver {
            let driverFolder = folder.path("sys/bus/platform/drivers/\(driver)")
            try FileManager.default.createDirectory(atPath: driverFolder, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: devices + "/driver", withDestinationPath: driverFolder)
        }
        try FileManager.default.createSymbolicLink(atPath: roots.sysfsInputDirectory + "/" + node, withDestinationPath: event)
        let capabilities = ForceFeedbackCapabilities(sysfsBitmap: bitmap, simultaneousEffects: simultaneousEffects)!
        let result: Result<(name: String, capabilities: ForceFeedbackCapabilities), ForceFeedbackDeviceError> =
            denied ? .failure(ForceFeedbackDeviceError(.open, code: EACCES)) : .success((name, capabilities))
        nodes.withLock { $0[path] = result }
        return path
    }

    /// Removes `eventN` as an unplug does.
    func removeInputDevice(_ number: Int) throws {
        try FileManager.default.removeItem(atPath: roots.inputDirectory + "/event\(number)")
        try FileManager.default.removeItem(atPath: roots.sysfsInputDirectory + "/event\(number)")
    }

    /// Adds sound card `number` to `/proc/asound` (`cards`, `cardN/id`, `cardN/usbid` for USB).
    func addSoundCard(_ number: Int, id: String, name: String, usbID: String? = nil) throws {
        let card = roots.soundCardDirectory + "/card\(number)"
        try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true)
        try (id + "\n").write(toFile: card + "/id", atomically: false, encoding: .utf8)
        if let usbID { try (usbID + "\n").write(toFile: card + "/usbid", atomically: false, encoding: .utf8) }
        let cards = roots.soundCardDirectory + "/cards"
        let existing = (try? String(contentsOfFile: cards, encoding: .utf8)) ?? ""
        let padded = id + String(repeating: " ", count: max(0, 15 - id.count))
        let line = " \(number) [\(padded)]: USB-Audio - \(name)\n                      \(name) at usb-0000:00:14.0-1\n"
        try (existing + line).write(toFile: cards, atomically: false, encoding: .utf8)
    }
}

/// The machines of the issue.
enum Machines {
    /// A desktop with an Xbox pad.
    static func gamepad() throws -> FakeMachine {
        let machine = try FakeMachine()
        try machine.addInputDevice(3, name: "AT Translated Set 2 keyboard", ff: Bitmap.none)
        try machine.addInputDevice(
            7, name: "Microsoft X-Box 360 pad", ff: Bitmap.memlessRumble, driver: "xpad", vendor: "045e", product: "028e")
        try machine.addSoundCard(0, id: "PCH", name: "HDA Intel PCH")
        return machine
    }

    /// A PinePhone: gpio-vibrator (rumble and periodic through ff-memless) and its codec.
    static func pinePhone() throws -> FakeMachine {
        let machine = try FakeMachine()
        try machine.addInputDevice(0, name: "1c2ac00.i2c-0 volume keys", ff: Bitmap.none)
        try machine.addInputDevice(1, name: "gpio-vibrator", ff: Bitmap.memlessRumble, driver: "gpio-vibrator")
        try machine.addSoundCard(0, id: "PinePhone", name: "PinePhone")
        return machine
    }

    /// A laptop with a haptic touchpad (FF_HAPTIC) and speakers.
    static func touchpad() throws -> FakeMachine {
        let machine = try FakeMachine()
        try machine.addInputDevice(5, name: "ELAN Haptic Touchpad", ff: Bitmap.hapticTouchpad, driver: "hid-multitouch")
        try machine.addSoundCard(0, id: "PCH", name: "HDA Intel PCH")
        return machine
    }

    /// A laptop with a DualSense plugged in over USB: its evdev node and its sound card.
    static func dualSense() throws -> FakeMachine {
        let machine = try FakeMachine()
        try machine.addSoundCard(0, id: "PCH", name: "HDA Intel PCH")
        try machine.addInputDevice(
            12, name: "Sony Interactive Entertainment DualSense Wireless Controller", ff: Bitmap.memlessRumble, driver: "playstation",
            vendor: "054c", product: "0ce6")
        try machine.addSoundCard(1, id: "Controller", name: "Sony Interactive Entertainment DualSense Wireless Controller", usbID: "054c:0ce6")
        return machine
    }

    /// A gamepad this user may not open.
    static func deniedGamepad() throws -> FakeMachine {
        let machine = try FakeMachine()
        try machine.addInputDevice(
            4, name: "Microsoft X-Box 360 pad", ff: Bitmap.memlessRumble, driver: "xpad", vendor: "045e", product: "028e", denied: true)
        return machine
    }

    /// A laptop with only speakers.
    static func speakersOnly() throws -> FakeMachine {
        let machine = try FakeMachine()
        try machine.addInputDevice(2, name: "AT Translated Set 2 keyboard", ff: Bitmap.none)
        try machine.addSoundCard(0, id: "PCH", name: "HDA Intel PCH")
        return machine
    }

    /// A server or container: nothing at all.
    static func nothing() throws -> FakeMachine { try FakeMachine() }
}
