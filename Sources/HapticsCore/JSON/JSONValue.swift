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
    /// Byte offset of the value's first byte in the source.
    package var start: Int
    /// Byte offset just past the value's last byte.
    package var end: Int

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
    /// Byte offset of the key's opening quote.
    package var keyStart: Int
    package var value: JSONValue
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
