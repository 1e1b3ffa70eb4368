import Foundation
import Haptics
import HapticsTestSupport
import Testing

@testable import HapticsService

/// The service plays where `haptics play`, `Haptics.play` and `CHHapticEngine()` play: the
/// output layer's one choice, on each machine of issue #26, and it offers feedbackd's `Haptic`
/// interface exactly where that output is a haptic actuator.
@Suite("The service's output on each machine")
struct DaemonOutputChoiceTests {
    @Test(
        "the daemon's engine is the library's choice; Vibrate is offered only with a haptic actuator",
        arguments: [
            ("gamepad", true), ("pinephone", true), ("dualsense", true), ("touchpad", true), ("speakers", false), ("nothing", false),
        ])
    func sameOutputAsTheLibrary(machine: String, haptic: Bool) throws {
        let tree = try FakeSystemTree.machine(machine)
        defer { withExtendedLifetime(tree) {} }
        let discovery = HapticOutputDiscovery.rooted(at: tree.root)
        let library = HapticOutputSelection.resolve(environment: [:], settings: HapticSettings(), discovery: discovery)
        let made = HapticOutputDiscovery.$override.withValue(discovery) {
            makeFeedbackEngine(device: nil, profile: nil, environment: [:])
        }
        #expect(made.hasHaptics == haptic, "\(machine): \(made.problems)")
        #expect(made.hasHaptics == library.isHapticActuator)
        let expected = library.makeEngine().configuration
        #expect(made.engine.configuration.device == expected.device, "\(machine): \(library.device)")
        #expect(made.engine.configuration.profile == expected.profile, "\(machine)")
    }

    @Test("--device names the output whatever the machine has, and counts as a haptic actuator unless it is the speakers")
    func deviceOverridesTheChoice() throws {
        let tree = try FakeSystemTree.machine("pinephone")
        defer { withExtendedLifetime(tree) {} }
        let discovery = HapticOutputDiscovery.rooted(at: tree.root)
        let named = HapticOutputDiscovery.$override.withValue(discovery) {
            makeFeedbackEngine(device: "null", profile: nil, environment: [:])
        }
        #expect(named.engine.configuration.device == "null" && named.hasHaptics)
        let speakers = HapticOutputDiscovery.$override.withValue(discovery) {
            makeFeedbackEngine(device: "default", profile: nil, environment: [:])
        }
        #expect(speakers.engine.configuration.device == "default" && !speakers.hasHaptics)
    }
}
