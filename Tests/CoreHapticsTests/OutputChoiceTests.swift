import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport
import Testing

/// `CHHapticEngine()` and `capabilitiesForHardware()` make the output layer's choice on each
/// machine: the same output as `haptics play` and `Haptics.play`, and `supportsHaptics` true
/// exactly where a haptic actuator is.
@Suite("CoreHaptics on each machine: the chosen output and honest capabilities")
struct OutputChoiceTests {
    @Test(
        "supportsHaptics is true on the machines with an actuator and false on those with only speakers or nothing",
        arguments: [
            ("gamepad", true, false), ("pinephone", true, false), ("dualsense", true, true), ("touchpad", true, false),
            ("speakers", false, false), ("nothing", false, false),
        ])
    func capabilities(machine: String, haptics: Bool, audio: Bool) throws {
        let tree = try FakeSystemTree.machine(machine)
        let discovery = HapticOutputDiscovery.rooted(at: tree.root)
        let selection = HapticOutputSelection.resolve(environment: [:], settings: HapticSettings(), discovery: discovery)
        try HapticOutputSelection.$override.withValue(selection) {
            let capability = CHHapticEngine.capabilitiesForHardware()
            #expect(capability.supportsHaptics == haptics)
            #expect(capability.supportsAudio == audio)
            let engine = try CHHapticEngine()
            #expect(engine.outputSelection.device == selection.device)
            if ["gamepad", "pinephone", "touchpad"].contains(machine) {
                #expect(engine.hapticEngine.configuration.device == "rumble", "an evdev output gets a force-feedback engine")
                let sharpness = try capability.attributes(forEventParameter: .hapticSharpness, eventType: .hapticTransient)
                #expect("\(sharpness)".contains("motors"))
            } else {
                #expect(engine.hapticEngine.configuration.device == selection.device)
            }
        }
    }

    @Test("with only speakers, CHHapticEngine() plays on nothing rather than buzzing them, and still runs")
    func speakersAreNotUsed() throws {
        let tree = try FakeSystemTree.machine("speakers")
        let selection = HapticOutputSelection.resolve(
            environment: [:], settings: HapticSettings(), discovery: HapticOutputDiscovery.rooted(at: tree.root))
        try HapticOutputSelection.$override.withValue(selection) {
            let engine = try CHHapticEngine()
            #expect(engine.hapticEngine.configuration.device == "null")
            try engine.start()
            engine.stop(completionHandler: nil)
        }
    }
}
