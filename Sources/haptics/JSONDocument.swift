import FoundationEssentials
import Haptics

/// The one JSON style of every `--json` output (`validate`, `show`, `list`, `devices`,
/// `render --stats`, `render --rumble`, `convert`, `analyze`, `play`):
///
/// - one object per document, its first key `"hapticsVersion"` (the `haptics` that wrote it),
///   once; what was an array is a member of it (`"files"`, `"presets"`, `"frames"`);
/// - camelCase keys, sorted (after `hapticsVersion`);
/// - laid out as `jq` lays out JSON (two spaces, `"key": value`), except that an object or
///   array of plain values that fits in 100 characters is written on one line;
/// - numbers rounded to 6 decimal places (a microsecond, for times in seconds), whole numbers
///   without a decimal point; NaN and infinities, which JSON cannot hold, as null.
///
/// Any `Encodable` value is written through ``JSONTreeEncoder``, so the types keep their
/// `Codable` conformances and no output has its own layout.
enum JSONDocument {
    /// Decimal places numbers are rounded to.
    static let decimals = 6

    /// `value`'s members, after `"hapticsVersion"`, as one document ending in a newline.
    /// `value` must encode as an object.
    static func text(_ value: some Encodable) throws -> String {
        guard case .object(let members) = try JSONTreeEncoder.tree(value) else {
            preconditionFailure("a JSON document is an object")
        }
        let document = JSONTree.object([("hapticsVersion", .string(HapticsVersion.current))] + members.sorted { $0.0 < $1.0 })
        var out = ""
        document.write(to: &out, indent: "")
        return out + "\n"
    }

    /// Writes `value` as a document to standard output.
    static func print(_ value: some Encodable) throws {
        writeStandardOutput(try text(value))
    }
}

/// A JSON value with its members in order.
indirect enum JSONTree {
    case object([(String, JSONTree)])
    case array([JSONTree])
    case string(String)
    case number(Double)
    case integer(Int64)
    case bool(Bool)
    case null

    private var isPlain: Bool {
        switch self {
        case .object, .array: false
        default: true
        }
    }

    /// Keys sorted at every level (dictionaries encode in no fixed order).
    var sorted: JSONTree {
        switch self {
        case .object(let members): .object(members.map { ($0.0, $0.1.sorted) }.sorted { $0.0 < $1.0 })
        case .array(let items): .array(items.map(\.sorted))
        default: self
        }
    }

    func write(to out: inout String, indent: String) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .integer(let number): out += String(number)
        case .number(let number): out += Self.number(number)
        case .string(let text): Self.quote(text, to: &out)
        case .array(let items):
            guard !items.isEmpty else {
                out += "[]"
                return
            }
            if items.allSatisfy(\.isPlain), let line = oneLine(items.map { ("", $0) }, open: "[", close: "]") {
                out += line
                return
            }
            let inner = indent + "  "
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += inner
                item.write(to: &out, indent: inner)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            if members.allSatisfy(\.1.isPlain), let line = oneLine(members, open: "{", close: "}") {
                out += line
                return
            }
            let inner = indent + "  "
            out += "{\n"
            for (index, (key, value)) in members.enumerated() {
                out += inner
                Self.quote(key, to: &out)
                out += ": "
                value.write(to: &out, indent: inner)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        }
    }

    /// `[1, 2]` or `{"a": 1, "b": 2}` when it fits in 100 characters.
    private func oneLine(_ items: [(String, JSONTree)], open: String, close: String) -> String? {
        var line = open
        for (index, (key, value)) in items.enumerated() {
            if index > 0 { line += ", " }
            if case .object = self {
                Self.quote(key, to: &line)
                line += ": "
            }
            value.write(to: &line, indent: "")
            if line.utf8.count > 100 { return nil }
        }
        return line + close
    }

    /// Rounded to ``JSONDocument/decimals`` places, shortest form: `0.5`, `1`, `-0.000123`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let scale = 1_000_000.0
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        let text = String(rounded)
        // Swift writes small magnitudes in exponent form (1e-06): JSON takes it, but keep it plain.
        guard text.contains("e") else { return text }
        let whole = Int64((abs(rounded) * scale).rounded())
        let digits = String(whole)
        let padded = String(repeating: "0", count: max(0, 7 - digits.count)) + digits
        var fraction = String(padded.suffix(6))
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (rounded < 0 ? "-" : "") + String(padded.dropLast(6)) + "." + fraction
    }

    /// The package's one JSON string writer (``JSONText/quoted(_:)``), appended to `out`.
    static func quote(_ text: String, to out: inout String) {
        out += JSONText.quoted(text)
    }
}

