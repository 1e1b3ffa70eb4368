import Foundation

extension CHHapticPattern {
    /// The keys of a pattern dictionary: AHAP's JSON keys.
    ///
    /// In Apple's SDK this is a string-backed struct that bridges to and from `String` through
    /// Objective-C, so iOS code casts `JSONSerialization`'s `[String: Any]` to
    /// `[CHHapticPattern.Key: Any]` and hands `exportDictionary()` results back to it. Swift on
    /// Linux bridges only Foundation's own classes: a `[String: Any]` casts to `[NSString: Any]`
    /// (and back), but never to a dictionary keyed by a struct (`as?` gives nil, `as!` traps),
    /// and a struct-keyed dictionary is not valid JSON. So here the key is `NSString`, as
    /// Apple's `CHHapticAudioResourceKey` is: both JSON idioms of iOS code work, and Apple's
    /// constants (`CHHapticPattern.Key.event`, or `.event` where a key is expected),
    /// `init(rawValue:)`, `rawValue` and `RawValue` are members of `NSString`, leaving `String`
    /// untouched.
    ///
    /// Tried and rejected: a struct `Key: RawRepresentable, Hashable, ExpressibleByStringLiteral`
    /// conforming to `_ObjectiveCBridgeable` (with `NSString` as its bridged type) and to
    /// `_HasCustomAnyHashableRepresentation` (so `AnyHashable(Key.event) == AnyHashable("Event")`).
    /// Linux's runtime then casts an `NSString` to the key, but not a `String`: `[String: Any]`
    /// still casts to `[Key: Any]` as nil, and a `[Key: Any]` is still not valid JSON nor a
    /// `[String: Any]`. Overloads taking `[String: Any]` would keep `init(dictionary:)` working,
    /// but not the casts iOS code writes itself. What `NSString` costs: a key is not `Sendable`
    /// (Apple's is), and another module adding a same-named `NSString` member makes uses
    /// ambiguous, as one adding a `String` member did before.
    public typealias Key = NSString
}

extension NSString {
    /// The type of a ``CHHapticPattern/Key``'s ``rawValue``, as Apple's `Key.RawValue`: Codable
    /// pattern models write `enum CodingKeys: CHHapticPattern.Key.RawValue, CodingKey`.
    public typealias RawValue = String

    /// Makes a ``CHHapticPattern/Key`` from its string, as Apple's `Key(rawValue:)` does.
    public convenience init(rawValue: String) { self.init(string: rawValue) }

    /// A ``CHHapticPattern/Key``'s string, as Apple's `Key.rawValue`.
    public var rawValue: String { self as String }

    /// The format version the pattern was written for (a number; 1.0 when missing).
    public static var version: CHHapticPattern.Key { "Version" }
    /// The array of pattern elements, each a one-key dictionary.
    public static var pattern: CHHapticPattern.Key { "Pattern" }
    /// An event element: a dictionary with ``eventType``, ``time``, …
    public static var event: CHHapticPattern.Key { "Event" }
    /// The event's type (a ``CHHapticEvent/EventType`` or its string).
    public static var eventType: CHHapticPattern.Key { "EventType" }
    /// The time of an event, parameter, curve or control point, in seconds.
    public static var time: CHHapticPattern.Key { "Time" }
    /// The event's duration, in seconds.
    public static var eventDuration: CHHapticPattern.Key { "EventDuration" }
    /// The sound file of an `AudioCustom` event.
    public static var eventWaveformPath: CHHapticPattern.Key { "EventWaveformPath" }
    /// The array of the event's parameters.
    public static var eventParameters: CHHapticPattern.Key { "EventParameters" }
    /// A dynamic parameter element.
    public static var parameter: CHHapticPattern.Key { "Parameter" }
    /// A parameter's ID (a ``CHHapticEvent/ParameterID``, ``CHHapticDynamicParameter/ID`` or
    /// its string).
    public static var parameterID: CHHapticPattern.Key { "ParameterID" }
    /// A parameter's value (a number).
    public static var parameterValue: CHHapticPattern.Key { "ParameterValue" }
    /// A parameter curve element.
    public static var parameterCurve: CHHapticPattern.Key { "ParameterCurve" }
    /// The array of a curve's control points.
    public static var parameterCurveControlPoints: CHHapticPattern.Key { "ParameterCurveControlPoints" }
    /// Whether an `AudioCustom` event's sound follows the event's envelope (a `Bool`).
    public static var eventWaveformUseVolumeEnvelope: CHHapticPattern.Key { "EventWaveformUseVolumeEnvelope" }
    /// Whether an `AudioCustom` event's sound loops (a `Bool`).
    public static var eventWaveformLoopEnabled: CHHapticPattern.Key { "EventWaveformLoopEnabled" }
}
