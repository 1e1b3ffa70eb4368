import Foundation
import HapticsFormats
import HapticsTestSupport
import Testing

/// Reads `text` with `read` (given the bytes and the source name), which must refuse it with one
/// line located in the input, `in.json:LINE:COLUMN: …` (``FuzzRun/refusal(_:_:label:sourceLocation:)``);
/// returns the message, for the test to check what it says.
@discardableResult
func locatedRefusal<Value>(
    _ text: String, sourceLocation: SourceLocation = #_sourceLocation, _ read: (Data, String) throws(FormatError) -> Value
) -> String {
    do throws(FormatError) {
        let value = try read(Data(text.utf8), "in.json")
        Issue.record("accepted \(text) as \(value)", sourceLocation: sourceLocation)
        return ""
    } catch {
        let place = error.description.split(separator: ":", maxSplits: 3).dropFirst().prefix(2).compactMap { Int($0) }
        let location = FuzzRun.Place.located(
            source: "in.json", isLocated: error.isLocated, line: place.first, column: place.count == 2 ? place.last : nil,
            inputLines: text.count { $0 == "\n" } + 1)
        _ = FuzzRun.refusal(error.description, location, label: text, sourceLocation: sourceLocation)
        return error.description
    }
}

/// Whether two numbers agree within `tolerance`.
func close(_ a: Double, _ b: Double, within tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

/// Whether two curves have the same points, times and values within `tolerance`.
func close(_ points: some Collection<HapticLayers.Point>, _ expected: [HapticLayers.Point], within tolerance: Double = 1e-9) -> Bool {
    points.count == expected.count
        && zip(points, expected).allSatisfy { close($0.time, $1.time, within: tolerance) && close($0.value, $1.value, within: tolerance) }
}

/// Whether two lists of numbers agree, each within `tolerance`.
func close(_ values: [Double], _ expected: [Double], within tolerance: Double = 1e-9) -> Bool {
    values.count == expected.count && zip(values, expected).allSatisfy { close($0, $1, within: tolerance) }
}
