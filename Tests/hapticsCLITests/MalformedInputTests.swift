import Foundation
import HapticsTestSupport
import Testing

/// Hostile and broken inputs, generated at test time: each must give one error line and exit
/// status 1 — never a crash, a hang or a flood of output.
@Suite("Malformed input through the command line")
struct MalformedInputTests {
    /// Small broken files: name, contents, the JSON location of the error, and what its line
    /// must contain after the file name (`line:column: error: message`).
    static let smallCases: [(String, String, String, String)] = [
        ("truncated.ahap", "{\"Pattern\":[{\"Event\":{\"Time\":0.5,\"EventType\":\"HapticTr", "Pattern[0].Event.EventType", "1:46: error: unterminated string"),
        ("truncated-object.ahap", "{\"Pattern\":[{\"Event\":{\"Time\":0.5", "Pattern[0].Event", "1:33: error: unexpected end of input"),
        ("not-json.ahap", "Pattern: [tap]", "", "1:1: error: unexpected 'Pattern'"),
        ("top-level.ahap", "[1, 2]", "", "1:1: error: expected a JSON object with a 'Pattern' array at the top level, found an array"),
        ("pattern-type.ahap", "{\"Pattern\": 3}", "Pattern", "1:13: error: expected an array of pattern elements, found a number (3)"),
        (
            "element-type.ahap", "{\"Pattern\": [true]}", "Pattern[0]",
            "1:14: error: expected an object holding one Event, Parameter or ParameterCurve, found true"
        ),
        ("event-type.ahap", "{\"Pattern\": [{\"Event\": \"tap\"}]}", "Pattern[0].Event", "1:24: error: expected an object, found a string (\"tap\")"),
        (
            "time-type.ahap", "{\"Pattern\": [{\"Event\": {\"Time\": \"0\", \"EventType\": \"HapticTransient\"}}]}", "Pattern[0].Event.Time",
            "1:33: error: expected a number, found a string (\"0\")"
        ),
        (
            "parameters-type.ahap", "{\"Pattern\": [{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\", \"EventParameters\": 1}}]}",
            "Pattern[0].Event.EventParameters", "1:87: error: expected an array of parameters, found a number (1)"
        ),
        (
            "value-type.ahap",
            "{\"Pattern\": [{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\", \"EventParameters\": [{\"ParameterID\": \"HapticIntensity\", \"ParameterValue\": [1]}]}}]}",
            "Pattern[0].Event.EventParameters[0].ParameterValue", "1:141: error: expected a number, found an array"
        ),
        (
            "nan.ahap", "{\"Pattern\": [{\"Event\": {\"Time\": NaN, \"EventType\": \"HapticTransient\"}}]}", "Pattern[0].Event.Time",
            "1:33: error: 'NaN' is not a number JSON allows"
        ),
        (
            "overflow.ahap", "{\"Pattern\": [{\"Event\": {\"Time\": 1e309, \"EventType\": \"HapticTransient\"}}]}", "Pattern[0].Event.Time",
            "1:33: error: the number 1e309 is too large: it overflows to infinity"
        ),
        (
            "huge-time.ahap", "{\"Pattern\": [{\"Event\": {\"Time\": 1e308, \"EventType\": \"HapticTransient\"}}]}", "Pattern[0].Event.Time",
            "1:33: error: the time 1e+308 s is beyond the 3600 s limit"
        ),
        ("fragment.ahap", "{\"Event\": {\"Time\": 0, \"EventType\": \"HapticTransient\"}}", "Pattern", "1:1: error: the 'Pattern' array is missing"),
        ("empty.ahap", "", "", "1:1: error: the input is empty"),
        ("binary.ahap", "\u{00}\u{01}\u{02}\u{FF}", "", "1:1: error: unexpected"),
    ]

