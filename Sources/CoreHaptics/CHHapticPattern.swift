import Foundation
import Haptics

/// A haptic pattern: events with dynamic parameters or parameter curves, as in Apple's SDK.
///
/// A pattern copies what it is made from; changing the events or parameters afterwards does
/// not change it. It holds a native `HapticPattern` (``hapticPattern``), which the engine
/// plays.
open class CHHapticPattern {
    /// The native pattern. `AudioCustom` events made from a registered audio resource hold an
    /// empty path here until an engine resolves their ID (`audioResourceIDs`).
    public let hapticPattern: HapticPattern
    /// The registered audio resource of each `AudioCustom` event made with one, by event index.
    let audioResourceIDs: [Int: CHHapticAudioResourceID]
    /// What makes a pattern made from events unplayable, found when it was made and thrown by
    /// ``CHHapticEngine/makePlayer(with:)`` and ``exportDictionary()``, as Apple's pattern
    /// converts its events only when a player is made.
    let unplayable: CHHapticError?

    /// The pattern's length in seconds: the latest end of any event (a continuous event's end
    /// includes its release), parameter or curve.
    open var duration: TimeInterval { hapticPattern.duration }

    /// Creates a pattern from events and dynamic parameters (either may be empty).
    ///
    /// Nothing is thrown here for the events and parameters, as in Apple's SDK, which converts
    /// them when a player is made: ``CHHapticEngine/makePlayer(with:)`` and
    /// ``exportDictionary()`` throw what makes the pattern unplayable (and its ``duration`` is
    /// 0): ``CHHapticError/Code/invalidEventType``, ``CHHapticError/Code/invalidParameterType``,
    /// ``CHHapticError/Code/invalidEventTime`` or ``CHHapticError/Code/invalidEventDuration``
    /// for an element that cannot play (times and ends must be finite, not negative and within
    /// 3,600 s, as in an AHAP file); ``CHHapticError/Code/badEventEntry`` for an event parameter
    /// value that is not a finite number, ``CHHapticError/Code/badParameterEntry`` for such a
    /// parameter or curve value, or a parameter's or curve's time out of range;
    /// ``CHHapticError/Code/invalidAudioResource`` for an `AudioCustom` event without a
    /// registered resource. An empty pattern is accepted too; making a player for it throws
    /// ``CHHapticError/Code/invalidPatternData``.
    public init(events: [CHHapticEvent], parameters: [CHHapticDynamicParameter]) throws {
        do {
            let (nativeEvents, ids) = try Self.convert(events)
            let nativeParameters = try parameters.map { parameter throws(CHHapticError) -> HapticDynamicParameter in
                HapticDynamicParameter(
                    try Self.convert(parameter.parameterID),
                    try NumericInput.value(parameter.value, .badParameterEntry, "a dynamic parameter's value"),
                    at: try NumericInput.time(parameter.relativeTime, .badParameterEntry, "a dynamic parameter's time"))
            }
            hapticPattern = HapticPattern(events: nativeEvents, parameters: nativeParameters)
            audioResourceIDs = ids
            unplayable = nil
        } catch {
            (hapticPattern, audioResourceIDs, unplayable) = (HapticPattern(events: []), [:], error)
        }
    }

    /// Creates a pattern from events and parameter curves (either may be empty); what cannot
    /// play is thrown by ``CHHapticEngine/makePlayer(with:)``, as for ``init(events:parameters:)``.
    public init(events: [CHHapticEvent], parameterCurves: [CHHapticParameterCurve]) throws {
        do {
            let (nativeEvents, ids) = try Self.convert(events)
            let curves = try parameterCurves.map { curve throws(CHHapticError) -> HapticParameterCurve in
                let start = try NumericInput.time(curve.relativeTime, .badParameterEntry, "a parameter curve's time")
                let points = try curve.controlPoints.map { point throws(CHHapticError) in
                    let time = try NumericInput.time(point.relativeTime, .badParameterEntry, "a control point's time")
                    _ = try NumericInput.time(start + time, .badParameterEntry, "a control point's time in the pattern")
                    return HapticParameterCurve.ControlPoint(at: time, try NumericInput.value(point.value, .badParameterEntry, "a control point's value"))
                }
                return HapticParameterCurve(try Self.convert(curve.parameterID), at: start, controlPoints: points)
            }
            hapticPattern = HapticPattern(events: nativeEvents, curves: curves)
            audioResourceIDs = ids
            unplayable = nil
        } catch {
            (hapticPattern, audioResourceIDs, unplayable) = (HapticPattern(events: []), [:], error)
        }
    }