/// An `Encoder` that builds a ``JSONTree``: Foundation's `JSONEncoder` writes its own layout
/// and every digit of a `Double`.
final class JSONTreeEncoder: Encoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What has been encoded: a box, so nested containers fill their parent's place.
    fileprivate let storage: Box

    fileprivate init(storage: Box, codingPath: [any CodingKey]) {
        self.storage = storage
        self.codingPath = codingPath
    }

    /// `value` as a tree, keys sorted.
    static func tree(_ value: some Encodable) throws -> JSONTree {
        let encoder = JSONTreeEncoder(storage: Box(), codingPath: [])
        try value.encode(to: encoder)
        return encoder.storage.tree.sorted
    }

    /// A place a value goes: an object's members, an array's items, or one value.
    fileprivate final class Box {
        enum Content {
            case empty
            case object([(String, Box)])
            case array([Box])
            case value(JSONTree)
        }
        var content = Content.empty

        var tree: JSONTree {
            switch content {
            case .empty: .object([])
            case .object(let members): .object(members.map { ($0.0, $0.1.tree) })
            case .array(let items): .array(items.map(\.tree))
            case .value(let value): value
            }
        }

        /// The member `key`'s box (replacing an earlier one of that name).
        func member(_ key: String) -> Box {
            var members: [(String, Box)] = []
            if case .object(let existing) = content { members = existing }
            let box = Box()
            members.removeAll { $0.0 == key }
            members.append((key, box))
            content = .object(members)
            return box
        }

        func appended() -> Box {
            var items: [Box] = []
            if case .array(let existing) = content { items = existing }
            let box = Box()
            items.append(box)
            content = .array(items)
            return box
        }

        var count: Int {
            if case .array(let items) = content { return items.count }
            return 0
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = storage.content {} else { storage.content = .object([]) }
        return KeyedEncodingContainer(Keyed<Key>(box: storage, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = storage.content {} else { storage.content = .array([]) }
        return Unkeyed(box: storage, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(box: storage, codingPath: codingPath) }

    /// A value into `box`: numbers and strings directly, anything else through its `encode(to:)`.
    fileprivate static func encode(_ value: some Encodable, into box: Box, codingPath: [any CodingKey]) throws {
        switch value {
        case let number as Double: box.content = .value(.number(number))
        case let number as Float: box.content = .value(.number(Double(number)))
        case let text as String: box.content = .value(.string(text))
        case let url as URL: box.content = .value(.string(url.path))
        default: try value.encode(to: JSONTreeEncoder(storage: box, codingPath: codingPath))
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: Box
        var codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { box.member(key.stringValue).content = .value(.null) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { box.member(key.stringValue).content = .value(.bool(value)) }
        mutating func encode(_ value: String, forKey key: Key) throws { box.member(key.stringValue).content = .value(.string(value)) }
        mutating func encode(_ value: Double, forKey key: Key) throws { box.member(key.stringValue).content = .value(.number(value)) }
        mutating func encode(_ value: Float, forKey key: Key) throws { box.member(key.stringValue).content = .value(.number(Double(value))) }
        mutating func encode(_ value: Int, forKey key: Key) throws { box.member(key.stringValue).content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { box.member(key.stringValue).content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { box.member(key.stringValue).content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { box.member(key.stringValue).content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { box.member(key.stringValue).content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { box.member(key.stringValue).content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { box.member(key.stringValue).content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { box.member(key.stringValue).content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { box.member(key.stringValue).content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { box.member(key.stringValue).content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            try JSONTreeEncoder.encode(value, into: box.member(key.stringValue), codingPath: codingPath + [key])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let member = box.member(key.stringValue)
            member.content = .object([])
            return KeyedEncodingContainer(Keyed<NestedKey>(box: member, codingPath: codingPath + [key]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let member = box.member(key.stringValue)
            member.content = .array([])
            return Unkeyed(box: member, codingPath: codingPath + [key])
        }
        mutating func superEncoder() -> any Encoder { JSONTreeEncoder(storage: box.member("super"), codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder { JSONTreeEncoder(storage: box.member(key.stringValue), codingPath: codingPath + [key]) }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let box: Box
        var codingPath: [any CodingKey]
        var count: Int { box.count }

        mutating func encodeNil() throws { box.appended().content = .value(.null) }
        mutating func encode(_ value: Bool) throws { box.appended().content = .value(.bool(value)) }
        mutating func encode(_ value: String) throws { box.appended().content = .value(.string(value)) }
        mutating func encode(_ value: Double) throws { box.appended().content = .value(.number(value)) }
        mutating func encode(_ value: Float) throws { box.appended().content = .value(.number(Double(value))) }
        mutating func encode(_ value: Int) throws { box.appended().content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: Int8) throws { box.appended().content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: Int16) throws { box.appended().content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: Int32) throws { box.appended().content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: Int64) throws { box.appended().content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt) throws { box.appended().content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt8) throws { box.appended().content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt16) throws { box.appended().content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt32) throws { box.appended().content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt64) throws { box.appended().content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: some Encodable) throws {
            try JSONTreeEncoder.encode(value, into: box.appended(), codingPath: codingPath)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let item = box.appended()
            item.content = .object([])
            return KeyedEncodingContainer(Keyed<NestedKey>(box: item, codingPath: codingPath))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let item = box.appended()
            item.content = .array([])
            return Unkeyed(box: item, codingPath: codingPath)
        }
        mutating func superEncoder() -> any Encoder { JSONTreeEncoder(storage: box.appended(), codingPath: codingPath) }
    }

    private struct Single: SingleValueEncodingContainer {
        let box: Box
        var codingPath: [any CodingKey]

        mutating func encodeNil() throws { box.content = .value(.null) }
        mutating func encode(_ value: Bool) throws { box.content = .value(.bool(value)) }
        mutating func encode(_ value: String) throws { box.content = .value(.string(value)) }
        mutating func encode(_ value: Double) throws { box.content = .value(.number(value)) }
        mutating func encode(_ value: Float) throws { box.content = .value(.number(Double(value))) }
        mutating func encode(_ value: Int) throws { box.content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: Int8) throws { box.content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: Int16) throws { box.content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: Int32) throws { box.content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: Int64) throws { box.content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt) throws { box.content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt8) throws { box.content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt16) throws { box.content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt32) throws { box.content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt64) throws { box.content = .value(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: some Encodable) throws {
            try JSONTreeEncoder.encode(value, into: box, codingPath: codingPath)
        }
    }
}
