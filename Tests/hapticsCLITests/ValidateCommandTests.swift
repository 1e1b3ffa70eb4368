import Foundation
import HapticsTestSupport
import Testing

@Suite("haptics validate")
struct ValidateCommandTests {
    @Test("a valid file prints one summary line and exits 0")
    func validFile() async throws {
        let folder = try TemporaryFolder()
        try folder.write("sample.ahap", samplePattern)
        let result = try await HapticsProcess.run(["validate", "sample.ahap"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.outputLines == ["sample.ahap: valid"])
        #expect(result.errorOutput.isEmpty)
    }

    @Test("warnings go to standard error with file, location and severity, the verdict to standard output; the file is still valid")
    func warnings() async throws {
        let folder = try TemporaryFolder()
        try folder.write("warn.ahap", patternWithWarning)
        let result = try await HapticsProcess.run(["validate", "warn.ahap"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.errorLines == ["warn.ahap:1:72: warning: unknown key 'Colour' is ignored [Pattern[0].Event.Colour]"])
        #expect(result.outputLines == ["warn.ahap: valid (1 warning)"])
        let quiet = try await HapticsProcess.run(["validate", "-q", "warn.ahap"], in: folder.url)
        #expect(quiet.errorLines.isEmpty && quiet.outputLines == ["warn.ahap: valid (1 warning)"], "--quiet leaves warnings out")
    }

    @Test("--strict turns the warnings into errors in strict wording (nothing is ignored or clamped: the file is refused) and exits 1")
    func strict() async throws {
        let folder = try TemporaryFolder()
        try folder.write("warn.ahap", patternWithWarning)
        let result = try await HapticsProcess.run(["validate", "--strict", "warn.ahap"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.errorLines == ["warn.ahap:1:72: error: unknown key 'Colour' [Pattern[0].Event.Colour]"])
        #expect(result.outputLines == ["warn.ahap: invalid (1 error)"])
        try folder.write(
            "loud.ahap",
            #"{ "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticTransient", "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 1.5 } ] } } ] }"#
        )
        let lenient = try await HapticsProcess.run(["validate", "loud.ahap"], in: folder.url)
        #expect(lenient.errorLines.first?.contains("warning: HapticIntensity 1.5 is outside 0...1; clamped to 1 [") == true, "\(lenient.errorLines)")
        let refused = try await HapticsProcess.run(["validate", "--strict", "loud.ahap"], in: folder.url)
        #expect(refused.errorLines.first?.contains("error: HapticIntensity 1.5 is outside 0...1 [") == true, "\(refused.errorLines)")
    }

    @Test("problems are printed in line order, errors and warnings mixed, as a reader meets them")
    func lineOrder() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "mixed.ahap",
            """
            { "Pattern": [
                { "Event": { "Time": 0, "EventType": "HapticTransient", "Colour": 1 } },
                { "Event": { "Time": -1, "EventType": "HapticTransient" } },
                { "Event": { "Time": 0.1, "EventType": "HapticTransient", "Size": 2 } } ] }
            """)
        let result = try await HapticsProcess.run(["validate", "mixed.ahap"], in: folder.url)
        #expect(result.status == 1)
        let lines = result.errorLines.map { $0.split(separator: ":").prefix(2).joined(separator: ":") }
        #expect(lines == ["mixed.ahap:2", "mixed.ahap:3", "mixed.ahap:4"], "\(result.errorLines)")
        #expect(result.outputLines == ["mixed.ahap: invalid (1 error, 2 warnings)"])
    }

    @Test("every file gets its lines and summary; one invalid file makes the exit status 1")
    func severalFiles() async throws {
        let folder = try TemporaryFolder()
        try folder.write("good.ahap", samplePattern)
        try folder.write("bad.ahap", invalidPattern)
        let result = try await HapticsProcess.run(["validate", "good.ahap", "bad.ahap", "missing.ahap"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.outputLines == ["good.ahap: valid", "bad.ahap: invalid (1 error)", "missing.ahap: invalid (1 error)"])
        #expect(
            result.errorLines == [
                "bad.ahap:2:37: error: negative time -1; a time must be 0 or more [Pattern[1].Event.Time]",
                "missing.ahap: error: no such file",
            ])
    }

    @Test("- reads standard input")
    func standardInput() async throws {
        let valid = try await HapticsProcess.run(["validate", "-"], stdin: Data(samplePattern.utf8))
        #expect(valid.status == 0)
        #expect(valid.outputLines == ["-: valid"])
        let invalid = try await HapticsProcess.run(["validate", "-"], stdin: Data(invalidPattern.utf8))
        #expect(invalid.status == 1)
        #expect(invalid.outputLines.last == "-: invalid (1 error)")
    }

    @Test("--json prints one document: the version once, whether all are valid, and per file its errors and warnings with every key present")
    func jsonReport() async throws {
        let folder = try TemporaryFolder()
        try folder.write("warn.ahap", patternWithWarning)
        try folder.write("bad.ahap", invalidPattern)
        let result = try await HapticsProcess.run(["validate", "--json", "warn.ahap", "bad.ahap"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.errorOutput.isEmpty, "the report holds the problems")
        let document = try #require(try jsonObject(result.stdout) as? [String: Any])
        #expect(Set(document.keys) == ["hapticsVersion", "valid", "files"])
        #expect(document["valid"] as? Bool == false)
        let reports = try #require(document["files"] as? [[String: Any]])
        #expect(reports.count == 2)
        #expect(reports.map { Set($0.keys) } == Array(repeating: ["file", "valid", "errorCount", "warningCount", "errors", "warnings"], count: 2))
        #expect(reports.map { $0["errorCount"] as? Int } == [0, 1])
        #expect(reports.map { $0["warningCount"] as? Int } == [1, 0])
        #expect(reports[0]["file"] as? String == "warn.ahap")
        #expect(reports[0]["valid"] as? Bool == true)
        #expect((reports[0]["errors"] as? [Any])?.isEmpty == true)
        let warning = try #require((reports[0]["warnings"] as? [[String: Any]])?.first)
        #expect(Set(warning.keys) == ["severity", "location", "line", "column", "message", "suggestion"])
        #expect(warning["severity"] as? String == "warning")
        #expect(warning["location"] as? String == "Pattern[0].Event.Colour")
        #expect(warning["line"] as? Int == 1)
        #expect(warning["column"] as? Int == 72)
        #expect(warning["suggestion"] is NSNull)
        #expect(reports[1]["valid"] as? Bool == false)
        let error = try #require((reports[1]["errors"] as? [[String: Any]])?.first)
        #expect(error["severity"] as? String == "error")
        #expect(error["location"] as? String == "Pattern[1].Event.Time")
        #expect(error["message"] as? String == "negative time -1; a time must be 0 or more")
    }

    @Test("--json reports a suggestion for a near-miss key")
    func jsonSuggestion() async throws {
        let json = "{ \"Pattern\": [ { \"Event\": { \"Time\": 0, \"EventType\": \"HapticTransient\" } }, { \"ParameterCurves\": {} } ] }"
        let result = try await HapticsProcess.run(["validate", "--json", "-"], stdin: Data(json.utf8))
        #expect(result.status == 0)
        let reports = try #require((try jsonObject(result.stdout) as? [String: Any])?["files"] as? [[String: Any]])
        let warning = try #require((reports.first?["warnings"] as? [[String: Any]])?.first)
        #expect(warning["suggestion"] as? String == "ParameterCurve")
    }

    @Test("no file is a usage error, exit 2")
    func noFiles() async throws {
        let result = try await HapticsProcess.run(["validate"])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
    }

    @Test("--help teaches the command with its output format, JSON schema and examples")
    func help() async throws {
        let result = try await HapticsProcess.run(["validate", "--help"])
        #expect(result.status == 0)
        for text in ["Check AHAP files", "--strict", "\"suggestion\"", "Exit status", "Examples:", "haptics validate --strict"] {
            #expect(result.output.contains(text), "\(text)")
        }
    }

    @Test("a flood of warnings is listed in part, and the summary counts them all")
    func floodOfWarnings() async throws {
        let elements = Array(repeating: "{\"Event\":{\"Time\":0,\"EventType\":\"HapticTransient\",\"Colr\":1}}", count: 5000)
        let json = "{\"Pattern\":[" + elements.joined(separator: ",") + "]}"
        let result = try await HapticsProcess.run(["validate", "-"], stdin: Data(json.utf8))
        #expect(result.status == 0)
        #expect(result.errorLines.count == 101)
        #expect(result.errorLines.last == "-: warning: 4900 more warnings not shown")
        #expect(result.outputLines == ["-: valid (5000 warnings)"])
    }
}
