import FoundationEssentials
import Glibc
import HapticsCore

/// Small helpers for the JSON and code the writers produce by hand (key order matters to
/// people reading them; Foundation's serializer does not keep it).
package enum JSONOutput {
    /// A number rounded to `digits` decimals, in its shortest form (`0.5`, `1`, `0.1234`).
    static func number(_ value: Double, digits: Int = 4) -> String {
        guard value.isFinite else { return "0" }
        let scale = pow(10, Double(digits))
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }

    /// Parses JSON into dictionaries, arrays, strings, doubles and bools (`Optional<Any>.none`
    /// for null), through the toolkit's one JSON reader under the AHAP limits, with a one-line
    /// error naming the source, line, column and JSON location. Readers that check each value
    /// use ``FormatJSON`` directly, which keeps every value's place for their messages.
    package static func parse(_ data: Data, source: String) throws(FormatError) -> [String: Any] {
        do throws(JSONFileError) {
            let root = try FormatJSON.root(data, source: source)
            return Dictionary(root.members.map { ($0.key, any($0.value)) }, uniquingKeysWith: { $1 })
        } catch {
            throw FormatJSON.formatError(error)
        }
    }

    /// A parsed value as `Any` (nesting is limited by the parser, so the recursion is too).
    private static func any(_ value: JSONValue) -> Any {
        switch value.content {
        case .null: return Optional<Any>.none as Any
        case .bool(let flag): return flag
        case .number(let number): return number
        case .string(let text): return text
        case .array(let items): return items.map(any)
        case .object(let members): return Dictionary(members.map { ($0.key, any($0.value)) }, uniquingKeysWith: { $1 })
        }
    }

    /// A JSON number as a Double; true and false count as 1 and 0, as they did when these
    /// values were NSNumbers.
    static func double(_ value: Any?) -> Double? {
        if let number = value as? Double { return number }
        if let flag = value as? Bool { return flag ? 1 : 0 }
        return nil
    }
}
