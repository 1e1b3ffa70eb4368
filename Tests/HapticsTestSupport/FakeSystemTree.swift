import Foundation

/// A machine's `/dev/input`, `/sys/class/input` and `/proc/asound`, built in a scratch folder
/// with the kernel's layout, for the output layer's discovery (in process, through its roots;
/// in the `haptics` binary, through `HAPTICS_SYSTEM_ROOT`, which names ``root``).
public final class FakeSystemTree: Sendable {
    /// The ff bitmaps real devices publish in sysfs's `capabilities/ff` (64-bit words, most
    /// significant first) and return from `EVIOCGBIT(EV_FF, …)`.
    public enum Bitmap {
        /// An ff-memless device with FF_RUMBLE: the driver's rumble, plus the periodic
        /// waveforms and gain ff-memless adds (an Xbox 360 pad, hid-playstation's DualSense,
        /// gpio-vibrator).
        public static let memlessRumble = "107030000 0"
        /// A haptic touchpad: FF_HAPTIC only.
        public static let hapticTouchpad = "8000 0"
        /// A keyboard: no force feedback.
        public static let none = "0"
    }

    private let folder: TemporaryFolder
    /// The folder standing for `/`.
    public var root: String { folder.path }
    /// `/dev/input`.
    public var inputDirectory: String { folder.path("dev/input") }
    /// `/sys/class/input`.
    public var sysfsInputDirectory: String { folder.path("sys/class/input") }
    /// `/proc/asound`.
    public var soundCardDirectory: String { folder.path("proc/asound") }

    /// An empty machine: nothing at all.
    public init() throws {
        folder = try TemporaryFolder(prefix: "haptics-machine")
        for directory in [inputDirectory, sysfsInputDirectory, soundCardDirectory, folder.path("sys/devices")] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
    }

    /// Adds `eventN` (a regular file standing for the node) with sysfs's files: `name`,
    /// `capabilities/ff`, `id/vendor`, `id/product`, and the parent device's `driver` link.
    /// Returns the node's path.
    @discardableResult
    public func addInputDevice(
        _ number: Int, name: String, ff bitmap: String, driver: String? = nil, vendor: String = "0000", product: String = "0000"
    ) throws -> String {
        let node = "event\(number)"
        let path = inputDirectory + "/" + node
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        // /sys/class/input/eventN → /sys/devices/…/inputN/eventN; its `device` → inputN,
        // whose `device` is the parent the driver is bound to.
        let parent = folder.path("sys/devices/parent\(number)")
        let input = parent + "/input/input\(number)"
        let event = input + "/" + node
        for directory in [event, input + "/capabilities", input + "/id"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try (name + "\n").write(toFile: input + "/name", atomically: false, encoding: .utf8)
        try (bitmap + "\n").write(toFile: input + "/capabilities/ff", atomically: false, encoding: .utf8)
        try (vendor + "\n").write(toFile: input + "/id/vendor", atomically: false, encoding: .utf8)
        try (product + "\n").write(toFile: input + "/id/product", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: event + "/device", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: input + "/device", withDestinationPath: "../..")
        if let driver {
            let driverFolder = folder.path("sys/bus/platform/drivers/\(driver)")
            try FileManager.default.createDirectory(atPath: driverFolder, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: parent + "/driver", withDestinationPath: driverFolder)
        }
        try FileManager.default.createSymbolicLink(atPath: sysfsInputDirectory + "/" + node, withDestinationPath: event)
        return path
    }

    /// Removes `eventN` as an unplug does.
    public func removeInputDevice(_ number: Int) throws {
        try FileManager.default.removeItem(atPath: inputDirectory + "/event\(number)")
        try FileManager.default.removeItem(atPath: sysfsInputDirectory + "/event\(number)")
    }

    /// Adds sound card `number` (`cards`, `cardN/id`, and `cardN/usbid` for a USB card).
    public func addSoundCard(_ number: Int, id: String, name: String, usbID: String? = nil) throws {
        let card = soundCardDirectory + "/card\(number)"
        try FileManager.default.createDirectory(atPath: card, withIntermediateDirectories: true)
        try (id + "\n").write(toFile: card + "/id", atomically: false, encoding: .utf8)
        if let usbID { try (usbID + "\n").write(toFile: card + "/usbid", atomically: false, encoding: .utf8) }
        let cards = soundCardDirectory + "/cards"
        let existing = (try? String(contentsOfFile: cards, encoding: .utf8)) ?? ""
        let padded = id + String(repeating: " ", count: max(0, 15 - id.count))
        let line = " \(number) [\(padded)]: USB-Audio - \(name)\n                      \(name) at usb-0000:00:14.0-1\n"
        try (existing + line).write(toFile: cards, atomically: false, encoding: .utf8)
    }

    /// The machines of issue #26, by name: `gamepad`, `pinephone`, `touchpad`, `dualsense`,
    /// `speakers`, `nothing` (a device without permission needs the in-process seam).
    public static func machine(_ name: String) throws -> FakeSystemTree {
        let tree = try FakeSystemTree()
        switch name {
        case "gamepad":
            try tree.addInputDevice(3, name: "AT Translated Set 2 keyboard", ff: Bitmap.none)
            try tree.addInputDevice(7, name: "Microsoft X-Box 360 pad", ff: Bitmap.memlessRumble, driver: "xpad", vendor: "045e", product: "028e")
            try tree.addSoundCard(0, id: "PCH", name: "HDA Intel PCH")
        case "pinephone":
            try tree.addInputDevice(0, name: "1c2ac00.i2c-0 volume keys", ff: Bitmap.none)
            try tree.addInputDevice(1, name: "gpio-vibrator", ff: Bitmap.memlessRumble, driver: "gpio-vibrator")
            try tree.addSoundCard(0, id: "PinePhone", name: "PinePhone")
        case "touchpad":
            try tree.addInputDevice(5, name: "ELAN Haptic Touchpad", ff: Bitmap.hapticTouchpad, driver: "hid-multitouch")
            try tree.addSoundCard(0, id: "PCH", name: "HDA Intel PCH")
        case "dualsense":
            try tree.addSoundCard(0, id: "PCH", name: "HDA Intel PCH")
            try tree.addInputDevice(
                12, name: "Sony Interactive Entertainment DualSense Wireless Controller", ff: Bitmap.memlessRumble, driver: "playstation",
                vendor: "054c", product: "0ce6")
            try tree.addSoundCard(1, id: "Controller", name: "Sony Interactive Entertainment DualSense Wireless Controller", usbID: "054c:0ce6")
        case "speakers":
            try tree.addInputDevice(2, name: "AT Translated Set 2 keyboard", ff: Bitmap.none)
            try tree.addSoundCard(0, id: "PCH", name: "HDA Intel PCH")
        case "nothing":
            break
        default:
            preconditionFailure("no machine called \(name)")
        }
        return tree
    }
}