    @Test("validate prints exactly one error line on standard error and a summary on standard output, exit 1", arguments: smallCases)
    func validateSmall(_ name: String, _ contents: String, _ location: String, _ expected: String) async throws {
        let folder = try TemporaryFolder()
        try folder.write(name, contents)
        let result = try await HapticsProcess.run(["validate", name], in: folder.url)
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1, "\(result.errorLines)")
        let line = result.errorLines.first ?? ""
        #expect(line.hasPrefix("\(name):\(expected)"), "\(line)")
        #expect(location.isEmpty ? !line.hasSuffix("]") : line.hasSuffix(" [\(location)]"), "\(line)")
        #expect(result.outputLines == ["\(name): invalid (1 error)"])
    }

    @Test("show prints exactly one error line on standard error, exit 1", arguments: smallCases)
    func showSmall(_ name: String, _ contents: String, _ location: String, _ expected: String) async throws {
        let folder = try TemporaryFolder()
        try folder.write(name, contents)
        let result = try await HapticsProcess.run(["show", name], in: folder.url)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errorLines.count == 1)
        let line = result.errorLines.first ?? ""
        #expect(line.hasPrefix("\(name):\(expected)"), "\(line)")
        #expect(location.isEmpty ? !line.hasSuffix("]") : line.hasSuffix(" [\(location)]"), "\(line)")
    }

    /// Generates a large input in a temporary folder and checks it is refused with one line.
    private func expectRefused(_ data: Data, name: String, containing expected: String) async throws {
        let folder = try TemporaryFolder()
        try folder.write(name, data)
        let validate = try await HapticsProcess.run(["validate", name], in: folder.url)
        #expect(validate.status == 1)
        #expect(validate.errorLines.count == 1 && validate.outputLines.count == 1)
        #expect(validate.errorLines.first?.contains(expected) == true, "\(validate.errorLines.first ?? "")")
        #expect((validate.errorLines.first?.count ?? 0) < 300)

        let show = try await HapticsProcess.run(["show", name], in: folder.url)
        #expect(show.status == 1)
        #expect(show.errorLines.count == 1)
        #expect(show.errorLines.first?.contains(expected) == true)

        let piped = try await HapticsProcess.run(["show", "-"], stdin: data)
        #expect(piped.status == 1)
        #expect(piped.errorLines.count == 1)
        // Standard input is named `-`: `-:line:column:` at a place, `haptics: -:` for the whole input.
        let line = piped.errorLines.first ?? ""
        #expect(line.hasPrefix("-:") || line.hasPrefix("haptics: -: "), "\(piped.errorLines)")
    }

    @Test("a 50 MB file is refused by its size, naming the limit")
    func fiftyMegabytes() async throws {
        var data = Data("{\"Pattern\": [".utf8)
        data.append(Data(repeating: UInt8(ascii: " "), count: 50_000_000))
        data.append(Data("]}".utf8))
        try await expectRefused(data, name: "fifty.ahap", containing: "16 MiB input limit")
    }

    @Test("1,000,000 events are refused by the element limit, naming it")
    func millionEvents() async throws {
        let text = "{\"Pattern\":[" + Array(repeating: "{\"Event\":{}}", count: 1_000_000).joined(separator: ",") + "]}"
        try await expectRefused(
            Data(text.utf8), name: "million.ahap", containing: "million.ahap:1:1300013: error: more than 100000 elements in one array; the limit is 100000")
    }

    @Test("1,000,000 complete events (51 MB) are refused by the size limit")
    func millionCompleteEvents() async throws {
        let event = "{\"Event\":{\"Time\":0,\"EventType\":\"HapticTransient\"}}"
        let text = "{\"Pattern\":[" + Array(repeating: event, count: 1_000_000).joined(separator: ",") + "]}"
        try await expectRefused(Data(text.utf8), name: "million-full.ahap", containing: "16 MiB input limit")
    }

    @Test("100,000 nested brackets are refused by the depth limit, naming it")
    func deepNesting() async throws {
        try await expectRefused(
            Data(String(repeating: "[", count: 100_000).utf8), name: "deep.ahap", containing: "nest more than 64 levels deep; the limit is 64")
    }

    @Test("a directory and a device that never ends are refused")
    func notFiles() async throws {
        let folder = try TemporaryFolder()
        let directory = try await HapticsProcess.run(["validate", folder.url.path])
        #expect(directory.status == 1)
        #expect(directory.errorLines.first?.hasSuffix("is a directory, not an AHAP file") == true)
        let zero = try await HapticsProcess.run(["validate", "/dev/zero"])
        #expect(zero.status == 1)
        #expect(zero.errorLines.first == "/dev/zero: error: the input is larger than the 16 MiB input limit")
    }
}
