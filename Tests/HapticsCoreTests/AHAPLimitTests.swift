import Foundation
import HapticsTestSupport
import Testing
import HapticsCore

@Suite("Limits that protect the machine are errors naming the limit")
struct AHAPLimitTests {
    @Test("a time of 1e308 is finite but beyond the total-duration limit")
    func hugeTime() {
        for mode in ValidationMode.allCases {
            let found = errors(of: document(transient(at: "1e308")), mode: mode)
            #expect(found.map(\.location) == ["Pattern[0].Event.Time"])
            #expect(found.first?.message.contains("3600 s limit") == true)
        }
    }

    @Test("a pattern lasting longer than the limit is rejected, naming the limit")
    func totalDuration() {
        let json = document("{ \"Event\": { \"Time\": 3000, \"EventType\": \"HapticContinuous\", \"EventDuration\": 700 } }")
        let found = errors(of: json)
        #expect(found.map(\.location) == ["Pattern"])
        #expect(found.first?.message.contains("3600 s limit") == true)
        let curve = document(
            "{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 3000, \"ParameterCurveControlPoints\": [ { \"Time\": 601, \"ParameterValue\": 1 } ] } }"
        )
        #expect(errors(of: curve).map(\.location) == ["Pattern"])
    }

    @Test("the duration limit is configurable")
    func customDurationLimit() throws {
        let decoder = AHAPDecoder(limits: AHAPLimits(maxDuration: 10))
        let json = Data(document(transient(at: "11")).utf8)
        let error = try #require(throws: AHAPError.self) { try decoder.decode(json) }
        #expect(error.description.contains("10 s limit"))
    }

    @Test("a curve with more points than the hard limit is rejected in every mode")
    func controlPointLimit() {
        let points = (0..<1025).map { "{ \"Time\": \(Double($0) / 1000), \"ParameterValue\": 1 }" }.joined(separator: ",")
        let json = document(
            "{ \"ParameterCurve\": { \"ParameterID\": \"HapticIntensityControl\", \"Time\": 0, \"ParameterCurveControlPoints\": [ \(points) ] } }")
        for mode in ValidationMode.allCases {
            let found = errors(of: json, mode: mode)
            #expect(found.map(\.location) == ["Pattern[0].ParameterCurve.ParameterCurveControlPoints"])
            #expect(found.first?.message.contains("limit of 1024") == true)
        }
    }

    @Test("input larger than the size limit is rejected before parsing, naming the limit")
    func inputSize() throws {
        let decoder = AHAPDecoder(limits: AHAPLimits(maxInputBytes: 1 << 10))
        let json = Data((document(transient()) + String(repeating: " ", count: 2000)).utf8)
        let error = try #require(throws: AHAPError.self) { try decoder.decode(json, source: "big.ahap") }
        #expect(error.diagnostics.count == 1)
        #expect(error.description == "big.ahap: error: the input is \(json.count) bytes, more than the 1 KiB input limit")
    }

    @Test("a 50 MB file is refused by its size, naming the 16 MiB limit")
    func largeFile() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("fifty.ahap")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 50_000_000)
        try handle.close()
        let error = try #require(throws: AHAPError.self) { try AHAPDecoder().decode(contentsOf: file) }
        #expect(error.diagnostics.count == 1)
        #expect(error.description.contains("50000000 bytes, more than the 16 MiB input limit"))
    }

    @Test("a pattern of 1,000,000 events is refused by the element limit")
    func millionEvents() throws {
        var text = "{\"Pattern\":["
        text += Array(repeating: "{\"Event\":{}}", count: 1_000_000).joined(separator: ",")
        text += "]}"
        let data = Data(text.utf8)
        #expect(data.count < AHAPLimits.default.maxInputBytes, "the size limit must not be what stops it")
        let error = try #require(throws: AHAPError.self) { try AHAPDecoder().decode(data) }
        #expect(error.diagnostics.count == 1)
        #expect(error.diagnostics.first?.location == "Pattern")
        #expect(error.description.contains("more than 100000 elements in one array; the limit is 100000"))
    }

    @Test("100,000 nested brackets are refused by the depth limit")
    func deepNesting() throws {
        let data = Data(String(repeating: "[", count: 100_000).utf8)
        let error = try #require(throws: AHAPError.self) { try AHAPDecoder().decode(data) }
        #expect(error.diagnostics.count == 1)
        #expect(error.description.contains("64 levels deep; the limit is 64"))
        #expect(error.description.count < 200, "the location of a deep path is shortened")
    }

    @Test("files that are not readable AHAP files are reported, not thrown at")
    func unreadableFiles() throws {
        let folder = try TemporaryFolder()
        let missing = try #require(throws: AHAPError.self) {
            try AHAPDecoder().decode(contentsOf: folder.url.appendingPathComponent("missing.ahap"))
        }
        #expect(missing.description.hasSuffix("missing.ahap: error: no such file"))
        let directory = try #require(throws: AHAPError.self) { try AHAPDecoder().decode(contentsOf: folder.url) }
        #expect(directory.description.contains("is a directory"))
    }

    @Test("reading from a device that never ends stops at the size limit")
    func endlessInput() throws {
        let zero = open("/dev/zero", O_RDONLY)
        try #require(zero >= 0)
        defer { close(zero) }
        let decoder = AHAPDecoder(limits: AHAPLimits(maxInputBytes: 1 << 20))
        let error = try #require(throws: AHAPError.self) { try decoder.decode(fileDescriptor: zero, source: "zero") }
        #expect(error.description == "zero: error: the input is larger than the 1 MiB input limit")
    }
}
