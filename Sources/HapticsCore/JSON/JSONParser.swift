/// Something questionable the parser accepted and reports: a trailing comma or a duplicate key.
struct JSONIssue: Sendable {
    var path: String
    var offset: Int
    var message: String
}

/// Why parsing stopped: malformed JSON or a limit exceeded.
struct JSONParseFailure: Error, Sendable {
    var path: String
    var offset: Int
    var message: String
}

/// A JSON parser that keeps source offsets, reports trailing commas and duplicate keys instead
/// of failing on them, and stops as soon as input exceeds a limit.
///
/// Foundation's `JSONSerialization` gives no locations, rejects trailing commas (which Apple's
/// own sample files contain) and has no limits, hence this one. Numbers are parsed exactly as
/// `Double(String)` parses them, after checking them against the JSON grammar.
struct JSONParser {
    /// The limits the parser enforces; the rest of ``AHAPLimits`` is for the decoder.
    struct Limits: Sendable {
        var maxDepth: Int
        var maxElements: Int
        var maxValues: Int

        init(_ limits: AHAPLimits) {
            maxDepth = limits.maxDepth
            maxElements = limits.maxElements
            maxValues = limits.maxValues
        }

        init(maxDepth: Int, maxElements: Int, maxValues: Int) {
            self.maxDepth = maxDepth
            self.maxElements = maxElements
            self.maxValues = maxValues
        }
    }

