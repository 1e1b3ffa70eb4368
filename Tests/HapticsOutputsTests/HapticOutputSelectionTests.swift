import Foundation
import HapticsOutputs
import HapticsPresets
import HapticsRender
import HapticsTestSupport
import Testing

@Suite("The one choice of output: configured, then the best actuator, never the speakers")
struct HapticOutputSelectionTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var machine: @Sendable () throws -> FakeMachine
        var label: String
        /// The device chosen, relative to the machine's /dev/input when it starts with "event".
        var device: String
        var source: HapticOutputSelection.Source
        var felt: Bool
        var audio: Bool
        var profile: String
        var testDescription: String { label }
    }

    static let table: [Row] = [
        Row(machine: Machines.gamepad, label: "gamepad", device: "event7", source: .discovered, felt: true, audio: false, profile: "wideband"),
        Row(machine: Machines.pinePhone, label: "PinePhone", device: "event1", source: .discovered, felt: true, audio: false, profile: "wideband"),
        Row(machine: Machines.touchpad, label: "touchpad", device: "event5", source: .discovered, felt: true, audio: false, profile: "wideband"),
        Row(
            machine: Machines.dualSense, label: "DualSense", device: "hw:CARD=Controller,DEV=0", source: .discovered, felt: true, audio: true,
            profile: "dualsense"),
        Row(machine: Machines.deniedGamepad, label: "denied", device: "null", source: .systemDefault, felt: false, audio: false, profile: "wideband"),
        Row(machine: Machines.speakersOnly, label: "speakers", device: "null", source: .systemDefault, felt: false, audio: false, profile: "wideband"),
        Row(machine: Machines.nothing, label: "nothing", device: "null", source: .systemDefault, felt: false, audio: false, profile: "wideband"),
    ]

    @Test("with nothing configured, each machine's best actuator is chosen, and supportsHaptics says whether it is felt", arguments: table)
    func choice(_ row: Row) throws {
        let machine = try row.machine()
        let selection = HapticOutputSelection.resolve(environment: [:], settings: HapticSettings(), discovery: machine.discovery)
        let expected = row.device.hasPrefix("event") ? machine.roots.inputDirectory + "/" + row.device : row.device
        #expect(selection.device == expected)
        #expect(selection.source == row.source)
        #expect(selection.isHapticActuator == row.felt)
        #expect(selection.supportsAudio == row.audio)
        #expect(selection.profile.name == row.profile)
    }

    @Test("a vibration motor wins over the DualSense, which wins over a gamepad's rumble")
    func preference() throws {
        let machine = try Machines.dualSense()
        try machine.addInputDevice(1, name: "gpio-vibrator", ff: Bitmap.memlessRumble, driver: "gpio-vibrator")
        try machine.addInputDevice(9, name: "Microsoft X-Box 360 pad", ff: Bitmap.memlessRumble, driver: "xpad")
        let kinds = machine.discovery.outputs().map(\.kind)
        #expect(kinds == [.vibrationMotor, .dualSenseAudio, .gamepadRumble, .gamepadRumble, .speakers])
        let selection = HapticOutputSelection.resolve(environment: [:], settings: HapticSettings(), discovery: machine.discovery)
        #expect(selection.device == machine.roots.inputDirectory + "/event1")
    }

    @Test("HAPTICS_DEVICE, then the settings' device, win over every actuator found; configured speakers are not felt")
    func configured() throws {
        let machine = try Machines.pinePhone()
        let settings = HapticSettings(device: "plughw:CARD=Device,DEV=0", profile: "lra")
        let environment = HapticOutputSelection.resolve(environment: ["HAPTICS_DEVICE": "null"], settings: settings, discovery: machine.discovery)
        #expect(environment.device == "null" && environment.source == .environment && environment.profile == .lra)
        let fromSettings = HapticOutputSelection.resolve(environment: [:], settings: settings, discovery: machine.discovery)
        #expect(fromSettings.device == "plughw:CARD=Device,DEV=0" && fromSettings.source == .settings && fromSettings.isHapticActuator)
        for speakers in ["default", "pulse", "sysdefault:CARD=PCH"] {
            let chosen = HapticOutputSelection.resolve(
                environment: [:], settings: HapticSettings(device: speakers), discovery: machine.discovery)
            #expect(chosen.device == speakers && !chosen.isHapticActuator && chosen.supportsAudio, "\(speakers)")
        }
        let node = HapticOutputSelection.resolve(environment: ["HAPTICS_DEVICE": "/dev/input/event1"], settings: HapticSettings())
        #expect(node.isForceFeedback && node.isHapticActuator && !node.supportsAudio)
    }
}
