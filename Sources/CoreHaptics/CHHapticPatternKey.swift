import Foundation
extension CHHapticPattern {
    /// The keys of a pattern dictionary: AHAP's JSON keys.
    ///
    /// In Apple's SDK this is a string-backed struct that bridges to and from `String`, so
    /// iOS code freely casts between `[String: Any]` and `[CHHapticPattern.Key: Any]`, for
    /// instance after `JSONSerialization`. Swift on Linux has no such bridging for structs
    /// (a cast from `[String: Any]` would crash), so here the key *is* `String`, with Apple's
    /// constants (`CHHapticPattern.Key.event`, or `.event` where a key is expected) and
    /// `init(rawValue:)`/`rawValue`/`RawValue`. Everything iOS code writes with keys compiles
    /// and behaves the same; `exportDictionary()` results go straight into `JSONSerialization`,
    /// and `JSONSerialization` results cast to `[CHHapticPattern.Key: Any]`. A struct key, as
    /// Apple's, was tried: on Linux a `[String: Any]` (what `JSONSerialization` returns) does
    /// not cast to a dictionary keyed by it (`as?` gives nil, `as!` traps), and a dictionary
    /// keyed by it is not valid JSON, so both JSON idioms of iOS code would break.
    public typealias Key = String
}

extension String {
    /// The type of a ``CHHapticPattern/Key``'s ``rawValue``, as Apple's `Key.RawValue`: Codable
    /// pattern models write `enum CodingKeys: CHHapticPattern.Key.RawValue, CodingKey`.
    public typealias RawValue = String

    /// Makes a ``CHHapticPattern/Key`` from its string, as Apple's `Key(rawValue:)` does.
    public init(rawValue: String) { self = rawValue }

    /// A ``CHHapticPattern/Key``'s string, as Apple's `Key.rawValue`.
    public var rawValue: String { self }

    /// The format version the pattern was written for (a number; 1.0 when missing).
    public static let version = "Version"
    /// The array of pattern elements, each a one-key dictionary.
    public static let pattern = "Pattern"
    /// An event element: a dictionary with ``eventType``, ``time``, …
    public static let event = "Event"
    /// The event's type (a ``CHHapticEvent/EventType`` or its string).
    public static let eventType = "EventType"
    /// The time of an event, parameter, curve or control point, in seconds.
    public static let time = "Time"
    /// The event's duration, in seconds.
    public static let eventDuration = "EventDuration"
    /// The sound file of an `AudioCustom` event.
    public static let eventWaveformPath = "EventWaveformPath"
    /// The array of the event's parameters.
    public static let eventParameters = "EventParameters"
    /// A dynamic parameter element.
    public static let parameter = "Parameter"
    /// A parameter's ID (a ``CHHapticEvent/ParameterID``, ``CHHapticDynamicParameter/ID`` or
    /// its string).
    public static let parameterID = "ParameterID"
    /// A parameter's value (a number).
    public static let parameterValue = "ParameterValue"
    /// A parameter curve element.
    public static let parameterCurve = "ParameterCurve"
    /// The array of a curve's control points.
    public static let parameterCurveControlPoints = "ParameterCurveControlPoints"
    /// Whether an `AudioCustom` event's sound follows the event's envelope (a `Bool`).
    public static let eventWaveformUseVolumeEnvelope = "EventWaveformUseVolumeEnvelope"
    /// Whether an `AudioCustom` event's sound loops (a `Bool`).
    public static let eventWaveformLoopEnabled = "EventWaveformLoopEnabled"
}
