import Foundation
import Haptics
import HapticsCore

/// Converts between Core Haptics' pattern dictionaries and AHAP JSON, so that dictionaries
/// are read by the same decoder as files.
enum PatternDictionary {
    /// Keys whose values are booleans (numbers are accepted for them, as `NSNumber` does).
    private static let booleanKeys: Set<String> = [
        CHHapticPattern.Key.eventWaveformUseVolumeEnvelope.rawValue,
        CHHapticPattern.Key.eventWaveformLoopEnabled.rawValue,
    ]

    /// The dictionary (keyed by ``CHHapticPattern/Key`` or `String`) as AHAP JSON.
    static func json(_ dictionary: Any) throws(CHHapticError) -> Data {
        guard isShallow(dictionary, limit: maxDepth) else {
            throw CHHapticError(.invalidPatternDictionary, "the dictionary nests deeper than \(maxDepth) levels")
        }
        var out = ""
        try write(dictionary, key: nil, depth: 0, to: &out)
        return Data(out.utf8)
    }

    /// The deepest nesting of arrays and dictionaries accepted, as for AHAP files.
    static let maxDepth = 64

    /// Whether no value in `root` lies `limit` or more levels of arrays and dictionaries deep.
    ///
    /// Measured first, without recursion, looking only for arrays and dictionaries: the other
    /// casts ``write(_:key:depth:to:)`` tries (`as Bool`, `as NSNumber`, …) bridge a container,
    /// and everything in it, to Foundation objects, a walk as deep as the structure that
    /// overflowed the stack at 10,000 levels before any depth was counted.
    private static func isShallow(_ root: Any, limit: Int) -> Bool {
        var pending: [(value: Any, depth: Int)] = [(root, 0)]
        while let (value, depth) = pending.popLast() {
            guard depth < limit else { return false }
            if let entries = entries(of: value) {
                for entry in entries { pending.append((entry.value, depth + 1)) }
            } else if let items = items(of: value) {
                for item in items { pending.append((item, depth + 1)) }
            }
        }
        return true
    }

