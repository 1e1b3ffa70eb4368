/// A problem with a JSON file the toolkit reads besides patterns (an actuator profile, the
/// user's settings): the file, the place in it, and what is wrong, as a case to match.
///
/// ```swift
/// catch .file(let error) where error.problem.key == "sampleRate" { … }
/// ```
///
/// Its ``description`` is one line, `file:line:column: path: message` — the form compilers use,
/// so editors and terminals can jump to it — or `file: message` for problems with the file as
/// a whole (missing, too large, not a regular file).
public struct JSONFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Hashable {
        /// Nothing exists at the path.
        case noSuchFile
        /// The path names something else than a regular file; `kind` says what, such as
        /// `a directory` or `a character device`.
        case notARegularFile(kind: String)
        /// The file is larger than `limit` bytes (`size` when known before reading).
        case fileTooLarge(size: Int?, limit: Int)
        /// The file exists but cannot be read, for `reason` (the system's, such as
        /// `Permission denied`).
        case unreadable(reason: String)
        /// The text is not JSON, or not strict JSON (trailing commas, duplicate keys), or is
        /// beyond the reader's nesting and size limits; the message is the AHAP reader's.
        case syntax(message: String)
        /// A value of the wrong kind; `key` is nil for the document itself.
        case wrongType(key: String?, expected: String, found: String)
        /// A required key is absent; `meaning` says what it holds.
        case missingKey(key: String, meaning: String)
        /// A key (or a name used as one, such as a category, `noun` saying which) that is not
        /// known, with the nearest known one when it looks like a slip.
        case unknownKey(key: String, suggestion: String?, known: [String], noun: String)
        /// A number outside what the key accepts.
        case outOfRange(key: String, value: Double, range: ClosedRange<Double>, unit: String?)
        /// A value of the right kind and range that does not fit with the rest of the file
        /// (a duplicate channel, a rate too low for the frequency band).
        case inconsistent(key: String, message: String)

        /// The key the problem is about, if any.
        public var key: String? {
            switch self {
            case .wrongType(let key, _, _): return key
            case .missingKey(let key, _), .unknownKey(let key, _, _, _), .outOfRange(let key, _, _, _),
                .inconsistent(let key, _):
                return key
            case .noSuchFile, .notARegularFile, .fileTooLarge, .unreadable, .syntax: return nil
            }
        }

        /// What is wrong, in one line without the place.
        public var message: String {
            switch self {
            case .noSuchFile:
                return "no such file"
            case .notARegularFile(let kind):
                return "not a regular file (\(kind))"
            case .fileTooLarge(let size, let limit):
                return "larger than \(Self.bytes(limit))" + (size.map { " (\($0) bytes)" } ?? "")
            case .unreadable(let reason):
                return "cannot read the file: \(reason)"
            case .syntax(let message):
                return message
            case .wrongType(_, let expected, let found):
                return "expected \(expected), got \(found)"
            case .missingKey(_, let meaning):
                return "missing (\(meaning))"
            case .unknownKey(_, let suggestion, let known, let noun):
                if let suggestion { return "unknown \(noun) (did you mean '\(suggestion)'?)" }
                return "unknown \(noun) (known: \(known.joined(separator: ", ")))"
            case .outOfRange(_, let value, let range, let unit):
                return "expected a number \(JSONField.rangeText(range, unit: unit)), got \(JSONText.shortNumber(value))"
            case .inconsistent(_, let message):
                return message
            }
        }

        /// A byte count as limits are written: `1 MiB`, `64 KiB`, or bytes.
        static func bytes(_ count: Int) -> String {
            if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
            if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
            return "\(count) bytes"
        }
    }

    /// The file, as the reader was given it.
    public var file: String
    /// The 1-based line of the problem; nil for problems with the file as a whole.
    public var line: Int?
    /// The 1-based column (in characters) of the problem; nil with ``line``.
    public var column: Int?
    /// Where in the JSON, such as `categories.impact` or `allowedSampleRates[0]`; empty for
    /// the file or the document as a whole.
    public var path: String
    /// What is wrong.
    public var problem: Problem

    /// Creates an error.
    package init(file: String, line: Int? = nil, column: Int? = nil, path: String = "", _ problem: Problem) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.problem = problem
    }

    /// `file:line:column`, or `file` when the problem has no place in the text.
    public var location: String {
        guard let line, let column else { return file }
        return "\(file):\(line):\(column)"
    }

    /// Whether the problem has a line and column, so the line starts `file:line:column:`.
    public var isLocated: Bool { line != nil && column != nil }

    /// One line: `file:line:column: path: message`, leaving out what is unknown.
    public var description: String {
        ([location] + (path.isEmpty ? [] : [path]) + [problem.message]).joined(separator: ": ")
    }
}
