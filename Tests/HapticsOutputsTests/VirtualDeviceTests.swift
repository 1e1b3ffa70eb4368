import CLinuxInput
import Foundation
import Glibc
import HapticsOutputs
import HapticsTestSupport
import Testing

/// The discovery tests again, against real virtual devices made through /dev/uinput: the
/// kernel's own sysfs files and EVIOCGBIT answers rather than a built tree. Skipped with a
/// message where /dev/uinput is missing (CI, containers).
@Suite("Discovery of real virtual devices (uinput)")
struct VirtualDeviceTests {
    /// A virtual device for as long as the value lives.
    final class VirtualDevice {
        let descriptor: Int32
        let sysname: String

        init(name: String, codes: [Int32]) throws {
            var buffer = [CChar](repeating: 0, count: 64)
            let count = Int32(codes.count)
            let result: Int32 = codes.withUnsafeBufferPointer { codes -> Int32 in
                buffer.withUnsafeMutableBufferPointer { out -> Int32 in
                    haptics_uinput_create(name, codes.baseAddress, count, 16, out.baseAddress, UInt32(out.count))
                }
            }
            guard result >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: -result) ?? .EIO) }
            descriptor = result
            sysname = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        deinit { haptics_uinput_destroy(descriptor) }
    }

    static func requireUInput() throws {
        guard access("/dev/uinput", R_OK | W_OK) == 0 else {
            try Test.cancel("/dev/uinput is missing or not writable here: the virtual-device tests run only where it exists")
        }
    }

    @Test("a virtual gpio-vibrator is a vibration motor and a virtual pad gamepad rumble, as on the built trees")
    func vibraAndPad() throws {
        try Self.requireUInput()
        let vibra = try VirtualDevice(name: "gpio-vibrator", codes: [0x50, 0x51, 0x5a, 0x60])
        let pad = try VirtualDevice(name: "haptics test pad", codes: [0x50])
        var found: [HapticOutput] = []
        try Wait.require("both virtual devices' nodes appear", timeout: .seconds(5)) {
            found = HapticOutputDiscovery.system.outputs()
            return found.contains { $0.name == "gpio-vibrator" } && found.contains { $0.name == "haptics test pad" }
        }
        let motor = try #require(found.first { $0.name == "gpio-vibrator" })
        #expect(motor.kind == .vibrationMotor && motor.transport == .evdev)
        #expect(motor.capabilities.contains("rumble") && motor.capabilities.contains("periodic") && motor.capabilities.contains("16 effects"))
        let rumble = try #require(found.first { $0.name == "haptics test pad" })
        #expect(rumble.kind == .gamepadRumble)
        if getuid() == 0 { #expect(motor.isUsable && rumble.isUsable) }
        withExtendedLifetime((vibra, pad)) {}
    }
}
