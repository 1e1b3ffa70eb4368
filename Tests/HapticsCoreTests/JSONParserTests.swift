import Foundation
import PropertyBased
import Testing
@testable import HapticsCore

@Suite("JSON parser")
struct JSONParserTests {
    private func parse(_ text: String, limits: AHAPLimits = .default) -> (result: Result<JSONValue, JSONParseFailure>, issues: [JSONIssue]) {
        let parsed = JSONParser.parse(Array(text.utf8), limits: JSONParser.Limits(limits))
        return (parsed.result, parsed.issues)
    }

    private func value(_ text: String) throws -> JSONValue {
        try parse(text).result.get()
    }

    private func failure(_ text: String, limits: AHAPLimits = .default) throws -> JSONParseFailure {
        switch parse(text, limits: limits).result {
        case .success: throw ParseSucceeded()
        case .failure(let failure): return failure
        }
    }

    private struct ParseSucceeded: Error {}

    @Test("numbers read exactly as Double(String) reads them")
    func numbersMatchDoubleParsing() throws {
        let texts = [
            "0", "-0", "1", "0.1", "0.20000000298023224", "1e-5", "1E+2", "-12.5e-3",
            "123456789012345678901234567890", "4.9406564584124654e-324", "1e-400",
            "1.7976931348623157e308", "0.30000000000000004",
        ]
        for text in texts {
            guard case .number(let number) = try value(text).content else {
                Issue.record("\(text) did not parse as a number")
                continue
            }
            #expect(number.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    @Test("any finite double written by description reads back bit for bit")
    func doublesRoundTrip() async {
        await propertyCheck(input: Gen.double(in: -1e12...1e12)) { number in
            let parsed = try value(number.description)
            guard case .number(let read) = parsed.content else {
                Issue.record("not a number")
                return
            }
            #expect(read.bitPattern == number.bitPattern)
        }
    }

    @Test("numbers outside the JSON grammar are rejected", arguments: ["01", "1.", ".5", "+1", "1e", "1e+", "-", "0x10", "1.5.2", "2f"])
    func malformedNumbers(_ text: String) throws {
        let failure = try failure("[\(text)]")
        #expect(failure.message.contains("number") || failure.message.contains("expected"), "\(failure.message)")
    }

    @Test("NaN and infinities are rejected with a message about finite numbers", arguments: ["NaN", "nan", "Infinity", "-Infinity", "inf"])
    func nonFiniteLiterals(_ text: String) throws {
        let failure = try failure("{\"Time\": \(text)}")
        #expect(failure.message.contains("finite"))
        #expect(failure.path == "Time")
    }

    @Test("a number that overflows to infinity is rejected, naming it")
    func overflowingNumber() throws {
        let failure = try failure("{\"a\": [1e309]}")
        #expect(failure.message.contains("1e309"))
        #expect(failure.message.contains("infinity"))
        #expect(failure.path == "a[0]")
        #expect(failure.offset == 7)
    }

    @Test("strings decode escapes and surrogate pairs")
    func stringEscapes() throws {
        let parsed = try value(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u4e2d", "\uD83D\uDE00", "plain é"]"#)
        guard case .array(let items) = parsed.content else {
            Issue.record("not an array")
            return
        }
        let strings = items.compactMap { item -> String? in
            if case .string(let text) = item.content { return text }
            return nil
        }
        #expect(strings == ["a\"b\\c/d\u{08}\u{0C}\n\r\t", "é中", "😀", "plain é"])
    }

    @Test(
        "broken strings are rejected",
        arguments: [
            (#"["\uD83D"]"#, "surrogate"),
            (#"["\uDE00x"]"#, "surrogate"),
            (#"["\uD83Dx"]"#, "surrogate"),
            (#"["\u12G4"]"#, "hexadecimal"),
            (#"["\q"]"#, "escape"),
            ("[\"a\nb\"]", "control character"),
            (#"["abc"#, "unterminated"),
        ])
    func brokenStrings(_ text: String, _ expected: String) throws {
        #expect(try failure(text).message.contains(expected))
    }

    @Test("invalid UTF-8 inside a string is rejected")
    func invalidUTF8() {
        let bytes: [UInt8] = Array("[\"".utf8) + [0xC3, 0x28] + Array("\"]".utf8)
        let parsed = JSONParser.parse(bytes, limits: JSONParser.Limits(.default))
        guard case .failure(let failure) = parsed.result else {
            Issue.record("accepted invalid UTF-8")
            return
        }
        #expect(failure.message.contains("UTF-8"))
    }

    @Test("trailing commas are accepted and reported where they are")
    func trailingCommas() throws {
        let text = "{\"a\": [1, 2,], \"b\": 3,}"
        let parsed = parse(text)
        guard case .success(let root) = parsed.result, case .object(let members) = root.content else {
            Issue.record("not parsed")
            return
        }
        #expect(members.map(\.key) == ["a", "b"])
        #expect(parsed.issues.count == 2)
        #expect(parsed.issues.map(\.path) == ["a", ""])
        #expect(parsed.issues.map(\.offset) == [11, 21])
        #expect(parsed.issues.allSatisfy { $0.message.contains("trailing comma") })
    }

    @Test("a lone comma is not a trailing comma")
    func missingValues() throws {
        #expect(try failure("[,]").message.contains("expected a value"))
        #expect(try failure("{,}").message.contains("expected a key"))
        #expect(try failure("[1,,2]").message.contains("expected a value"))
    }

    @Test("duplicate keys keep the last value and are reported")
    func duplicateKeys() throws {
        let parsed = parse("{\"Time\": 1, \"x\": 2, \"Time\": 3}")
        guard case .success(let root) = parsed.result, case .object(let members) = root.content else {
            Issue.record("not parsed")
            return
        }
        #expect(members.count == 2)
        guard case .number(let time) = members.first(where: { $0.key == "Time" })?.value.content else {
            Issue.record("no Time")
            return
        }
        #expect(time == 3)
        #expect(parsed.issues.count == 1)
        #expect(parsed.issues.first?.path == "Time")
        #expect(parsed.issues.first?.message.contains("duplicate key 'Time'") == true)
    }

    @Test("duplicates are found in objects with many keys too")
    func duplicateKeysInLargeObjects() throws {
        let keys = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let parsed = parse("{\(keys), \"k3\": 100, \"k39\": 200}")
        guard case .success(let root) = parsed.result, case .object(let members) = root.content else {
            Issue.record("not parsed")
            return
        }
        #expect(members.count == 40)
        #expect(parsed.issues.map(\.path) == ["k3", "k39"])
    }

    @Test("truncated input fails at its end with the path reached")
    func truncated() throws {
        let text = "{\"Pattern\": [{\"Event\": {\"Time\": "
        let failure = try failure(text)
        #expect(failure.offset == text.utf8.count)
        #expect(failure.path == "Pattern[0].Event.Time")
        #expect(failure.message.contains("end of input"))
        let unclosed = try self.failure("{\"Pattern\": [1, 2")
        #expect(unclosed.message.contains("line 1, column 13"))
    }

    @Test("empty input, text after the value and stray characters are rejected")
    func framing() throws {
        #expect(try failure("").message.contains("empty"))
        #expect(try failure("  \n ").message.contains("empty"))
        #expect(try failure("{} {}").message.contains("after the end"))
        #expect(try failure("{\"a\" 1}").message.contains("expected ':'"))
        #expect(try failure("{\"a\": 1 \"b\": 2}").message.contains("expected ',' or '}'"))
        #expect(try failure("{a: 1}").message.contains("double quotes"))
        #expect(try failure("// comment\n{}").message.contains("unexpected"))
    }

    @Test("a UTF-8 byte order mark is skipped")
    func byteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{\"a\": true}".utf8)
        let parsed = JSONParser.parse(bytes, limits: JSONParser.Limits(.default))
        guard case .success(let root) = parsed.result, case .object(let members) = root.content else {
            Issue.record("not parsed")
            return
        }
        #expect(members.first?.key == "a")
    }

    @Test("values remember their source range")
    func offsets() throws {
        let text = "{\"a\": [true, null, \"x\"]}"
        guard case .object(let members) = try value(text).content,
            case .array(let items) = members[0].value.content
        else {
            Issue.record("not parsed")
            return
        }
        #expect(members[0].keyStart == 1)
        #expect((members[0].value.start, members[0].value.end) == (6, 23))
        #expect(items.map(\.start) == [7, 13, 19])
        #expect(items.map(\.end) == [11, 17, 22])
    }

    @Test("nesting beyond the depth limit fails, naming the limit, without exhausting the stack")
    func depthLimit() throws {
        let failure = try failure(String(repeating: "[", count: 100_000))
        #expect(failure.message.contains("64"))
        #expect(failure.offset == 64)
        let limits = AHAPLimits(maxDepth: 3)
        #expect(throws: Never.self) { try parse("[[[1]]]", limits: limits).result.get() }
        #expect(try self.failure("[[[[1]]]]", limits: limits).message.contains("3"))
    }

    @Test("an array longer than the element limit fails, naming the limit, at the first extra element")
    func elementLimit() throws {
        let limits = AHAPLimits(maxElements: 3)
        #expect(throws: Never.self) { try parse("[1,2,3]", limits: limits).result.get() }
        let failure = try failure("{\"Pattern\": [1,2,3,4,5,6]}", limits: limits)
        #expect(failure.message.contains("more than 3 elements"))
        #expect(failure.path == "Pattern")
        #expect(failure.offset == 19)
    }

    @Test("more JSON values than the value limit fails, naming the limit")
    func valueLimit() throws {
        let limits = AHAPLimits(maxValues: 5)
        #expect(throws: Never.self) { try parse("[1,[2],3]", limits: limits).result.get() }
        #expect(try failure("[1,[2],3,4,5]", limits: limits).message.contains("more than 5 JSON values"))
    }
}
