import FoundationEssentials
import HapticsCore

/// How the readers of other platforms' JSON formats (`.haptic`, `.android.json`, `.web.json`)
/// read their input: through the toolkit's one JSON reader, under the AHAP limits (16 MiB,
/// 64 levels of nesting, 100,000 elements in an array, 1,000,000 values), with every problem
/// one line `file:line:column: path: message`, and every time checked against the 3,600 s
/// pattern limit before anything is built from it.
enum FormatJSON {
    /// The limits every pattern reader applies.
    static let limits = AHAPLimits.default

    /// The input's top-level object.
    static func root(_ data: Data, source: String) throws(JSONFileError) -> JSONObject {
        guard data.count <= limits.maxInputBytes else {
            throw JSONFileError(file: source, .fileTooLarge(size: data.count, limit: limits.maxInputBytes))
        }
        let file = try JSONFile(bytes: [UInt8](data), name: source, limits: limits)
        return try file.rootObject(expected: "a JSON object")
    }

    /// A reader's error as the one-line ``FormatError`` `haptics convert` prints.
    static func formatError(_ error: JSONFileError) -> FormatError {
        FormatError(error)
    }

    /// The seconds a pattern may last.
    static var maxSeconds: Double { limits.maxDuration }
}

extension JSONField {
    /// Any number (JSON numbers are always finite); other kinds are refused, never read as 0.
    func finiteNumber(_ expected: String = "a number") throws(JSONFileError) -> Double {
        guard case .number(let number) = value.content else { throw wrongType(expected) }
        return number
    }

    /// A time or duration in seconds, 0 to the 3,600 s pattern limit.
    func seconds() throws(JSONFileError) -> Double {
        try number(in: 0...FormatJSON.maxSeconds, unit: "s")
    }

    /// A duration in milliseconds, 0 to the 3,600 s pattern limit.
    func milliseconds() throws(JSONFileError) -> Double {
        try number(in: 0...FormatJSON.maxSeconds * 1000, unit: "ms")
    }

    /// A string, or an error saying one was expected.
    func text() throws(JSONFileError) -> String {
        guard case .string(let text) = value.content else { throw wrongType("a string") }
        return text
    }

    /// The items of an array (at most the element limit, which the parser enforces).
    func items(of itemsText: String) throws(JSONFileError) -> [JSONField] {
        try array(count: 0...FormatJSON.limits.maxElements, of: itemsText)
    }

    /// An error at this value: a running total (in seconds) has passed the pattern limit.
    func pastLimit(_ seconds: Double) -> JSONFileError {
        error(
            .inconsistent(
                key: key ?? "",
                message:
                    "reaches \(JSONText.shortNumber((seconds * 1000).rounded() / 1000)) s, past the \(JSONText.shortNumber(FormatJSON.maxSeconds)) s pattern limit"
            ))
    }
}
