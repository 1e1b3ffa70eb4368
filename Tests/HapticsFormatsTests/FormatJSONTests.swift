import Foundation
import HapticsCore
import HapticsTestSupport
import Testing

@testable import HapticsFormats

/// How the readers of `.haptic`, `.android.json` and `.web.json` read JSON (`FormatJSON`), and the
/// JSON helpers of the writers (`JSONOutput`): values, limits and located one-line errors.
@Suite("FormatJSON and JSONOutput")
struct FormatJSONTests {
    /// The field `value` of `{"value": TEXT}`.
    static func field(_ text: String) throws -> JSONField {
        let root = try FormatJSON.root(Data(#"{"value": \#(text)}"#.utf8), source: "in.json")
        return try #require(root["value"])
    }

    /// The one-line, located error `body` throws for the field.
    static func error(_ text: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: (JSONField) throws(JSONFileError) -> Double) throws -> String {
        let field = try field(text)
        do throws(JSONFileError) {
            let value = try body(field)
            Issue.record("\(text) read as \(value)", sourceLocation: sourceLocation)
            return ""
        } catch {
            let place = FuzzRun.Place.located(source: "in.json", isLocated: error.isLocated, line: error.line, column: error.column, inputLines: 1)
            _ = FuzzRun.refusal(error.description, place, label: text, sourceLocation: sourceLocation)
            return error.description
        }
    }

    @Test("seconds and milliseconds from 0 to the 3,600 s pattern limit; numbers of the wrong kind are refused, never read as 0")
    func numbers() throws {
        #expect(try Self.field("2.5").seconds() == 2.5)
        #expect(try Self.field("3600").seconds() == FormatJSON.maxSeconds)
        #expect(try Self.field("3600000").milliseconds() == 3_600_000)
        #expect(try Self.field("-1e-3").finiteNumber() == -0.001)
        _ = try Self.error("-0.5") { field throws(JSONFileError) in try field.seconds() }
        _ = try Self.error("3600.5") { field throws(JSONFileError) in try field.seconds() }
        _ = try Self.error("3600001") { field throws(JSONFileError) in try field.milliseconds() }
        _ = try Self.error(#""1""#) { field throws(JSONFileError) in try field.finiteNumber() }
        _ = try Self.error("true") { field throws(JSONFileError) in try field.finiteNumber() }
        _ = try Self.error("null") { field throws(JSONFileError) in try field.seconds() }
    }

    @Test("text, items, and a running total past the limit, each at its place")
    func textItemsAndTotals() throws {
        #expect(try Self.field(#""tick""#).text() == "tick")
        #expect(try Self.field("[1, 2, 3]").items(of: "numbers").count == 3)
        _ = try Self.error("3") { field throws(JSONFileError) in try Double(field.text().count) }
        _ = try Self.error("{}") { field throws(JSONFileError) in try Double(field.items(of: "numbers").count) }
        let total = try Self.field("1").pastLimit(3600.25)
        #expect(total.isLocated && !total.description.contains(where: \.isNewline))
        #expect(total.description.contains("3600.25") && total.description.contains("pattern limit"), "\(total)")
    }

    @Test("the input must be one JSON object of at most 16 MiB; broken JSON is located")
    func root() throws {
        func read(_ data: Data, _ source: String) throws(FormatError) -> JSONObject {
            do throws(JSONFileError) {
                return try FormatJSON.root(data, source: source)
            } catch {
                throw FormatJSON.formatError(error)
            }
        }
        locatedRefusal("[1, 2]", read)
        locatedRefusal("{\"a\": 1,\n \"b\": }", read)
        locatedRefusal(String(repeating: "[", count: 100) + String(repeating: "]", count: 100), read)
        var tooLarge = Data("{\"a\": \"".utf8)
        tooLarge.append(Data(repeating: 0x61, count: FormatJSON.limits.maxInputBytes))
        tooLarge.append(Data("\"}".utf8))
        #expect(throws: JSONFileError.self) { try FormatJSON.root(tooLarge, source: "big.json") }
    }

    @Test("JSONOutput.number rounds to its digits and reads back as that value; non-finite numbers are written as 0")
    func outputNumbers() {
        #expect(Double(JSONOutput.number(0.5)) == 0.5)
        #expect(Double(JSONOutput.number(1)) == 1)
        #expect(Double(JSONOutput.number(0.123456)) == 0.1235)
        #expect(Double(JSONOutput.number(0.123456, digits: 6)) == 0.123456)
        #expect(Double(JSONOutput.number(-2.00004)) == -2)
        #expect(Double(JSONOutput.number(.nan)) == 0)
        #expect(Double(JSONOutput.number(.infinity)) == 0)
    }

    @Test("JSONOutput.parse gives dictionaries, arrays, strings, doubles, bools and nil; its errors are one located line")
    func outputParse() throws {
        let parsed = try JSONOutput.parse(Data(#"{"a": 1.5, "b": [true, null, "x"], "c": {"d": 2}}"#.utf8), source: "in.json")
        #expect(JSONOutput.double(parsed["a"]) == 1.5)
        let b = try #require(parsed["b"] as? [Any])
        #expect(b.count == 3 && b[0] as? Bool == true && b[2] as? String == "x")
        #expect((b[1] as Any?).flatMap { $0 as? Double } == nil)
        #expect(JSONOutput.double((parsed["c"] as? [String: Any])?["d"]) == 2)
        #expect(JSONOutput.double(true) == 1 && JSONOutput.double(false) == 0 && JSONOutput.double("1") == nil)
        locatedRefusal("{\"a\": [1,\n 2,, 3]}") { (data, source) throws(FormatError) in try JSONOutput.parse(data, source: source) }
    }
}
