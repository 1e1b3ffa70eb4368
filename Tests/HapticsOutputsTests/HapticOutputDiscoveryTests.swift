import Foundation
import HapticsOutputs
import HapticsTestSupport
import Testing

@Suite("Discovery of haptic outputs over a machine's /dev/input, /sys/class/input and /proc/asound")
struct HapticOutputDiscoveryTests {
    @Test("a gamepad is gamepad rumble with its driver and capabilities; a keyboard is neither listed nor opened")
    func gamepad() throws {
        let machine = try Machines.gamepad()
        let outputs = machine.discovery.outputs()
        let pad = try #require(outputs.first)
        #expect(pad.device == machine.roots.inputDirectory + "/event7")
        #expect(pad.kind == .gamepadRumble && pad.transport == .evdev && pad.isUsable)
        #expect(pad.name == "Microsoft X-Box 360 pad" && pad.driver == "xpad")
        #expect(pad.capabilities == ["rumble", "periodic", "gain", "16 effects"])
        #expect(!pad.playsAudio && pad.latencyMilliseconds == 10)
        #expect(machine.openedDevices.map(\.path) == [pad.device], "only the force-feedback node is opened")
        #expect(machine.openedDevices.first?.calls == [.supportedEffects, .name, .close])
        #expect(outputs.map(\.kind) == [.gamepadRumble, .speakers])
        #expect(outputs.last?.device == "plughw:CARD=PCH,DEV=0" && outputs.last?.name == "HDA Intel PCH")
    }

    @Test("a PinePhone's gpio-vibrator is a vibration motor with rumble and periodic effects")
    func pinePhone() throws {
        let machine = try Machines.pinePhone()
        let motor = try #require(machine.discovery.outputs().first)
        #expect(motor.kind == .vibrationMotor && motor.driver == "gpio-vibrator" && motor.isUsable)
        #expect(motor.capabilities.contains("rumble") && motor.capabilities.contains("periodic"))
        #expect(motor.isHapticActuator)
    }

    @Test("a vibration motor is known by its input name when sysfs names no driver")
    func vibraByName() throws {
        let machine = try FakeMachine()
        try machine.addInputDevice(0, name: "drv260x:haptics", ff: Bitmap.memlessRumble)
        #expect(machine.discovery.outputs().map(\.kind) == [.vibrationMotor])
    }

    @Test("a touchpad with FF_HAPTIC is a haptic touchpad that plays click waveforms")
    func touchpad() throws {
        let machine = try Machines.touchpad()
        let pad = try #require(machine.discovery.outputs().first)
        #expect(pad.kind == .hapticTouchpad && pad.capabilities == ["click waveforms", "16 effects"] && pad.isUsable)
        #expect(machine.discovery.bestActuator()?.device == pad.device)
    }

    @Test("a DualSense is its sound card's audio haptics with the dualsense profile, then its rumble")
    func dualSense() throws {
        let machine = try Machines.dualSense()
        let outputs = machine.discovery.outputs()
        #expect(outputs.map(\.kind) == [.dualSenseAudio, .gamepadRumble, .speakers])
        let card = try #require(outputs.first)
        #expect(card.device == "hw:CARD=Controller,DEV=0" && card.profile == "dualsense" && card.playsAudio && card.isUsable)
        #expect(outputs[1].device == machine.roots.inputDirectory + "/event12" && outputs[1].driver == "playstation")
        #expect(machine.discovery.bestActuator()?.kind == .dualSenseAudio)
    }

    @Test("a device without permission is listed from sysfs with the fix, and never chosen")
    func denied() throws {
        let machine = try Machines.deniedGamepad()
        let pad = try #require(machine.discovery.outputs().first)
        #expect(pad.kind == .gamepadRumble && !pad.isUsable)
        #expect(pad.name == "Microsoft X-Box 360 pad" && pad.capabilities == ["rumble", "periodic", "gain"])
        let problem = try #require(pad.problem)
        #expect(problem.hasPrefix("no permission to open it read-write"))
        #expect(problem.contains("udev rule") || problem.contains("usermod"))
        #expect(machine.discovery.bestActuator() == nil)
    }

    @Test("a laptop with only speakers has no haptic actuator; a machine with nothing lists nothing")
    func speakersAndNothing() throws {
        let laptop = try Machines.speakersOnly()
        #expect(laptop.discovery.outputs().map(\.kind) == [.speakers])
        #expect(laptop.discovery.bestActuator() == nil)
        #expect(try Machines.nothing().discovery.outputs().isEmpty)
    }

    @Test("a sound card whose node this user may not open says which group to join, and is not chosen")
    func soundCardPermission() throws {
        let machine = try Machines.dualSense()
        let snd = machine.tree.root + "/dev/snd"
        try FileManager.default.createDirectory(atPath: snd, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: snd + "/pcmC1D0p", contents: Data())
        var discovery = machine.discovery
        discovery.roots.soundDeviceDirectory = snd
        discovery.mayOpenSoundDevice = { !$0.hasSuffix("pcmC1D0p") }
        let card = try #require(discovery.outputs().first { $0.kind == .dualSenseAudio })
        let problem = try #require(card.problem)
        #expect(problem.hasPrefix("no permission to open \(snd)/pcmC1D0p (group '") && problem.contains("sudo usermod -aG"))
        #expect(discovery.bestActuator()?.kind == .gamepadRumble, "the DualSense's rumble is used instead")
        discovery.mayOpenSoundDevice = { _ in true }
        #expect(discovery.bestActuator()?.kind == .dualSenseAudio)
    }
}
