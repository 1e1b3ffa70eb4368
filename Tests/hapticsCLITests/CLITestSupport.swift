import Foundation
import HapticsTestSupport
import Testing

/// A small valid pattern with unsorted events, a parameter and a curve.
let samplePattern = """
    {
      "Version": 1.0,
      "Metadata": { "Project": "Tests" },
      "Pattern": [
        { "Event": { "Time": 0.3, "EventType": "HapticContinuous", "EventDuration": 0.2,
                     "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.5 },
                                          { "ParameterID": "HapticSharpness", "ParameterValue": 0.25 } ] } },
        { "Event": { "Time": 0.0, "EventType": "HapticTransient",
                     "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 1.0 } ] } },
        { "Parameter": { "ParameterID": "HapticIntensityControl", "Time": 0.1, "ParameterValue": 0.8 } },
        { "ParameterCurve": { "ParameterID": "HapticSharpnessControl", "Time": 0.2,
                              "ParameterCurveControlPoints": [ { "Time": 0, "ParameterValue": 0 },
                                                               { "Time": 0.4, "ParameterValue": -0.5 } ] } }
      ]
    }
    """

/// A pattern with one warning (an unknown key) in lenient mode.
let patternWithWarning = """
    { "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticTransient", "Colour": "red" } } ] }
    """

/// A pattern with a negative time, an error in every mode.
let invalidPattern = """
    { "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticTransient" } },
                   { "Event": { "Time": -1, "EventType": "HapticTransient" } } ] }
    """

/// Parses JSON output for checking its shape. Numbers read this way may be off in the last
/// digit (Foundation reads them through Decimal); use ``ShowOutput`` for exact numbers.
func jsonObject(_ data: Data) throws -> Any {
    try JSONSerialization.jsonObject(with: data)
}

/// The numbers of `show --json`, read exactly.
struct ShowOutput: Decodable {
    struct Event: Decodable {
        var time: Double
        var duration: Double
        var end: Double
        var intensity: Double?
        var sharpness: Double?
    }

    struct Parameter: Decodable {
        var time: Double
        var value: Double
    }

    struct Curve: Decodable {
        struct Point: Decodable {
            var time: Double
            var value: Double
        }

        var time: Double
        var end: Double
        var controlPoints: [Point]
    }

    var duration: Double
    var events: [Event]
    var parameters: [Parameter]
    var curves: [Curve]

    init(_ data: Data) throws {
        self = try JSONDecoder().decode(ShowOutput.self, from: data)
    }
}
