import Foundation
@testable import HapticsPlayback
import HapticsTestSupport
import Testing

@Suite("Rumble device discovery")
struct RumbleDevicesTests {
    @Test("listing works on this machine; every row listed has force feedback")
    func listOnThisMachine() {
        let devices = RumbleDevices.list()
        for device in devices {
            #expect(device.path.hasPrefix("/dev/input/event"))
            #expect(device.supportsRumble || device.supportsPeriodic || device.note != nil)
        }
        if !FileManager.default.fileExists(atPath: RumbleDevices.inputDirectory) {
            #expect(devices.isEmpty)
        }
    }

    @Test("a directory of event files that are not input devices lists nothing, and a missing directory too")
    func listFakeDirectory() throws {
        let directory = try TemporaryFolder()
        for name in ["event0", "event10", "event2", "mouse0", "js0"] {
            try Data().write(to: URL(fileURLWithPath: directory.path + "/" + name))
        }
        #expect(RumbleDevices.list(inputDirectory: directory.path, sysfsDirectory: directory.path).isEmpty)
        #expect(RumbleDevices.list(inputDirectory: directory.path + "/missing", sysfsDirectory: "/nonexistent").isEmpty)
    }

    @Test("opening the first device where there is none says so")
    func openFirstWithoutDevices() throws {
        let error = #expect(throws: RumbleOutputError.self) { try RumbleDevices.resolve(nil, among: []) }
        #expect(error?.reason.hasPrefix("no force-feedback input device found") == true)
    }

    @Test("a device name nobody has is deviceUnavailable naming the query")
    func unknownName() {
        let error = #expect(throws: RumbleOutputError.self) {
            try RumbleDevices.open("No Such Haptics Test Pad")
        }
        #expect(error?.device == "No Such Haptics Test Pad")
    }

    @Test("eventN is taken as a node under /dev/input")
    func eventShorthand() {
        let error = #expect(throws: RumbleOutputError.self) { try RumbleDevices.open("event98765") }
        #expect(error == .deviceUnavailable(device: "/dev/input/event98765", reason: "no such device"))
    }

    @Test(
        "node names: eventN only",
        arguments: [
            ("event0", 0), ("event12", 12), ("event", nil), ("mouse0", nil), ("event+1", nil), ("event1a", nil), ("js0", nil),
        ] as [(String, Int?)])
    func nodeNames(name: String, number: Int?) {
        #expect(RumbleDevices.eventNumber(name) == number)
    }

    private static let pad = RumbleDeviceInfo(
        path: "/dev/input/event4", name: "Xbox Wireless Controller", supportsRumble: true, supportsPeriodic: true,
        supportsGain: true, simultaneousEffects: 16, accessible: true)
    private static let deniedPad = RumbleDeviceInfo(
        path: "/dev/input/event2", name: "Sony DualSense", supportsRumble: true, supportsPeriodic: true,
        supportsGain: true, simultaneousEffects: nil, accessible: false, note: "no permission")
    private static let wheel = RumbleDeviceInfo(
        path: "/dev/input/event1", name: "Wheel", supportsRumble: false, supportsPeriodic: false,
        supportsGain: true, simultaneousEffects: 4, accessible: true, note: "no rumble or periodic effects")

    @Test("nil picks the first usable device, skipping wheels and nodes without permission")
    func firstUsable() throws {
        #expect(try RumbleDevices.resolve(nil, among: [Self.wheel, Self.deniedPad, Self.pad]) == Self.pad.path)
    }

    @Test("nil with only a device without permission picks it, so opening it explains the permission")
    func onlyDenied() throws {
        #expect(try RumbleDevices.resolve(nil, among: [Self.wheel, Self.deniedPad]) == Self.deniedPad.path)
    }

    @Test("nil with only a device without rumble is unavailable naming it")
    func onlyWheel() {
        let error = #expect(throws: RumbleOutputError.self) { try RumbleDevices.resolve(nil, among: [Self.wheel]) }
        #expect(error?.device == Self.wheel.path)
    }

    @Test("a name matches case-insensitively on part of the device name")
    func byName() throws {
        let devices = [Self.wheel, Self.deniedPad, Self.pad]
        #expect(try RumbleDevices.resolve("xbox", among: devices) == Self.pad.path)
        #expect(try RumbleDevices.resolve("DUALSENSE", among: devices) == Self.deniedPad.path)
    }

    @Test("rows for devices read through ioctl and through sysfs")
    func rows() throws {
        let capabilities = try #require(ForceFeedbackCapabilities(sysfsBitmap: "107030000 0", wordBits: 64))
        let open = RumbleDevices.info(path: "/dev/input/event4", name: "Pad", capabilities: capabilities, accessible: true)
        #expect(open.isUsable)
        #expect(open.note == nil)
        #expect(open.summaryLine == "/dev/input/event4  Pad  rumble, periodic, gain")
        let denied = RumbleDevices.info(path: "/dev/input/event5", name: "Pad", capabilities: capabilities, accessible: false)
        #expect(!denied.isUsable)
        #expect(denied.simultaneousEffects == nil)
        #expect(denied.summaryLine.hasSuffix("[no permission to open it read-write; see the udev rule]"))
    }

    @Test("rows encode to stable JSON keys")
    func json() throws {
        let data = try JSONEncoder().encode(Self.pad)
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "path", "name", "supportsRumble", "supportsPeriodic", "supportsGain", "simultaneousEffects", "accessible",
            ])
        #expect(object["simultaneousEffects"] as? Int == 16)
    }
}
