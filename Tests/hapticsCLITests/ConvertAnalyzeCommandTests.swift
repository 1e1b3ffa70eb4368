import Foundation
import HapticsTestSupport
import Testing

@Suite("haptics convert and haptics analyze")
struct ConvertAnalyzeCommandTests {
    @Test("a preset goes to .haptic and back to AHAP that validates strictly")
    func hapticRoundTrip() async throws {
        let folder = try TemporaryFolder()
        let clip = folder.url.appendingPathComponent("success.haptic").path
        let back = folder.url.appendingPathComponent("success.ahap").path
        let first = try await HapticsProcess.run(["convert", "success", "-o", clip])
        #expect(first.status == 0, "\(first.errorOutput)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: clip))) as? [String: Any]
        #expect((json?["version"] as? [String: Any])?["major"] as? Int == 1)
        let second = try await HapticsProcess.run(["convert", clip, "-o", back])
        #expect(second.status == 0, "\(second.errorOutput)")
        let validated = try await HapticsProcess.run(["validate", "--strict", back])
        #expect(validated.status == 0, "\(validated.output)\(validated.errorOutput)")
    }

    @Test("approximations: one line per kind on stderr; --strict fails and writes nothing")
    func approximations() async throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("error.android.json").path
        let loose = try await HapticsProcess.run(["convert", "error", "-o", out])
        #expect(loose.status == 0)
        let lines = loose.errorLines.filter { $0.hasPrefix("haptics: approximated: ") }
        #expect(!lines.isEmpty)
        #expect(lines.count == loose.errorLines.count)
        #expect(Set(lines).count == lines.count)
        // Four taps, one line for them all.
        #expect(lines.filter { $0.contains("primitives") }.count == 1)
        try FileManager.default.removeItem(atPath: out)
        let strict = try await HapticsProcess.run(["convert", "error", "-o", out, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.errorLines.count == 1)
        #expect(strict.errorOutput.contains("--strict"))
        #expect(!FileManager.default.fileExists(atPath: out))
        // AHAP to AHAP approximates nothing.
        let exact = try await HapticsProcess.run(["convert", "success", "-o", folder.url.appendingPathComponent("s.ahap").path, "--strict"])
        #expect(exact.status == 0)
        #expect(exact.errorOutput.isEmpty)
    }

    @Test("Kotlin, JavaScript and web JSON outputs")
    func code() async throws {
        let kotlin = try await HapticsProcess.run(["convert", "success", "-o", "-", "--to", "android-kotlin"])
        #expect(kotlin.output.contains("object SuccessHaptics"))
        #expect(kotlin.output.contains("VibrationEffect.createWaveform(timings, amplitudes, -1)"))
        #expect(kotlin.output.contains("PRIMITIVE_"))
        let js = try await HapticsProcess.run(["convert", "success", "-o", "-", "--to", "web-js"])
        #expect(js.output.contains("navigator.vibrate(successPattern)"))
        #expect(js.output.contains("playEffect(\"dual-rumble\""))
        let web = try await HapticsProcess.run(["convert", "success", "-o", "-", "--to", "web-json"])
        let json = try JSONSerialization.jsonObject(with: web.stdout) as? [String: Any]
        let vibrate = json?["vibrate"] as? [Int] ?? []
        #expect(vibrate.count == 3)
        #expect(vibrate.count <= 99)
    }

    @Test("the preset library as one feedbackd theme")
    func feedbackdLibrary() async throws {
        let result = try await HapticsProcess.run(["convert", "--library", "-o", "-", "--to", "feedbackd"])
        #expect(result.status == 0)
        let theme = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let profiles = try #require(theme["profiles"] as? [[String: Any]])
        let feedbacks = try #require(profiles.first?["feedbacks"] as? [[String: Any]])
        #expect(feedbacks.count >= 20)
        let success = try #require(feedbacks.first { $0["event-name"] as? String == "success" })
        #expect(success["type"] as? String == "VibraPattern")
        #expect((success["magnitudes"] as? [Double])?.count == (success["durations"] as? [Int])?.count)
    }

    @Test("Android JSON reads back, also from a plain .json (by its content)")
    func androidBack() async throws {
        let folder = try TemporaryFolder()
        let json = folder.url.appendingPathComponent("heartbeat.json").path
        let out = folder.url.appendingPathComponent("heartbeat.ahap").path
        let written = try await HapticsProcess.run(["convert", "success", "-o", json, "--to", "android-json"])
        #expect(written.status == 0)
        let back = try await HapticsProcess.run(["convert", json, "-o", out])
        #expect(back.status == 0, "\(back.errorOutput)")
        #expect(back.errorOutput.contains("primitives read as taps"))
        let show = try await HapticsProcess.run(["show", out, "--json"])
        let summary = try JSONSerialization.jsonObject(with: show.stdout) as? [String: Any]
        #expect((summary?["counts"] as? [String: Any])?["transients"] as? Int == 2)
        let strict = try await HapticsProcess.run(["convert", json, "-o", out, "--strict"])
        #expect(strict.status == 1)
    }

    @Test("usage errors: unknown extension, --library with an input")
    func usage() async throws {
        let unknown = try await HapticsProcess.run(["convert", "success", "-o", "out.xyz"])
        #expect(unknown.status == 2)
        #expect(unknown.errorOutput.contains("--to"))
        let library = try await HapticsProcess.run(["convert", "success", "--library", "-o", "x.feedbackd.json"])
        #expect(library.status == 2)
    }

    @Test("analyze: a rendered preset's two taps are found; --plot draws; --play plays")
    func analyze() async throws {
        let folder = try TemporaryFolder()
        let wav = folder.url.appendingPathComponent("success.wav").path
        let ahap = folder.url.appendingPathComponent("success.ahap").path
        let svg = folder.url.appendingPathComponent("success.svg").path
        _ = try await HapticsProcess.run(["render", "success", "-o", wav])
        let result = try await HapticsProcess.run(["analyze", wav, "-o", ahap, "--plot", svg, "--play", "--device", "null"])
        #expect(result.status == 0, "\(result.errorOutput)")
        // Not a terminal: no progress bar.
        #expect(!result.errorOutput.contains("analyzing"))
        let show = try await HapticsProcess.run(["show", ahap, "--json"])
        let summary = try JSONSerialization.jsonObject(with: show.stdout) as? [String: Any]
        let counts = summary?["counts"] as? [String: Any]
        #expect(counts?["transients"] as? Int == 2)
        #expect(FileManager.default.fileExists(atPath: svg))
        // A silent sound (a render at gain 0) is an error, not an empty pattern.
        let silent = folder.url.appendingPathComponent("silent.wav").path
        _ = try await HapticsProcess.run(["render", "success", "-o", silent, "--gain", "0"])
        let quiet = try await HapticsProcess.run(["analyze", silent, "-o", folder.url.appendingPathComponent("silent.ahap").path])
        #expect(quiet.status == 1)
        #expect(quiet.errorOutput.contains("silent"))
        let missing = try await HapticsProcess.run(["analyze", folder.url.appendingPathComponent("none.wav").path, "-o", ahap])
        #expect(missing.status == 1)
        #expect(missing.errorLines.count == 1)
    }
}
