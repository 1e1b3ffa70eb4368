import Foundation
import HapticsCore

/// Small helpers for the JSON and code the writers produce by hand (key order matters to
/// people reading them; Foundation's serializer does not keep it).
enum JSONOutput {
    /// A number rounded to `digits` decimals, in its shortest form (`0.5`, `1`, `0.1234`).
    static func number(_ value: Double, digits: Int = 4) -> String {
        guard value.isFinite else { return "0" }
        let scale = pow(10, Double(digits))
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }

    /// Parses JSON into Foundation objects, with a one-line error naming the source.
    static func parse(_ data: Data, source: String) throws(FormatError) -> [String: Any] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw FormatError("\(source): not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "parse error"))")
        }
        guard let dictionary = object as? [String: Any] else { throw FormatError("\(source): expected a JSON object at the top level") }
        return dictionary
    }

    static func double(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue
    }
}