    /// Creates a pattern from a dictionary with AHAP's structure, as iOS code writes it:
    ///
    /// ```swift
    /// let pattern = try CHHapticPattern(dictionary: [
    ///     .pattern: [[.event: [.eventType: CHHapticEvent.EventType.hapticTransient,
    ///                          .time: CHHapticTimeImmediate,
    ///                          .eventParameters: [[.parameterID: CHHapticEvent.ParameterID.hapticIntensity,
    ///                                              .parameterValue: 0.8]]]]]])
    /// ```
    ///
    /// Values may be event types, parameter IDs and keys, strings, any Swift number or
    /// `NSNumber`, `Bool`, arrays and nested dictionaries (keyed by `String`/`Key`, or
    /// `AnyHashable` holding strings), as `JSONSerialization` produces. The dictionary is read
    /// exactly as an AHAP file is (leniently, like Core Haptics). A relative
    /// `EventWaveformPath` is relative to the top of the app's bundle, as on iOS (for a program
    /// not in a bundle, its executable's folder), not the working directory.
    ///
    /// - Throws: ``CHHapticError/Code/invalidPatternDictionary`` for a malformed or empty
    ///   dictionary (an empty `Pattern` too, as Apple's reader),
    ///   or the code naming the element at fault (``CHHapticError/Code/invalidEventType``,
    ///   ``CHHapticError/Code/badEventEntry``, ``CHHapticError/Code/badParameterEntry``, …).
    public init(dictionary patternDict: [CHHapticPattern.Key: Any]) throws {
        hapticPattern = try Self.decode(dictionary: patternDict)
        audioResourceIDs = [:]
        unplayable = nil
    }

    /// Creates a pattern from a dictionary keyed by strings, as `JSONSerialization` returns
    /// it (`try CHHapticPattern(dictionary: json as! [String: Any])`), read as
    /// ``init(dictionary:)-([CHHapticPattern.Key:Any])`` reads one keyed by ``Key``.
    @_disfavoredOverload
    public init(dictionary patternDict: [String: Any]) throws {
        hapticPattern = try Self.decode(dictionary: patternDict)
        audioResourceIDs = [:]
        unplayable = nil
    }

    private static func decode(dictionary: Any) throws -> HapticPattern {
        let data = try PatternDictionary.json(dictionary)
        do {
            return try AHAPDecoder().decode(data, source: "pattern dictionary", baseDirectory: PatternDictionary.bundleFolder).pattern
        } catch {
            throw CHHapticError(error, fallback: .invalidPatternDictionary)
        }
    }

    /// Creates a pattern from an AHAP file. `AudioCustom` events' sound files are relative
    /// to the file's folder.
    ///
    /// - Throws: ``CHHapticError/Code/fileNotFound`` when there is no such file or the URL is
    ///   not a file's, ``CHHapticError/Code/notSupported`` for a name not ending in `.ahap` or
    ///   `.json`, ``CHHapticError/Code/invalidPatternData`` for malformed JSON, or the code
    ///   naming the element at fault.
    public init(contentsOf ahapURL: URL) throws {
        // As Apple's: a URL that is not a file is fileNotFound, a file not named .ahap or
        // .json notSupported.
        guard ahapURL.isFileURL else { throw CHHapticError(.fileNotFound, "not a file URL: \(ahapURL.absoluteString)") }
        guard ["ahap", "json"].contains(ahapURL.pathExtension.lowercased()) else {
            throw CHHapticError(.notSupported, "\(ahapURL.path): pattern files are .ahap or .json, not '.\(ahapURL.pathExtension)'")
        }
        do {
            hapticPattern = try AHAPDecoder().decode(contentsOf: ahapURL).pattern
        } catch {
            throw CHHapticError(error, fallback: .invalidPatternData)
        }
        audioResourceIDs = [:]
        unplayable = nil
    }

    /// Wraps a native pattern.
    public init(hapticPattern: HapticPattern) {
        self.hapticPattern = hapticPattern
        audioResourceIDs = [:]
        unplayable = nil
    }

