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

    /// Parses JSON into dictionaries, arrays, strings, doubles and bools (`NSNull` for
    /// null is not needed: readers skip what they do not recognise), with a one-line error
    /// naming the source.
    package static func parse(_ data: Data, source: String) throws(FormatError) -> [String: Any] {
        let value: AnyJSON
        do {
            value = try JSONDecoder().decode(AnyJSON.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw FormatError("\(source): not valid JSON (\(context.underlyingError.map { "\($0)" } ?? context.debugDescription))")
        } catch {
            throw FormatError("\(source): not valid JSON (parse error)")
        }
        guard let dictionary = value.object as? [String: Any] else { throw FormatError("\(source): expected a JSON object at the top level") }
        return dictionary
    }

    /// A JSON number as a Double; true and false count as 1 and 0, as they did when these
    /// values were NSNumbers.
    static func double(_ value: Any?) -> Double? {
        if let number = value as? Double { return number }
        if let flag = value as? Bool { return flag ? 1 : 0 }
        return nil
    }
}

/// Any JSON value, decoded through FoundationEssentials' JSONDecoder (JSONSerialization is in
/// Foundation proper, which the toolkit does not link).
private struct AnyJSON: Decodable {
    /// `[String: Any]`, `[Any]`, `String`, `Double`, `Bool`, or `Optional<Any>.none` for null.
    var object: Any

    init(from decoder: any Decoder) throws {
        if var items = try? decoder.unkeyedContainer() {
            var array: [Any] = []
            while !items.isAtEnd { array.append(try items.decode(AnyJSON.self).object) }
            object = array
            return
        }
        if let members = try? decoder.container(keyedBy: Key.self) {
            var dictionary: [String: Any] = [:]
            for key in members.allKeys { dictionary[key.stringValue] = try members.decode(AnyJSON.self, forKey: key).object }
            object = dictionary
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            object = Optional<Any>.none as Any
        } else if let flag = try? single.decode(Bool.self) {
            object = flag
        } else if let number = try? single.decode(Double.self) {
            object = number
        } else {
            object = try single.decode(String.self)
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
