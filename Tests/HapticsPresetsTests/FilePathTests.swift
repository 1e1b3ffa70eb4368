import Foundation
import HapticsCore
import HapticsPresets
import HapticsRender
import HapticsTestSupport
import Testing

/// Every file the library reads or writes can be named by `URL` or by `String`, with the same
/// result.
@Suite("Paths as URL and String")
struct FilePathTests {
    @Test("AHAP files, profiles, settings and sound files read the same through either form; WAVs write the same")
    func bothForms() throws {
        let temporary = try TemporaryFolder()
        let folder = temporary.url
        defer { withExtendedLifetime(temporary) {} }
        let ahap = folder.appendingPathComponent("tap.ahap")
        try Data(#"{"Pattern": [{"Event": {"Time": 0.1, "EventType": "HapticTransient"}}]}"#.utf8).write(to: ahap)
        let profile = folder.appendingPathComponent("p.json")
        try Data(#"{"minFrequency": 100, "maxFrequency": 200}"#.utf8).write(to: profile)
        let settings = folder.appendingPathComponent("s.json")
        try Data(#"{"intensity": 0.5}"#.utf8).write(to: settings)

        let pattern = try AHAPDecoder().decode(contentsOf: ahap).pattern
        #expect(try AHAPDecoder().decode(contentsOfFile: ahap.path).pattern == pattern)
        #expect(try ActuatorProfile(contentsOfFile: profile.path) == ActuatorProfile(contentsOf: profile))
        #expect(try HapticSettings.load(contentsOfFile: settings.path) == HapticSettings.load(contentsOf: settings))

        let byURL = folder.appendingPathComponent("a.wav")
        let byPath = folder.appendingPathComponent("b.wav")
        try HapticRenderer(pattern: pattern).writeWAV(to: byURL, format: .f32)
        try HapticRenderer(pattern: pattern).writeWAV(to: byPath.path, format: .f32)
        #expect(try Data(contentsOf: byURL) == Data(contentsOf: byPath))
        let clip = try AudioClip.load(url: byURL)
        #expect(clip.channel(0) == (try AudioClip.load(path: byPath.path)).channel(0))
        #expect(clip.channel(0).contains { $0 != 0 })
    }
}