    private static func write(_ value: Any, key: String?, depth: Int, to out: inout String) throws(CHHapticError) {
        guard depth < maxDepth else { throw CHHapticError(.invalidPatternDictionary, "the dictionary nests deeper than \(maxDepth) levels") }
        // Containers first: a cast of a container to a class (`as NSString`, `as NSNull`)
        // bridges it and everything in it to Foundation objects.
        if let entries = entries(of: value) {
            out += "{"
            for (index, entry) in entries.enumerated() {
                if index > 0 { out += "," }
                out += JSONText.quoted(entry.key) + ":"
                try write(entry.value, key: entry.key, depth: depth + 1, to: &out)
            }
            out += "}"
            return
        }
        if let items = items(of: value) {
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                try write(item, key: key, depth: depth + 1, to: &out)
            }
            out += "]"
            return
        }
        if let key, booleanKeys.contains(key) {
            if let flag = boolean(value) {
                out += flag ? "true" : "false"
                return
            }
        }
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            // Before Swift's numbers: on Linux an NSNumber also casts to Bool, Float, Double.
            let code = String(cString: number.objCType)
            let text = code == "f" ? "\(number.floatValue)" : code == "c" ? "\(number.intValue)" : "\(number.doubleValue)"
            guard number.doubleValue.isFinite else { throw nonFinite(key) }
            out += text
            return
        }
        switch value {
        case let flag as Bool:
            out += flag ? "1" : "0"
        case let number as Float:
            guard number.isFinite else { throw nonFinite(key) }
            out += "\(number)"
        case let number as Double:
            guard number.isFinite else { throw nonFinite(key) }
            out += "\(number)"
        case let number as any BinaryInteger:
            out += "\(number)"
        case let text as String:
            out += JSONText.quoted(text)
        case let text as NSString:
            out += JSONText.quoted(String(text))
        case let type as CHHapticEvent.EventType:
            out += JSONText.quoted(type.rawValue)
        case let id as CHHapticEvent.ParameterID:
            out += JSONText.quoted(id.rawValue)
        case let id as CHHapticDynamicParameter.ID:
            out += JSONText.quoted(id.rawValue)
        case let url as URL:
            out += JSONText.quoted(url.isFileURL ? url.path : url.absoluteString)
        case is NSNull:
            out += "null"
        default:
            if let raw = value as? any RawRepresentable, let text = raw.rawValue as? String {
                out += JSONText.quoted(text)
            } else {
                throw CHHapticError(
                    .invalidPatternDictionary,
                    "unsupported value of type \(type(of: value))\(key.map { " for '\(JSONText.display($0))'" } ?? "")")
            }
        }
    }

    private static func nonFinite(_ key: String?) -> CHHapticError {
        CHHapticError(.invalidPatternDictionary, "a number that is not finite\(key.map { " for '\(JSONText.display($0))'" } ?? "")")
    }

    private static func boolean(_ value: Any) -> Bool? {
        switch value {
        case let flag as Bool: flag
        case let number as NSNumber: number.doubleValue != 0
        case let number as Int: number != 0
        case let number as Double: number != 0
        case let number as Float: number != 0
        default: nil
        }
    }

    /// A dictionary's entries with string keys, in a stable order; nil if not a dictionary.
    private static func entries(of value: Any) -> [(key: String, value: Any)]? {
        let pairs: [(String, Any)]
        switch value {
        case let dictionary as [String: Any]:
            pairs = dictionary.map { ($0.key, $0.value) }
        case let dictionary as [AnyHashable: Any]:
            pairs = dictionary.map { (keyString($0.key.base), $0.value) }
        default:
            // Only an object is cast to a class: casting a Swift array bridges all of it.
            guard type(of: value) is AnyObject.Type, let dictionary = value as? NSDictionary else { return nil }
            var collected: [(String, Any)] = []
            dictionary.enumerateKeysAndObjects { key, object, _ in collected.append((keyString(key), object)) }
            pairs = collected
        }
        return pairs.sorted { $0.0 < $1.0 }.map { (key: $0.0, value: $0.1) }
    }

    private static func keyString(_ key: Any) -> String {
        switch key {
        case let text as String: text
        case let text as NSString: String(text)
        case let raw as any RawRepresentable: (raw.rawValue as? String) ?? "\(key)"
        default: "\(key)"
        }
    }

    private static func items(of value: Any) -> [Any]? {
        switch value {
        case let array as [Any]: array
        default: type(of: value) is AnyObject.Type ? (value as? NSArray).map { $0.map { $0 } } : nil
        }
    }

    // MARK: Export

    typealias Key = CHHapticPattern.Key

    /// The folder relative `EventWaveformPath`s of dictionaries and AHAP data are in: the top
    /// of the app's bundle, as on iOS (for a program that is not in a bundle, its executable's
    /// folder), not the working directory.
    static var bundleFolder: URL { Bundle.main.resourceURL ?? Bundle.main.bundleURL }

    /// A native pattern as a Core Haptics dictionary: events, then parameters, then curves.
    static func export(_ pattern: HapticPattern) -> [Key: Any] {
        var elements: [[Key: Any]] = []
        for event in pattern.events {
            var entry: [Key: Any] = [
                .eventType: event.kind.rawValue,
                .time: NSNumber(value: event.relativeTime),
                .eventDuration: NSNumber(value: event.duration),
                .eventParameters: event.parameters.map { parameter -> [Key: Any] in
                    [.parameterID: parameter.id.rawValue, .parameterValue: NSNumber(value: Float(parameter.value))]
                },
            ]
            if event.kind == .audioCustom, let audio = event.audio {
                // Relative to the app's bundle, as a dictionary's paths are read, when it was
                // relative to it; otherwise the full path, which resolves the same anywhere.
                entry[.eventWaveformPath] =
                    audio.directory == nil || audio.directory?.standardizedFileURL == bundleFolder.standardizedFileURL
                    ? audio.path : audio.resolvedPath
                if let envelope = audio.usesVolumeEnvelope { entry[.eventWaveformUseVolumeEnvelope] = envelope }
                if let loops = audio.loopEnabled { entry[.eventWaveformLoopEnabled] = loops }
            }
            elements.append([.event: entry])
        }
        for parameter in pattern.parameters {
            elements.append([
                .parameter: [
                    .parameterID: parameter.id.rawValue,
                    .time: NSNumber(value: parameter.relativeTime),
                    .parameterValue: NSNumber(value: Float(parameter.value)),
                ] as [Key: Any]
            ])
        }
        for curve in pattern.curves {
            elements.append([
                .parameterCurve: [
                    .parameterID: curve.id.rawValue,
                    .time: NSNumber(value: curve.relativeTime),
                    .parameterCurveControlPoints: curve.controlPoints.map { point -> [Key: Any] in
                        [.time: NSNumber(value: point.relativeTime), .parameterValue: NSNumber(value: Float(point.value))]
                    },
                ] as [Key: Any]
            ])
        }
        return [.version: NSNumber(value: pattern.version), .pattern: elements]
    }
}
