import HapticsSystem

/// A small JSON file the toolkit reads besides patterns — an actuator profile, the user's
/// settings — parsed with the AHAP reader's parser and read back into typed values, every
/// problem a ``JSONFileError`` with the file, line, column and JSON path.
///
/// Strict JSON only: a trailing comma or a duplicate key is an error (in such a file a
/// duplicate is a slip whose first value would silently be lost). Only regular files are
/// read, and no more than ``defaultByteLimit`` bytes of them.
package struct JSONFile: Sendable {
    /// The largest file read: far above any profile or settings file.
    package static let defaultByteLimit = 1 << 20

    /// Nesting, array and value limits: far above what the files need (two levels).
    static let limits = JSONParser.Limits(maxDepth: 32, maxElements: 10_000, maxValues: 100_000)

    /// The file's name in messages.
    package let name: String
    /// The document's value.
    package let root: JSONValue
    private let bytes: [UInt8]

    /// Reads and parses the file at `path`, naming it `name` in errors.
    package init(contentsOf path: String, name: String, byteLimit: Int = defaultByteLimit) throws(JSONFileError) {
        let bytes = try Self.readBytes(path: path, name: name, limit: byteLimit)
        try self.init(bytes: bytes, name: name)
    }

    /// Parses JSON text, naming it `name` in errors.
    package init(bytes: [UInt8], name: String) throws(JSONFileError) {
        try self.init(bytes: bytes, name: name, parserLimits: Self.limits)
    }

    /// Parses JSON text under a pattern's limits (nesting, elements, values; the caller checks
    /// the size): how the readers of other platforms' pattern formats read theirs.
    package init(bytes: [UInt8], name: String, limits: AHAPLimits) throws(JSONFileError) {
        try self.init(bytes: bytes, name: name, parserLimits: JSONParser.Limits(limits))
    }

    private init(bytes: [UInt8], name: String, parserLimits: JSONParser.Limits) throws(JSONFileError) {
        self.name = name
        self.bytes = bytes
        let parsed = JSONParser.parse(bytes, limits: parserLimits)
        // The first problem in the text, whether fatal or not: a trailing comma or duplicate
        // key before a syntax error is what the writer meets first.
        var first: (offset: Int, path: String, message: String)?
        if case .failure(let failure) = parsed.result { first = (failure.offset, failure.path, failure.message) }
        if let issue = parsed.issues.min(by: { $0.offset < $1.offset }), issue.offset < first?.offset ?? .max {
            first = (issue.offset, issue.path, issue.message)
        }
        let root: JSONValue
        switch parsed.result {
        case .success(let value) where first == nil: root = value
        default:
            let problem = first ?? (0, "", "malformed JSON")
            let position = bytes.withUnsafeBufferPointer { SourceLocator.position(of: problem.offset, in: $0) }
            throw JSONFileError(
                file: name, line: position.line, column: position.column, path: problem.path,
                .syntax(message: problem.message))
        }
        self.root = root
    }

    /// An error located at a byte offset of the text.
    package func error(_ problem: JSONFileError.Problem, at offset: Int, path: String) -> JSONFileError {
        let position = bytes.withUnsafeBufferPointer { SourceLocator.position(of: offset, in: $0) }
        return JSONFileError(file: name, line: position.line, column: position.column, path: path, problem)
    }

    /// The document, which must be an object; `expected` describes it for the error.
    package func rootObject(expected: String) throws(JSONFileError) -> JSONObject {
        try JSONField(file: self, key: nil, path: "", value: root).object(expected: expected)
    }

    // MARK: Reading

    /// The file's bytes: only a regular file, checked for size before reading and read no
    /// further than `limit`, so a device or a huge file costs nothing.
    package static func readBytes(path: String, name: String, limit: Int) throws(JSONFileError) -> [UInt8] {
        do {
            return try BoundedFile.read(path: path, limit: limit, streams: false)
        } catch {
            let problem: JSONFileError.Problem =
                switch error {
                case .noSuchFile: .noSuchFile
                case .notAFile(let kind): .notARegularFile(kind: kind ?? "not a file")
                case .tooLarge(let size): .fileTooLarge(size: size, limit: limit)
                case .cannotOpen(let error), .cannotRead(let error): .unreadable(reason: error.description)
                }
            throw JSONFileError(file: name, problem)
        }
    }
}

