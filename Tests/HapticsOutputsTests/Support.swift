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

typealias Bitmap = FakeSystemTree.Bitmap

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
    private let periodic = Mutex<[(period: UInt16, magnitude: Int16)]>([])
    private let haptic = Mutex<[(usage: UInt16, intensity: UInt16)]>([])

    init(path: String, name: String, capabilities: ForceFeedbackCapabilities) {
        self.path = path
        deviceName = name
        self.capabilities = capabilities
        log = Mutex([])
    }

    var calls: [Call] { log.withLock { $0 } }
    /// The period and magnitude of every FF_PERIODIC upload, in order.
    var periodicUploads: [(period: UInt16, magnitude: Int16)] { periodic.withLock { $0 } }
    /// The waveform (HID usage) and intensity (percent) of every FF_HAPTIC upload, in order.
    var hapticUploads: [(usage: UInt16, intensity: UInt16)] { haptic.withLock { $0 } }

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
        if type == 0x4f {
            // struct ff_haptic_effect: hid_usage at 0, intensity at 6.
            let fields = withUnsafeBytes(of: effect.u) { ($0.load(fromByteOffset: 0, as: UInt16.self), $0.load(fromByteOffset: 6, as: UInt16.self)) }
            haptic.withLock { $0.append(fields) }
        }
        if type == UInt16(FF_PERIODIC) {
            let (period, magnitude) = (effect.u.periodic.period, effect.u.periodic.magnitude)
            periodic.withLock { $0.append((period, magnitude)) }
        }
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

/// A ``FakeSystemTree`` with the evdev nodes' answers behind the discovery's seam.
final class FakeMachine: Sendable {
    let tree: FakeSystemTree
    let roots: HapticOutputDiscovery.Roots
    /// What opening each node gives: a device's name and capabilities (each open a new
    /// descriptor, as the kernel's), or the error it fails with.
    private let nodes = Mutex<[String: Result<(name: String, capabilities: ForceFeedbackCapabilities), ForceFeedbackDeviceError>]>([:])
    /// Every device opened, in order.
    private let opened = Mutex<[FakeForceFeedbackDevice]>([])

    init(_ tree: FakeSystemTree) {
        self.tree = tree
        roots = HapticOutputDiscovery.Roots(
            inputDirectory: tree.inputDirectory, sysfsInputDirectory: tree.sysfsInputDirectory, soundCardDirectory: tree.soundCardDirectory)
        // The nodes the tree already has answer with what their sysfs files say.
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: tree.inputDirectory)) ?? []
        for entry in entries {
            let sysfs = tree.sysfsInputDirectory + "/" + entry + "/device"
            let name = ((try? String(contentsOfFile: sysfs + "/name", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let bitmap = (try? String(contentsOfFile: sysfs + "/capabilities/ff", encoding: .utf8)) ?? "0"
            let capabilities = ForceFeedbackCapabilities(sysfsBitmap: bitmap, simultaneousEffects: 16)!
            nodes.withLock { $0[tree.inputDirectory + "/" + entry] = .success((name, capabilities)) }
        }
    }

    convenience init() throws { self.init(try FakeSystemTree()) }

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

    /// Adds `eventN` to the tree and what opening it gives (`denied`: EACCES).
    @discardableResult
    func addInputDevice(
        _ number: Int, name: String, ff bitmap: String, driver: String? = nil, vendor: String = "0000", product: String = "0000",
        simultaneousEffects: Int = 16, denied: Bool = false
    ) throws -> String {
        let path = try tree.addInputDevice(number, name: name, ff: bitmap, driver: driver, vendor: vendor, product: product)
        let capabilities = ForceFeedbackCapabilities(sysfsBitmap: bitmap, simultaneousEffects: simultaneousEffects)!
        let result: Result<(name: String, capabilities: ForceFeedbackCapabilities), ForceFeedbackDeviceError> =
            denied ? .failure(ForceFeedbackDeviceError(.open, code: EACCES)) : .success((name, capabilities))
        nodes.withLock { $0[path] = result }
        return path
    }

    /// Removes `eventN` as an unplug does.
    func removeInputDevice(_ number: Int) throws { try tree.removeInputDevice(number) }

    /// Adds a sound card.
    func addSoundCard(_ number: Int, id: String, name: String, usbID: String? = nil) throws {
        try tree.addSoundCard(number, id: id, name: name, usbID: usbID)
    }
}

/// The machines of the issue.
enum Machines {
    static func gamepad() throws -> FakeMachine { FakeMachine(try .machine("gamepad")) }
    static func pinePhone() throws -> FakeMachine { FakeMachine(try .machine("pinephone")) }
    static func touchpad() throws -> FakeMachine { FakeMachine(try .machine("touchpad")) }
    static func dualSense() throws -> FakeMachine { FakeMachine(try .machine("dualsense")) }
    static func speakersOnly() throws -> FakeMachine { FakeMachine(try .machine("speakers")) }
    static func nothing() throws -> FakeMachine { FakeMachine(try .machine("nothing")) }

    /// A gamepad this user may not open.
    static func deniedGamepad() throws -> FakeMachine {
        let machine = try FakeMachine()
        try machine.addInputDevice(
            4, name: "Microsoft X-Box 360 pad", ff: Bitmap.memlessRumble, driver: "xpad", vendor: "045e", product: "028e", denied: true)
        return machine
    }
}
