/// How the toolkit writes JSON scalars: numbers in their shortest round-trip form and
/// properly escaped strings.
package enum JSONText {
    /// The shortest text that reads back as exactly `value` (Swift's `description`), such as
    /// `0.1`, `1.0` or `1e-05`. Negative zero is written as `0.0`; NaN and infinities, which
    /// JSON cannot hold, as `0.0`.
    static func number(_ value: Double) -> String {
        guard value.isFinite, value != 0 else { return "0.0" }
        return value.description
    }

    /// A number for messages: like ``number(_:)`` but without a trailing `.0`.
    package static func shortNumber(_ value: Double) -> String {
        guard value.isFinite else { return value.description }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// Text from the input made safe to show in a one-line message: control characters and
    /// line separators escaped, and long text shortened.
    package static func display(_ text: String, maxLength: Int = 60) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == maxLength {
                result += "…"
                break
            }
            count += 1
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The string in double quotes, with `"`, `\` and control characters escaped: the one
    /// JSON string writer of the package (AHAP, the converters' JSON, Core Haptics' export).
    package static func quoted(_ text: String) -> String {
        var result = "\""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        result += "\""
        return result
    }
}