/// One JSON object of a ``JSONFile``, read key by key.
package struct JSONObject: Sendable {
    /// The file it belongs to.
    package let file: JSONFile
    /// Where it is, such as `categories`; empty for the document.
    package let path: String
    /// The object's value.
    package let value: JSONValue
    /// Its members, in source order.
    package let members: [JSONMember]

    /// Every member as a field, in source order.
    package var fields: [JSONField] {
        members.map { JSONField(file: file, key: $0.key, path: JSONPath.appending($0.key, to: path), value: $0.value, keyStart: $0.keyStart) }
    }

    /// The member with that key, if present.
    package subscript(key: String) -> JSONField? {
        guard let member = members.first(where: { $0.key == key }) else { return nil }
        return JSONField(file: file, key: key, path: JSONPath.appending(key, to: path), value: member.value, keyStart: member.keyStart)
    }

    /// The member with that key; its absence is an error at the object, saying what it holds.
    package func required(_ key: String, meaning: String) throws(JSONFileError) -> JSONField {
        guard let field = self[key] else {
            throw file.error(.missingKey(key: key, meaning: meaning), at: value.start, path: JSONPath.appending(key, to: path))
        }
        return field
    }

    /// Refuses the first key (in source order) not among `known`, suggesting the nearest.
    package func checkKeys(_ known: [String], noun: String = "key") throws(JSONFileError) {
        for member in members where !known.contains(member.key) {
            let suggestion = NameSuggestion.best(for: member.key, among: known)
            throw file.error(
                .unknownKey(key: member.key, suggestion: suggestion, known: known, noun: noun),
                at: member.keyStart, path: JSONPath.appending(member.key, to: path))
        }
    }
}

/// One value of a ``JSONFile`` with its place, read as a typed value or refused with a located
/// error.
package struct JSONField: Sendable {
    /// The file it belongs to.
    package let file: JSONFile
    /// The key it is (or, for array items, is in); nil for the document.
    package let key: String?
    /// Where it is, such as `allowedSampleRates[0]`.
    package let path: String
    /// The value.
    package let value: JSONValue
    /// Where its key starts, for object members.
    package let keyStart: Int?

    init(file: JSONFile, key: String?, path: String, value: JSONValue, keyStart: Int? = nil) {
        self.file = file
        self.key = key
        self.path = path
        self.value = value
        self.keyStart = keyStart
    }

    /// An error located at the value.
    package func error(_ problem: JSONFileError.Problem) -> JSONFileError {
        file.error(problem, at: value.start, path: path)
    }

    /// An error located at the key, for problems with the key rather than its value.
    package func keyError(_ problem: JSONFileError.Problem) -> JSONFileError {
        file.error(problem, at: keyStart ?? value.start, path: path)
    }

    /// The value is not what `expected` describes.
    package func wrongType(_ expected: String) -> JSONFileError {
        error(.wrongType(key: key, expected: expected, found: value.shortText))
    }

    /// A number within `range` (in `unit`, for messages).
    package func number(in range: ClosedRange<Double>, unit: String? = nil) throws(JSONFileError) -> Double {
        guard case .number(let number) = value.content else {
            throw wrongType("a number \(Self.rangeText(range, unit: unit))")
        }
        guard range.contains(number) else {
            throw error(.outOfRange(key: key ?? "", value: number, range: range, unit: unit))
        }
        return number
    }

    /// A whole number within `range`.
    package func integer(in range: ClosedRange<Int>, unit: String? = nil) throws(JSONFileError) -> Int {
        let bounds = Double(range.lowerBound)...Double(range.upperBound)
        guard case .number(let number) = value.content, number.rounded() == number else {
            throw wrongType("a whole number \(Self.rangeText(bounds, unit: unit))")
        }
        guard bounds.contains(number) else {
            throw error(.outOfRange(key: key ?? "", value: number, range: bounds, unit: unit))
        }
        return Int(number)
    }

    /// `true` or `false`.
    package func bool() throws(JSONFileError) -> Bool {
        guard case .bool(let flag) = value.content else { throw wrongType("true or false") }
        return flag
    }

    /// A non-empty string of at most `maxLength` characters, without control characters.
    package func string(maxLength: Int) throws(JSONFileError) -> String {
        let expected = "a non-empty string of at most \(maxLength) characters"
        guard case .string(let text) = value.content, !text.isEmpty, text.count <= maxLength else {
            throw wrongType(expected)
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw wrongType(expected + " without control characters")
        }
        return text
    }

    /// An array of `count` items (`itemsText` describes them for the error), each a field at
    /// `key[i]`.
    package func array(count: ClosedRange<Int>, of itemsText: String) throws(JSONFileError) -> [JSONField] {
        let expected = count.lowerBound > 0 ? "a non-empty array of \(itemsText)" : "an array of \(itemsText)"
        guard case .array(let items) = value.content else { throw wrongType(expected) }
        guard count.contains(items.count) else {
            if items.isEmpty { throw wrongType(expected) }
            throw error(.inconsistent(key: key ?? "", message: "has \(items.count) items; at most \(count.upperBound) are allowed"))
        }
        return items.enumerated().map { index, item in
            JSONField(file: file, key: key, path: path + "[\(index)]", value: item)
        }
    }

    /// An object; `expected` describes it for the error.
    package func object(expected: String) throws(JSONFileError) -> JSONObject {
        guard case .object(let members) = value.content else { throw wrongType(expected) }
        return JSONObject(file: file, path: path, value: value, members: members)
    }

    /// `from 0 to 4 Hz`.
    static func rangeText(_ range: ClosedRange<Double>, unit: String?) -> String {
        "from \(JSONText.shortNumber(range.lowerBound)) to \(JSONText.shortNumber(range.upperBound))" + (unit.map { " \($0)" } ?? "")
    }
}
