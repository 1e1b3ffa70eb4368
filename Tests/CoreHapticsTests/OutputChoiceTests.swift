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
                let meaning = ["gamepad": "motors", "pinephone": "period", "touchpad": "stored click"][machine] ?? ""
                #expect("\(sharpness)".contains(meaning), "\(sharpness)")
            } else {
                #expect(engine.hapticEngine.configuration.device == selection.device)
            }
        }
        withExtendedLifetime(tree) {}
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
        withExtendedLifetime(tree) {}
    }

    @Test("Haptics.play's shared engine plays on the chosen output, and once stopped, on the output chosen then")
    func sharedEngineFollowsTheChoice() throws {
        let folder = try TemporaryFolder()
        let first = HapticOutputSelection(device: "null")
        let second = HapticOutputSelection(device: "file:'\(folder.path("shared.wav"))',wav")
        let engine = try HapticOutputSelection.$override.withValue(first) { try Haptics.engine() }
        #expect(engine.configuration.device == "null" && engine.isRunning)
        let running = try HapticOutputSelection.$override.withValue(second) { try Haptics.engine() }
        #expect(running === engine, "a running engine is kept")
        engine.stop()
        let next = try HapticOutputSelection.$override.withValue(second) { try Haptics.engine() }
        #expect(next !== engine && next.configuration.device == second.device, "a gamepad or setting that came since is used")
        next.stop()
        let again = try HapticOutputSelection.$override.withValue(second) { try Haptics.engine() }
        #expect(again === next && again.isRunning, "the same choice restarts the same engine")
        again.stop()
    }
}
