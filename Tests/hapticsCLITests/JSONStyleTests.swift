import Foundation
import HapticsTestSupport
import Testing

/// Every `--json` output in the one style the README states (Sources/haptics/JSONDocument.swift):
/// one object, `hapticsVersion` its first key and nowhere else, camelCase keys sorted after it,
/// jq's layout, numbers rounded to 6 decimals.
@Suite("One JSON style")
struct JSONStyleTests {
    /// Checks the style of one document and returns it parsed.
    @discardableResult
    private func expectStyle(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(text.hasPrefix("{\n  \"hapticsVersion\": \""), "\(what): the version comes first: \(text.prefix(80))", sourceLocation: sourceLocation)
        #expect(text.hasSuffix("}\n"), "\(what): one document ending in a newline", sourceLocation: sourceLocation)
        #expect(text.components(separatedBy: "\"hapticsVersion\"").count == 2, "\(what): the version once per document", sourceLocation: sourceLocation)
        #expect(!text.contains("\" : "), "\(what): jq's \"key\": value, not Foundation's \"key\" : value", sourceLocation: sourceLocation)
        let document = try #require(try jsonObject(Data(text.utf8)) as? [String: Any], "\(what): an object", sourceLocation: sourceLocation)
        // Keys: camelCase everywhere; the top level's sorted after the version.
        let keyPattern = try NSRegularExpression(pattern: #"^( *)"([^"]+)": "#)
        var topLevel: [String] = []
        for line in text.split(separator: "\n").map(String.init) {
            guard let match = keyPattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { continue }
            let key = (line as NSString).substring(with: match.range(at: 2))
            if match.range(at: 1).length == 2 { topLevel.append(key) }
            let isCamel = !key.contains("_") && !key.contains("-") && key.first?.isLowercase == true
            // Keys that are data, not names: the metadata a pattern carries, as written.
            #expect(isCamel || line.hasPrefix("    \"") && what.hasPrefix("show"), "\(what): '\(key)' is not camelCase", sourceLocation: sourceLocation)
        }
        #expect(
            topLevel.first == "hapticsVersion" && Array(topLevel.dropFirst()) == topLevel.dropFirst().sorted(), "\(what): \(topLevel)",
            sourceLocation: sourceLocation)
        // Numbers: at most 6 decimals, never an exponent.
        let numbers = try NSRegularExpression(pattern: #"[:\[,] *(-?[0-9]+\.([0-9]+))"#)
        for match in numbers.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let decimals = (text as NSString).substring(with: match.range(at: 2))
            #expect(
                decimals.count <= 6, "\(what): \((text as NSString).substring(with: match.range(at: 1))) has more than 6 decimals",
                sourceLocation: sourceLocation)
        }
        #expect(text.range(of: #"[0-9]e[-+]?[0-9]"#, options: .regularExpression) == nil, "\(what): a number in exponent form", sourceLocation: sourceLocation)
        return document
    }

    @Test("show, list, devices, validate and render --stats print one styled document each")
    func commands() async throws {
        let folder = try TemporaryFolder()
        try folder.write("warn.ahap", patternWithWarning)
        for arguments in [
            ["show", "success", "--json"], ["list", "--json"], ["devices", "--json"], ["validate", "--json", "warn.ahap"],
            ["render", "start", "-o", "hb.wav", "--stats", "--json"],
        ] {
            let result = try await HapticsProcess.run(arguments, in: folder.url, timeout: .seconds(60))
            #expect(result.status == 0, "\(arguments): \(result.errorLines)")
            try expectStyle(result.output, arguments.joined(separator: " "))
        }
        let list = try expectStyle(try await HapticsProcess.run(["list", "--json"], timeout: .seconds(30)).output, "list")
        let presets = try #require(list["presets"] as? [[String: Any]])
        #expect(!presets.isEmpty && presets.allSatisfy { $0["hapticsVersion"] == nil }, "the version is not repeated in each preset")
        let show = try expectStyle(try await HapticsProcess.run(["show", "success", "--json"], timeout: .seconds(30)).output, "show")
        #expect(show["ahapVersion"] as? Double == 1, "the pattern's AHAP Version is not confused with the tool's")
    }

    @Test("numbers are rounded to 6 decimals: 0.1234567891 s is written 0.123457, 1.2 µs 0.000001 and 0.4 µs 0")
    func rounding() async throws {
        let result = try await HapticsProcess.run(
            ["show", "-", "--json"],
            stdin: Data(
                #"""
                {"Pattern": [{"Event": {"Time": 0.1234567891, "EventType": "HapticTransient"}},
                             {"Event": {"Time": 0.0000012, "EventType": "HapticTransient"}},
                             {"Event": {"Time": 0.0000004, "EventType": "HapticTransient"}}]}
                """#.utf8), timeout: .seconds(30))
        #expect(result.status == 0, "\(result.errorLines)")
        let document = try expectStyle(result.output, "show -")
        #expect(result.output.contains("\"time\": 0.123457"), "\(result.output)")
        // Sorted by time: 0.4 µs rounds to 0, 1.2 µs to 0.000001 (not Swift's 1e-06).
        #expect((document["events"] as? [[String: Any]])?.compactMap { $0["time"] as? Double } == [0, 0.000001, 0.123457])
        #expect(result.output.contains("\"time\": 0.000001,") && result.output.contains("\"time\": 0,"), "\(result.output)")
    }

    @Test("render --rumble --json writes the style too: camelCase frames under the version, the CSV's values")
    func rumbleTimeline() async throws {
        let folder = try TemporaryFolder()
        let result = try await HapticsProcess.run(["render", "success", "--rumble", "-o", "m.json"], in: folder.url, timeout: .seconds(30))
        #expect(result.status == 0, "\(result.errorLines)")
        let text = try String(contentsOf: folder.file("m.json"), encoding: .utf8)
        let document = try expectStyle(text, "render --rumble")
        #expect(document["intervalMs"] as? Int == 10)
        let frames = try #require(document["frames"] as? [[String: Any]])
        #expect(!frames.isEmpty && frames.allSatisfy { Set($0.keys) == ["timeMs", "strong", "weak"] })
        #expect(text.contains("\n    {\"strong\": "), "a frame is one line")
        let csv = try await HapticsProcess.run(["render", "success", "--rumble", "-o", "-"], timeout: .seconds(30))
        let rows = csv.outputLines.dropFirst().map { $0.split(separator: ",").compactMap { Int($0) } }
        #expect(rows == frames.map { [$0["timeMs"] as? Int ?? -1, $0["strong"] as? Int ?? -1, $0["weak"] as? Int ?? -1] })
    }

    @Test("convert --json reports what it read and wrote and each approximation, instead of the lines on standard error")
    func convertReport() async throws {
        let folder = try TemporaryFolder()
        let lines = try await HapticsProcess.run(["convert", "start", "-o", "hb.js"], in: folder.url, timeout: .seconds(30))
        #expect(lines.status == 0, "\(lines.errorLines)")
        let approximated = lines.errorLines.filter { $0.hasPrefix("haptics: approximated: ") }
        #expect(!approximated.isEmpty, "the web format approximates start: \(lines.errorLines)")
        let result = try await HapticsProcess.run(["convert", "start", "-o", "hb2.js", "--json"], in: folder.url, timeout: .seconds(30))
        #expect(result.status == 0, "\(result.errorLines)")
        #expect(result.errorLines.isEmpty, "\(result.errorLines)")
        let document = try expectStyle(result.output, "convert")
        #expect(document["input"] as? String == "start" && document["output"] as? String == "hb2.js" && document["to"] as? String == "web-js")
        let notes = try #require(document["approximations"] as? [[String: Any]])
        #expect(
            notes.map { "haptics: approximated: " + ($0["message"] as? String ?? "") + (($0["count"] as? Int ?? 1) > 1 ? " (\($0["count"]!)×)" : "") }
                == approximated)
        #expect(notes.allSatisfy { Set($0.keys) == ["kind", "message", "count"] })
        let toStandardOutput = try await HapticsProcess.run(["convert", "start", "-o", "-", "--json"], timeout: .seconds(30))
        #expect(toStandardOutput.status == 2, "the report and the pattern cannot share standard output")
    }

    @Test("play --json says what played where; without an output it says where it rendered instead, and exits 69")
    func playReport() async throws {
        let folder = try TemporaryFolder()
        let played = try await HapticsProcess.run(["play", "success", "--device", "null", "--json"], in: folder.url, timeout: .seconds(60))
        #expect(played.status == 0, "\(played.errorLines)")
        let document = try expectStyle(played.output, "play")
        #expect(document["played"] as? Bool == true && document["device"] as? String == "null" && document["profile"] as? String == "wideband")
        #expect(document["renderedTo"] is NSNull && document["reason"] is NSNull)
        #expect(Set(document.keys) == ["hapticsVersion", "pattern", "played", "device", "profile", "duration", "clippedSamples", "renderedTo", "reason"])
    }

    @Test("analyze --json reports the onsets it found and what it wrote")
    func analyzeReport() async throws {
        let folder = try TemporaryFolder()
        // Two clicks in silence, 0.5 s apart.
        var samples = [Float](repeating: 0, count: 48_000)
        for start in [4_800, 28_800] { for i in 0..<96 { samples[start + i] = i % 2 == 0 ? 0.9 : -0.9 } }
        _ = try TestWAV.write(samples, sampleRate: 48_000, to: folder.file("clicks.wav"))
        let result = try await HapticsProcess.run(["analyze", "clicks.wav", "-o", "clicks.ahap", "--json"], in: folder.url, timeout: .seconds(60))
        if result.errorOutput.contains("libsndfile") { try Test.cancel("libsndfile is not installed (scripts/install-dependencies.sh installs it)") }
        #expect(result.status == 0, "\(result.errorLines)")
        let document = try expectStyle(result.output, "analyze")
        #expect(document["sound"] as? String == "clicks.wav" && document["output"] as? String == "clicks.ahap" && document["to"] as? String == "ahap")
        let onsets = try #require(document["onsets"] as? [Double])
        #expect(onsets.count == 2, "\(onsets)")
        #expect(abs((document["duration"] as? Double ?? 0) - 1) < 0.001)
        #expect((document["counts"] as? [String: Any])?["transients"] as? Int == 2)
    }
}