    /// Parses a whole document: one value, optionally after a UTF-8 byte order mark.
    /// Returns the value (or why there is none) and the issues seen on the way.
    static func parse(_ bytes: [UInt8], limits: Limits) -> (result: Result<JSONValue, JSONParseFailure>, issues: [JSONIssue], issueCount: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, limits: limits)
            let result: Result<JSONValue, JSONParseFailure>
            do throws(JSONParseFailure) {
                result = .success(try parser.parseDocument())
            } catch {
                result = .failure(error)
            }
            return (result, parser.issues, parser.issueCount)
        }
    }

    /// Issues beyond this many are counted, not kept: a hostile file could hold millions.
    static let maxRecordedIssues = 1000

    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: Limits
    private var index = 0
    private var depth = 0
    private var valueCount = 0
    private var path: [JSONPath.Component] = []
    private var issues: [JSONIssue] = []
    private var issueCount = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    // MARK: Document

    private mutating func parseDocument() throws(JSONParseFailure) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count else {
            throw failure("the input is empty; expected a JSON object")
        }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw failure("unexpected \(describeByte(at: index)) after the end of the JSON value")
        }
        return value
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParseFailure) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else {
            throw failure("unexpected end of input; expected a value")
        }
        valueCount += 1
        if valueCount > limits.maxValues {
            throw failure("more than \(limits.maxValues) JSON values; the limit is \(limits.maxValues)")
        }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try parseObject()
        case UInt8(ascii: "["):
            return try parseArray()
        case UInt8(ascii: "\""):
            let text = try parseString()
            return JSONValue(content: .string(text), start: start, end: index)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            return try parseWord()
        case UInt8(ascii: "+"), UInt8(ascii: "."):
            throw failure("invalid number: JSON numbers start with a digit or '-'")
        default:
            throw failure("unexpected \(describeByte(at: index)); expected a value")
        }
    }

    /// `true`, `false`, `null`, and the names of numbers JSON cannot hold.
    private mutating func parseWord() throws(JSONParseFailure) -> JSONValue {
        let start = index
        while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
        let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        switch word {
        case "true": return JSONValue(content: .bool(true), start: start, end: index)
        case "false": return JSONValue(content: .bool(false), start: start, end: index)
        case "null": return JSONValue(content: .null, start: start, end: index)
        default:
            index = start
            throw failure(Self.messageForBareWord(word))
        }
    }

    private static func messageForBareWord(_ word: String) -> String {
        let name = word.hasPrefix("-") ? String(word.dropFirst()) : word
        switch name.lowercased() {
        case "nan":
            return "'\(word)' is not a number JSON allows; JSON numbers must be finite"
        case "infinity", "inf":
            return "'\(word)' is not a number JSON allows; JSON numbers must be finite"
        default:
            return "unexpected '\(word)'; expected a value (strings need double quotes)"
        }
    }

    private mutating func parseNumber() throws(JSONParseFailure) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
            if index < bytes.count, isWordByte(bytes[index]), !isDigit(bytes[index]) {
                let wordStart = index
                while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
                let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[wordStart..<index]), as: UTF8.self)
                index = start
                throw failure(Self.messageForBareWord("-" + word))
            }
        }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw failure("invalid number: expected a digit after '-'")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw failure("invalid number: JSON numbers have no leading zeros")
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw failure("invalid number: expected a digit after the decimal point")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw failure("invalid number: expected a digit in the exponent")
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, isWordByte(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
            throw failure("invalid number: unexpected \(describeByte(at: index))")
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            let shown = text.count > 32 ? String(text.prefix(32)) + "…" : text
            index = start
            throw failure("the number \(shown) is too large: it overflows to infinity, and JSON numbers must be finite")
        }
        return JSONValue(content: .number(value), start: start, end: index)
    }

    // MARK: Strings

    /// Parses a string starting at its opening quote; leaves `index` after the closing quote.
    private mutating func parseString() throws(JSONParseFailure) -> String {
        let quote = index
        index += 1
        let contentStart = index
        // Fast path: most strings are ASCII without escapes.
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let utf8 = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
                let text = isASCII ? String(decoding: utf8, as: UTF8.self) : try validatedText(utf8, from: quote)
                index += 1
                return text
            }
            if byte >= 0x80 { isASCII = false }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw controlCharacterFailure(byte) }
            index += 1
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let text = try buffer.withUnsafeBufferPointer { (utf8) throws(JSONParseFailure) -> String in
                    try validatedText(utf8, from: quote)
                }
                index += 1
                return text
            case UInt8(ascii: "\\"):
                try parseEscape(into: &buffer)
            case 0..<0x20:
                throw controlCharacterFailure(byte)
            default:
                buffer.append(byte)
                index += 1
            }
        }
        index = quote
        throw failure("unterminated string: no closing '\"' before the end of input")
    }

    private func validatedText(_ utf8: UnsafeBufferPointer<UInt8>, from quote: Int) throws(JSONParseFailure) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw JSONParseFailure(path: JSONPath.render(path), offset: quote, message: "the string is not valid UTF-8")
        }
        return text
    }

    private func controlCharacterFailure(_ byte: UInt8) -> JSONParseFailure {
        let hex = String(byte, radix: 16, uppercase: true)
        let code = String(repeating: "0", count: 4 - hex.count) + hex
        return failure("control character U+\(code) inside a string; write it as an escape such as \\n or \\u\(code)")
    }

    /// Parses one escape sequence starting at its backslash and appends its UTF-8 bytes.
    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseFailure) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else {
            index = escapeStart
            throw failure("unterminated string: the input ends inside an escape sequence")
        }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHexQuad(escapeStart: escapeStart)
            let scalarValue: UInt32
            switch unit {
            case 0xD800...0xDBFF:
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    index = escapeStart
                    throw failure("unpaired surrogate \\u\(hex4(unit)): a high surrogate must be followed by a low one")
                }
                let lowStart = index
                index += 2
                let low = try parseHexQuad(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    index = escapeStart
                    throw failure("unpaired surrogate \\u\(hex4(unit)): a high surrogate must be followed by a low one")
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            case 0xDC00...0xDFFF:
                index = escapeStart
                throw failure("unpaired surrogate \\u\(hex4(unit)): a low surrogate without a high one")
            default:
                scalarValue = UInt32(unit)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                index = escapeStart
                throw failure("invalid \\u escape")
            }
            buffer.append(contentsOf: String(Character(scalar)).utf8)
        default:
            index = escapeStart
            throw failure("invalid escape sequence '\\\(describeScalar(letter))' in a string")
        }
    }

    private mutating func parseHexQuad(escapeStart: Int) throws(JSONParseFailure) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                index = escapeStart
                throw failure("invalid \\u escape: expected four hexadecimal digits")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private func hex4(_ value: UInt16) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - hex.count) + hex
    }

    // MARK: Containers

    private mutating func enterContainer() throws(JSONParseFailure) {
        depth += 1
        if depth > limits.maxDepth {
            throw failure("arrays and objects nest more than \(limits.maxDepth) levels deep; the limit is \(limits.maxDepth)")
        }
    }

    private mutating func parseArray() throws(JSONParseFailure) -> JSONValue {
        let start = index
        try enterContainer()
        index += 1
        var items: [JSONValue] = []
        var pendingComma: Int?
        while true {
            skipWhitespace()
            guard index < bytes.count else {
                let expected = items.isEmpty || pendingComma != nil ? "a value or ']'" : "',' or ']'"
                throw failure("unexpected end of input; expected \(expected) (the array opened at \(positionText(start)) is not closed)")
            }
            if bytes[index] == UInt8(ascii: "]") {
                if let comma = pendingComma { recordTrailingComma(at: comma, closing: "]") }
                index += 1
                break
            }
            if !items.isEmpty && pendingComma == nil {
                throw failure("expected ',' or ']' after an array item, found \(describeByte(at: index))")
            }
            if items.count == limits.maxElements {
                throw failure("more than \(limits.maxElements) elements in one array; the limit is \(limits.maxElements)")
            }
            path.append(.index(items.count))
            let item = try parseValue()
            path.removeLast()
            items.append(item)
            pendingComma = nil
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                pendingComma = index
                index += 1
            }
        }
        depth -= 1
        return JSONValue(content: .array(Self.exactly(items)), start: start, end: index)
    }

    private mutating func parseObject() throws(JSONParseFailure) -> JSONValue {
        let start = index
        try enterContainer()
        index += 1
        var members: [JSONMember] = []
        // Objects in AHAP have a handful of keys; a dictionary is built only for big ones,
        // so that a hostile object with many keys cannot make duplicate checks quadratic.
        var positions: [String: Int]?
        var pendingComma: Int?
        while true {
            skipWhitespace()
            guard index < bytes.count else {
                let expected = members.isEmpty || pendingComma != nil ? "a key or '}'" : "',' or '}'"
                throw failure("unexpected end of input; expected \(expected) (the object opened at \(positionText(start)) is not closed)")
            }
            if bytes[index] == UInt8(ascii: "}") {
                if let comma = pendingComma { recordTrailingComma(at: comma, closing: "}") }
                index += 1
                break
            }
            if !members.isEmpty && pendingComma == nil {
                let after = members.last.map { " after the value of '\(JSONText.display($0.key))'" } ?? ""
                throw failure("expected ',' or '}'\(after), found \(describeByte(at: index))")
            }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a key in double quotes, found \(describeByte(at: index))")
            }
            if members.count == limits.maxElements {
                throw failure("more than \(limits.maxElements) keys in one object; the limit is \(limits.maxElements)")
            }
            let keyStart = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count else {
                throw failure("unexpected end of input; expected ':' after the key '\(JSONText.display(key))'")
            }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after the key '\(JSONText.display(key))', found \(describeByte(at: index))")
            }
            index += 1
            path.append(.key(key))
            let value = try parseValue()
            path.removeLast()
            let member = JSONMember(key: key, keyStart: keyStart, value: value)
            if let existing = indexOfKey(key, in: members, positions: positions) {
                record(
                    JSONIssue(
                        path: JSONPath.appending(key, to: JSONPath.render(path)),
                        offset: keyStart,
                        message: "duplicate key '\(JSONText.display(key))'; the last value is used"))
                members[existing] = member
            } else {
                members.append(member)
                if positions != nil {
                    positions?[key] = members.count - 1
                } else if members.count == 16 {
                    positions = Dictionary(members.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { _, last in last })
                }
            }
            pendingComma = nil
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                pendingComma = index
                index += 1
            }
        }
        depth -= 1
        return JSONValue(content: .object(Self.exactly(members)), start: start, end: index)
    }

    /// `elements` in storage of exactly their count. A document's containers all live until
    /// it is read, and growing by appends leaves up to half of each array's storage unused:
    /// for a long pattern, megabytes.
    private static func exactly<Element>(_ elements: [Element]) -> [Element] {
        elements.capacity > elements.count ? elements.withUnsafeBufferPointer { Array($0) } : elements
    }

    private func indexOfKey(_ key: String, in members: [JSONMember], positions: [String: Int]?) -> Int? {
        if let positions { return positions[key] }
        return members.firstIndex { $0.key == key }
    }

    private mutating func recordTrailingComma(at offset: Int, closing: String) {
        record(
            JSONIssue(
                path: JSONPath.render(path),
                offset: offset,
                message: "trailing comma before '\(closing)' (strict JSON does not allow it)"))
    }

    private mutating func record(_ issue: JSONIssue) {
        issueCount += 1
        if issues.count < Self.maxRecordedIssues { issues.append(issue) }
    }

    // MARK: Bytes

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private func describeByte(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        return "'" + describeScalar(bytes[offset]) + "'"
    }

    private func describeScalar(_ byte: UInt8) -> String {
        switch byte {
        case 0x21...0x7E: return String(UnicodeScalar(byte))
        case 0x20: return " "
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            return "\\x" + (hex.count < 2 ? "0" : "") + hex
        }
    }

    /// `line L, column C` of an offset, for messages about an earlier point than the failure.
    private func positionText(_ offset: Int) -> String {
        let position = SourceLocator.position(of: offset, in: bytes)
        return "line \(position.line), column \(position.column)"
    }

    private func failure(_ message: String) -> JSONParseFailure {
        JSONParseFailure(path: JSONPath.render(path), offset: index, message: message)
    }
}
