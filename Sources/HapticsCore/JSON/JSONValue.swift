/// A parsed JSON value that remembers where it was in the source text, so problems found
/// later can point at it.
package struct JSONValue: Sendable {
    /// What the value holds.
    package enum Content: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONValue])
        /// Members in source order; duplicate keys are already resolved (the last one wins).
        case object([JSONMember])
    }

    package var content: Content
    /// The offsets in 32 bits (inputs are limited far below 2 GiB): a long pattern's document
    /// holds hundreds of thousands of values until it is read, and this saves a fifth of them.
    private var startOffset: Int32
    private var endOffset: Int32

    /// Byte offset of the value's first byte in the source.
    package var start: Int {
        get { Int(startOffset) }
        set { startOffset = Int32(clamping: newValue) }
    }
    /// Byte offset just past the value's last byte.
    package var end: Int {
        get { Int(endOffset) }
        set { endOffset = Int32(clamping: newValue) }
    }

    package init(content: Content, start: Int, end: Int) {
        self.content = content
        startOffset = Int32(clamping: start)
        endOffset = Int32(clamping: end)
    }

    /// What kind of value this is, for "expected …, found …" messages.
    package var kindDescription: String {
        switch content {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return "a number (\(JSONText.shortNumber(value)))"
        case .string(let text):
            return "a string (\"\(JSONText.display(text, maxLength: 24))\")"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// One key of a JSON object, with its value.
package struct JSONMember: Sendable {
    package var key: String
    package var value: JSONValue
    private var keyOffset: Int32

    /// Byte offset of the key's opening quote.
    package var keyStart: Int {
        get { Int(keyOffset) }
        set { keyOffset = Int32(clamping: newValue) }
    }

    package init(key: String, keyStart: Int, value: JSONValue) {
        self.key = key
        self.value = value
        keyOffset = Int32(clamping: keyStart)
    }
}

/// The members of one JSON object, looked up by key.
struct JSONFields {
    let members: [JSONMember]

    init(_ members: [JSONMember]) { self.members = members }

    subscript(key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }
}

extension JSONValue {
    /// Whether the value is `null`.
    package var isNull: Bool {
        if case .null = content { return true }
        return false
    }
}

extension JSONValue {
    /// The value as messages quote it after "got": `1.5`, `true`, `null`, `"yes"`, `an array`.
    package var shortText: String {
        switch content {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return JSONText.shortNumber(value)
        case .string(let text): return "\"\(JSONText.display(text, maxLength: 40))\""
        case .array(let items): return items.isEmpty ? "an empty array" : "an array"
        case .object(let members): return members.isEmpty ? "an empty object" : "an object"
        }
    }
}
