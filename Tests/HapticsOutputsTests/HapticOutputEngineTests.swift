import CLinuxInput
import Foundation
import HapticsCore
import HapticsOutputs
import HapticsPresets
import HapticsRender
import HapticsTestSupport
import Testing

@Suite("The engine for the chosen output, whatever its kind")
struct HapticOutputEngineTests {
    static let tap = HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 0.5)])

    @Test(
        "on a PinePhone, the engine drives the vibration motor with one periodic effect whose period follows sharpness: gain, upload, play, stop, erase, close")
    func vibrationMotorEngine() throws {
        let machine = try Machines.pinePhone()
        let selection = HapticOutputSelection.resolve(environment: [:], settings: HapticSettings(), discovery: machine.discovery)
        let engine = HapticOutputDiscovery.$override.withValue(machine.discovery) { selection.makeEngine() }
        try engine.start()
        let sharpThenDull = HapticPattern(events: [
            .continuous(at: 0, duration: 0.2, intensity: 1, sharpness: 1), .continuous(at: 0.3, duration: 0.2, intensity: 1, sharpness: 0),
        ])
        try engine.playAndWait(sharpThenDull)
        engine.stop()
        let device = try #require(machine.openedDevices.last)
        #expect(device.path == machine.roots.inputDirectory + "/event1")
        let calls = device.calls
        let periodic = UInt16(FF_PERIODIC)
        #expect(
            calls.prefix(3) == [.supportedEffects, .write(type: UInt16(EV_FF), code: UInt16(FF_GAIN), value: 0xFFFF), .upload(type: periodic, id: 2)])
        #expect(calls.allSatisfy { if case .upload(let type, _) = $0 { type == periodic } else { true } }, "no rumble effect")
        #expect(calls.contains(.write(type: UInt16(EV_FF), code: 2, value: 1)), "the effect played")
        #expect(calls.contains(.write(type: UInt16(EV_FF), code: 2, value: 0)), "and stopped")
        #expect(calls.suffix(2) == [.erase(2), .close])
        let loud = device.periodicUploads.filter { $0.magnitude > 0x4000 }
        #expect(loud.contains { $0.period == 8 }, "the sharp event is a crisp 8 ms buzz: \(loud)")
        #expect(loud.contains { $0.period == 40 }, "the dull one a 40 ms throb: \(loud)")
    }

    @Test("a gamepad keeps rumble: both motors, no periodic effect")
    func gamepadKeepsRumble() throws {
        let machine = try Machines.gamepad()
        let selection = HapticOutputSelection.resolve(environment: [:], settings: HapticSettings(), discovery: machine.discovery)
        let engine = HapticOutputDiscovery.$override.withValue(machine.discovery) { selection.makeEngine() }
        try engine.start()
        try engine.playAndWait(Self.tap)
        engine.stop()
        let device = try #require(machine.openedDevices.last)
        #expect(device.calls.contains(.upload(type: UInt16(FF_RUMBLE), id: 2)) && device.periodicUploads.isEmpty)
    }

    @Test("on a touchpad laptop, each onset plays the touchpad's stored click at its strength: upload, then play per onset")
    func touchpadClicks() throws {
        let machine = try Machines.touchpad()
        let selection = HapticOutputSelection.resolve(environment: [:], settings: HapticSettings(), discovery: machine.discovery)
        let engine = HapticOutputDiscovery.$override.withValue(machine.discovery) { selection.makeEngine() }
        try engine.start()
        let taps = HapticPattern(events: [
            .transient(at: 0, intensity: 1, sharpness: 0.5), .transient(at: 0.2, intensity: 0.5, sharpness: 0.5),
        ])
        try engine.playAndWait(taps)
        engine.stop()
        let device = try #require(machine.openedDevices.last)
        let haptic = UInt16(0x4f)
        #expect(device.calls.prefix(2) == [.supportedEffects, .upload(type: haptic, id: 2)])
        let plays = device.calls.filter { $0 == .write(type: UInt16(EV_FF), code: 2, value: 1) }
        #expect(plays.count == 2, "one click per transient: \(device.calls)")
        let uploads = device.hapticUploads
        #expect(uploads.allSatisfy { $0.usage == 0x1003 }, "the click waveform")
        #expect(uploads.count == 3 && uploads[1].intensity > uploads[2].intensity && uploads[2].intensity > 0, "\(uploads)")
        #expect(device.calls.suffix(2) == [.erase(2), .close])
    }

    @Test("on a machine with only speakers, the library's engine plays on null: nothing is felt and nothing is heard")
    func speakersOnlyEngine() throws {
        let machine = try Machines.speakersOnly()
        let selection = HapticOutputSelection.resolve(environment: [:], settings: HapticSettings(), discovery: machine.discovery)
        let engine = selection.makeEngine()
        #expect(engine.configuration.device == "null")
        try engine.start()
        try engine.playAndWait(Self.tap)
        engine.stop()
    }

    @Test("a discovered gamepad that was unplugged is replaced by the next one at the engine's next start")
    func nextStartPicksNextBest() throws {
        let machine = try Machines.gamepad()
        let selection = HapticOutputSelection.resolve(environment: [:], settings: HapticSettings(), discovery: machine.discovery)
        let engine = HapticOutputDiscovery.$override.withValue(machine.discovery) { selection.makeEngine() }
        try engine.start()
        engine.stop()
        try machine.removeInputDevice(7)
        try machine.addInputDevice(9, name: "8BitDo Pro 2", ff: Bitmap.memlessRumble, driver: "xpad")
        try engine.start()
        engine.stop()
        #expect(machine.openedDevices.map(\.path).last == machine.roots.inputDirectory + "/event9")
    }
}
