import Foundation
import HapticsTestSupport
import Testing

/// `haptics devices`: what a user reads to pick `--device` or `--rumble`, and the JSON scripts use.
@Suite("haptics devices")
struct DevicesCommandTests {
    @Test("devices --json is an object of the haptic outputs, the default, audio, soundCards and rumble, and lists the null device")
    func json() async throws {
        let result = try await HapticsProcess.run(["devices", "--json"], timeout: .seconds(30))
        #expect(result.status == 0)
        #expect(result.errorOutput.isEmpty, "alsa-lib's messages must not reach the terminal")
        let object = try #require(try jsonObject(result.stdout) as? [String: Any])
        #expect(Set(object.keys) == ["hapticsVersion", "outputs", "default", "audio", "soundCards", "rumble"])
        #expect(object["outputs"] is [Any])
        let chosen = try #require(object["default"] as? [String: Any])
        #expect(chosen["device"] is String && chosen["supportsHaptics"] is Bool && chosen["source"] is String)
        let audio = try #require(object["audio"] as? [[String: Any]])
        #expect(object["soundCards"] is [Any])
        #expect(object["rumble"] is [Any])
        let names = audio.compactMap { $0["name"] as? String }
        #expect(names.count == audio.count, "every audio device has a name")
        #expect(names.contains("null"))
        #expect(audio.allSatisfy { $0["busy"] is Bool && $0["description"] is String })
    }

    @Test("devices prints every audio output the JSON lists, one a line, and both sections")
    func text() async throws {
        // The PulseAudio tests start servers in this process (PULSE_SERVER), which would make
        // `default` come and go between the two runs: point both at no server.
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = "unix:/nonexistent/haptics-no-server"
        let text = try await HapticsProcess.run(["devices"], environment: environment, timeout: .seconds(30))
        let json = try await HapticsProcess.run(["devices", "--json"], environment: environment, timeout: .seconds(30))
        #expect(text.status == 0)
        #expect(text.errorOutput.isEmpty)
        #expect(text.outputLines.first == "Haptic outputs (best first; * is the default; pass a device to --device):")
        #expect(text.outputLines.contains("Audio outputs (ALSA; pass a name to --device):"))
        #expect(text.outputLines.contains("Rumble devices (force feedback; pass a path to play --rumble):"))
        let object = try #require(try jsonObject(json.stdout) as? [String: Any])
        let names = (object["audio"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        for name in names {
            #expect(text.outputLines.contains { $0.hasPrefix("  \(name) ") }, "\(name)")
        }
        let cards = object["soundCards"] as? [Any] ?? []
        #expect(text.output.contains("no sound card found") == cards.isEmpty)
        let rumble = object["rumble"] as? [Any] ?? []
        #expect(text.output.contains("none found (no /dev/input/event* device reports force feedback)") == rumble.isEmpty)
    }
}