    /// The pattern as a dictionary with AHAP's structure (the form ``init(dictionary:)-([CHHapticPattern.Key:Any])``
    /// reads): `Version`, then `Pattern` with every event, then every parameter, then every
    /// curve. Keys are ``Key``s (`NSString`), types and IDs their strings, numbers `NSNumber`s
    /// (times `Double`, values `Float`), so the result converts to JSON with
    /// `JSONSerialization`. An `EventWaveformPath` read relative to an AHAP file's folder is
    /// written as a full path, so the dictionary plays the same sound wherever it is read.
    ///
    /// - Throws: ``CHHapticError/Code/operationNotPermitted`` when an event plays a
    ///   registered audio resource, as Core Haptics does.
    open func exportDictionary() throws -> [CHHapticPattern.Key: Any] {
        if let unplayable { throw unplayable }
        guard audioResourceIDs.isEmpty else {
            throw CHHapticError(.operationNotPermitted, "patterns with registered audio resources cannot be exported")
        }
        return PatternDictionary.export(hapticPattern)
    }

    // MARK: Conversion

    private static func convert(_ events: [CHHapticEvent]) throws(CHHapticError) -> ([HapticEvent], [Int: CHHapticAudioResourceID]) {
        var ids: [Int: CHHapticAudioResourceID] = [:]
        var result: [HapticEvent] = []
        result.reserveCapacity(events.count)
        for (index, event) in events.enumerated() {
            guard let kind = HapticEvent.Kind(rawValue: event.type.rawValue) else {
                throw CHHapticError(.invalidEventType, "unknown event type '\(event.type.rawValue)'")
            }
            let start = try NumericInput.time(event.relativeTime, .invalidEventTime, "an event's time")
            var duration = try NumericInput.time(event.duration, .invalidEventDuration, "an event's duration")
            // Apple's header: "If unset (0.0), Continuous event types will have no fixed end."
            // Such an event sounds until the player stops (or its envelope decays, when it is
            // not sustained): the longest a pattern may last. AHAP files still need a duration.
            if duration == 0, kind == .continuous || kind == .audioContinuous {
                duration = NumericInput.maxTime - start
            }
            _ = try NumericInput.time(start + duration, .invalidEventDuration, "an event's end")
            let parameters = try event.eventParameters.map { parameter throws(CHHapticError) -> HapticEvent.Parameter in
                guard let id = HapticEvent.ParameterID(rawValue: parameter.parameterID.rawValue) else {
                    throw CHHapticError(.invalidParameterType, "unknown event parameter '\(parameter.parameterID.rawValue)'")
                }
                return HapticEvent.Parameter(id, try NumericInput.value(parameter.value, .badEventEntry, "an event parameter's value"))
            }
            var audio: HapticEvent.AudioResource?
            if kind == .audioCustom {
                guard let id = event.audioResourceID else {
                    throw CHHapticError(.invalidAudioResource, "an AudioCustom event needs a registered audio resource (CHHapticEvent(audioResourceID:…))")
                }
                ids[index] = id
                audio = HapticEvent.AudioResource(path: "")
            }
            result.append(HapticEvent(kind, at: start, duration: duration, parameters: parameters, audio: audio))
        }
        return (result, ids)
    }

    private static func convert(_ id: CHHapticDynamicParameter.ID) throws(CHHapticError) -> HapticDynamicParameter.ID {
        guard let native = HapticDynamicParameter.ID(rawValue: id.rawValue) else {
            throw CHHapticError(.invalidParameterType, "unknown dynamic parameter '\(id.rawValue)'")
        }
        return native
    }

    /// The native pattern with registered audio resources filled in from `resources`.
    func resolved(_ resources: (CHHapticAudioResourceID) -> HapticEvent.AudioResource?) throws(CHHapticError) -> HapticPattern {
        guard !audioResourceIDs.isEmpty else { return hapticPattern }
        var pattern = hapticPattern
        for (index, id) in audioResourceIDs {
            guard let resource = resources(id) else {
                throw CHHapticError(.invalidAudioResource, "audio resource \(id) is not registered with this engine")
            }
            pattern.events[index].audio = resource
        }
        return pattern
    }

    // MARK: NSObject's identity

    /// The instance's class and address (`<CHHapticPattern: 0x…>`), as `NSObject` describes it.
    open var description: String { instanceDescription(self) }
    /// The same as ``description``.
    open var debugDescription: String { description }
    /// Whether `object` is this very instance (override to compare by value, with ``hash``).
    open func isEqual(_ object: Any?) -> Bool { object.map { $0 as AnyObject } === self }
    /// The instance's identity as a number (override with ``isEqual(_:)``).
    open var hash: Int { ObjectIdentifier(self).hashValue }
}
