import Foundation
import HapticsTestSupport
import Testing

/// `haptics doctor`: why nothing vibrates, one line per check.
@Suite("haptics doctor")
struct DoctorCommandTests {
    static func doctor(_ machine: String) async throws -> ProcessResult {
        let tree = try FakeSystemTree.machine(machine)
        let environment = OutputChoiceCommandTests.environment(tree)
        let result = try await HapticsProcess.run(["doctor"], environment: environment, timeout: .seconds(30))
        try #require(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.isEmpty)
        for line in result.outputLines where !line.hasPrefix("   ") {
            #expect(line.hasPrefix("ok ") || line.hasPrefix("-- ") || line.hasPrefix("!! "), "\(line)")
        }
        return withExtendedLifetime(tree) { result }
    }

    @Test("on a PinePhone the vibration motor is the output, and the libraries are checked with their packages")
    func pinePhone() async throws {
        let result = try await Self.doctor("pinephone")
        let first = try #require(result.outputLines.first)
        #expect(first.hasPrefix("ok output: the vibration motor gpio-vibrator ("), "\(first)")
        #expect(result.outputLines.contains { $0.hasPrefix("ok sound cards: PinePhone") })
        for library in ["alsa-lib", "libpulse", "libsndfile", "kissfft"] {
            #expect(
                result.outputLines.contains { $0.hasPrefix("ok \(library) ") || ($0.hasPrefix("!! \(library) is missing") && $0.contains("apt-get install")) })
        }
        #expect(result.outputLines.contains { $0.contains("real-time priority") })
    }

    @Test("on a machine with only speakers doctor says nothing will vibrate; on a touchpad laptop the touchpad is the output")
    func nothingVibrates() async throws {
        let speakers = try await Self.doctor("speakers")
        #expect(speakers.outputLines.first == "!! output: no haptic actuator (null): nothing will vibrate; see the outputs below")
        #expect(speakers.outputLines.contains("-- no vibration motor, DualSense, gamepad or haptic touchpad found"))
        #expect(speakers.outputLines.contains { $0.hasPrefix("ok sound cards: HDA Intel PCH (speakers") })
        let touchpad = try await Self.doctor("touchpad")
        #expect(touchpad.outputLines.first?.hasPrefix("ok output: the haptic touchpad ELAN Haptic Touchpad (") == true, "\(touchpad.output)")
    }
}
