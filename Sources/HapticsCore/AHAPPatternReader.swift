import Foundation

/// Turns the JSON tree of an AHAP file into a ``HapticPattern``, reporting every problem it
/// finds with its JSON location rather than stopping at the first.
///
/// Each `read…` method returns `nil` when its element cannot be used, either because of an
/// error (already reported) or because lenient mode skips it (already warned about).
struct AHAPPatternReader {
    var report: DiagnosticCollector
    let limits: AHAPLimits
    /// The folder `EventWaveformPath` resolves against; `nil` skips the sound-file check.
    let baseDirectory: URL?
    /// The source text, for keeping non-string metadata values as they were written.
    let bytes: [UInt8]

    /// The pattern, or `nil` when the file has errors.
    mutating func read(_ root: JSONValue) -> HapticPattern? {
        guard case .object(let members) = root.content else {
            report.error("expected a JSON object with a 'Pattern' array at the top level, found \(root.kindDescription)",
                         at: "", offset: root.start)
            return nil
        }
        let fields = Fields(members)
        let patternValue = fields[AHAPKey.pattern]
        let looksLikeElement = patternValue == nil && members.contains { AHAPKey.elementKeys.contains($0.key) }
        for member in members where !AHAPKey.topLevelKeys.contains(member.key) {
            // A lone element gets one clear error below instead of an unknown-key warning.
            if looksLikeElement && AHAPKey.elementKeys.contains(member.key) { continue }
            warnUnknownKey(member, at: "", allowed: AHAPKey.topLevelKeys)
        }

        var pattern = HapticPattern(events: [])
        if let versionValue = fields[AHAPKey.version] {
            pattern.version = readVersion(versionValue) ?? pattern.version
        }
        if let metadataValue = fields[AHAPKey.metadata] {
            pattern.metadata = readMetadata(metadataValue)
        }

        guard let patternValue else {
            if looksLikeElement {
                report.error("the 'Pattern' array is missing: this looks like a single pattern element, but an AHAP file is an object whose 'Pattern' array holds the elements",
                             at: AHAPKey.pattern, offset: root.start)
            } else {
                report.error("the 'Pattern' array is missing: an AHAP file needs a top-level \"Pattern\": [ … ] of events, parameters and curves",
                             at: AHAPKey.pattern, offset: root.start)
            }
            return nil
        }
        guard case .array(let items) = patternValue.content else {
            report.error("expected an array of pattern elements, found \(patternValue.kindDescription)",
                         at: AHAPKey.pattern, offset: patternValue.start)
            return nil
        }
        guard !items.isEmpty else {
            report.error("the pattern is empty; Core Haptics rejects a pattern without events, parameters or curves",
                         at: AHAPKey.pattern, offset: patternValue.start)
            return nil
        }
        for (index, item) in items.enumerated() {
            readElement(item, at: "\(AHAPKey.pattern)[\(index)]", into: &pattern)
        }
        if !report.hasErrors && pattern.isEmpty {
            report.error("the pattern has no usable element: every element was skipped",
                         at: AHAPKey.pattern, offset: patternValue.start)
        }
        let duration = pattern.duration
        let maxDuration = limits.maxDuration
        if duration > maxDuration {
            report.error("the pattern lasts \(Self.secondsText(duration)), longer than the \(Self.secondsText(maxDuration)) limit",
                         at: AHAPKey.pattern, offset: patternValue.start)
        }
        return report.hasErrors ? nil : pattern
    }

    // MARK: Top level

    private mutating func readVersion(_ value: JSONValue) -> Double? {
        guard let version = number(value, at: AHAPKey.version) else { return nil }
        if !CoreHapticsLimits.versions.contains(version) {
            report.warning("version \(JSONText.shortNumber(version)) is outside \(Self.rangeText(CoreHapticsLimits.versions)), the versions Core Haptics loads",
                           at: AHAPKey.version, offset: value.start)
        }
        return version
    }

    private mutating func readMetadata(_ value: JSONValue) -> HapticPattern.Metadata {
        var metadata = HapticPattern.Metadata()
        guard case .object(let members) = value.content else {
            report.error("expected an object of strings, found \(value.kindDescription)", at: AHAPKey.metadata, offset: value.start)
            return metadata
        }
        for member in members {
            let text: String
            if case .string(let string) = member.value.content {
                text = string
            } else {
                text = String(decoding: bytes[member.value.start..<member.value.end], as: UTF8.self)
                report.warning("the value is \(member.value.kindDescription), not a string; kept as its JSON text",
                               at: JSONPath.appending(member.key, to: AHAPKey.metadata), offset: member.value.start)
            }
            switch member.key {
            case AHAPKey.project: metadata.project = text
            case AHAPKey.created: metadata.created = text
            case AHAPKey.description: metadata.description = text
            default: metadata.other[member.key] = text
            }
        }
        return metadata
    }

    // MARK: Elements

    private mutating func readElement(_ value: JSONValue, at path: @autoclosure () -> String, into pattern: inout HapticPattern) {
        guard case .object(let members) = value.content else {
            report.error("expected an object holding one Event, Parameter or ParameterCurve, found \(value.kindDescription)",
                         at: path(), offset: value.start)
            return
        }
        guard !members.isEmpty else {
            report.error("empty element; expected one of 'Event', 'Parameter' or 'ParameterCurve'", at: path(), offset: value.start)
            return
        }
        let known = members.filter { AHAPKey.elementKeys.contains($0.key) }
        for member in members where !AHAPKey.elementKeys.contains(member.key) {
            let suggestion = KeySuggestion.best(for: member.key, among: AHAPKey.elementKeys)
            let message = known.isEmpty
                ? "unknown element '\(JSONText.display(member.key))'; the element is skipped"
                : "unknown key '\(JSONText.display(member.key))' is ignored"
            report.warning(message, at: JSONPath.appending(member.key, to: path()), offset: member.keyStart, suggestion: suggestion)
        }
        guard known.count <= 1 else {
            let names = known.map { "'\($0.key)'" }.joined(separator: " and ")
            report.error("the element holds \(names); each element holds exactly one Event, Parameter or ParameterCurve",
                         at: path(), offset: value.start)
            return
        }
        guard let member = known.first else { return }
        switch member.key {
        case AHAPKey.event:
            if let event = readEvent(member.value, at: JSONPath.appending(member.key, to: path())) {
                pattern.events.append(event)
            }
        case AHAPKey.parameter:
            if let parameter = readParameter(member.value, at: JSONPath.appending(member.key, to: path())) {
                pattern.parameters.append(parameter)
            }
        default:
            if let curve = readCurve(member.value, at: JSONPath.appending(member.key, to: path())) {
                pattern.curves.append(curve)
            }
        }
    }

    private mutating func readEvent(_ value: JSONValue, at path: @autoclosure () -> String) -> HapticEvent? {
        guard let fields = checkedObject(value, at: path(), allowed: AHAPKey.eventKeys) else { return nil }
        var valid = true

        var kind: HapticEvent.Kind?
        if let typeName = requiredString(fields, AHAPKey.eventType, in: value, at: path()) {
            kind = HapticEvent.Kind(rawValue: typeName)
            if kind == nil {
                let names = HapticEvent.Kind.allCases.map(\.rawValue)
                report.error("unknown event type '\(JSONText.display(typeName))'; expected one of \(names.joined(separator: ", "))",
                             at: JSONPath.appending(AHAPKey.eventType, to: path()),
                             offset: fields[AHAPKey.eventType]?.start,
                             suggestion: KeySuggestion.best(for: typeName, among: names))
            }
        }
        let time = requiredTime(fields, alias: AHAPKey.eventTime, in: value, at: path())

        var duration: Double? = 0
        if let durationValue = fields[AHAPKey.eventDuration] {
            duration = seconds(durationValue, at: JSONPath.appending(AHAPKey.eventDuration, to: path()), naming: "duration")
        }
        let parameters = readEventParameters(fields[AHAPKey.eventParameters], at: JSONPath.appending(AHAPKey.eventParameters, to: path()))
        let audio = readAudioResource(fields, kind: kind, in: value, at: path(), valid: &valid)

        guard let kind, let time, let duration, let parameters, valid else { return nil }
        if kind == .continuous || kind == .audioContinuous, duration > CoreHapticsLimits.maxContinuousDuration {
            report.warning("the event lasts \(Self.secondsText(duration)), longer than the \(Self.secondsText(CoreHapticsLimits.maxContinuousDuration)) Core Haptics allows for a continuous event",
                           at: JSONPath.appending(AHAPKey.eventDuration, to: path()), offset: fields[AHAPKey.eventDuration]?.start)
        }
        return HapticEvent(kind, at: time, duration: duration, parameters: parameters, audio: audio)
    }

    private mutating func readEventParameters(_ value: JSONValue?, at path: @autoclosure () -> String) -> [HapticEvent.Parameter]? {
        guard let value else { return [] }
        guard case .array(let entries) = value.content else {
            report.error("expected an array of parameters, found \(value.kindDescription)", at: path(), offset: value.start)
            return nil
        }
        var parameters: [HapticEvent.Parameter] = []
        var valid = true
        for (index, entry) in entries.enumerated() {
            func entryPath() -> String { "\(path())[\(index)]" }
            guard let fields = checkedObject(entry, at: entryPath(), allowed: AHAPKey.eventParameterKeys,
                                             expecting: "an object with 'ParameterID' and 'ParameterValue'") else {
                valid = false
                continue
            }
            let name = requiredString(fields, AHAPKey.parameterID, in: entry, at: entryPath())
            let id = name.flatMap { HapticEvent.ParameterID(rawValue: $0) }
            let rawValue = requiredNumber(fields, AHAPKey.parameterValue, in: entry, at: entryPath())
            guard let name, let rawValue else {
                valid = false
                continue
            }
            guard let id else {
                report.warning("unknown event parameter '\(JSONText.display(name))' is ignored",
                               at: JSONPath.appending(AHAPKey.parameterID, to: entryPath()),
                               offset: fields[AHAPKey.parameterID]?.start,
                               suggestion: KeySuggestion.best(for: name, among: HapticEvent.ParameterID.allCases.map(\.rawValue)))
                continue
            }
            let value = clamped(rawValue, to: id.range, naming: name,
                                at: JSONPath.appending(AHAPKey.parameterValue, to: entryPath()),
                                offset: fields[AHAPKey.parameterValue]?.start)
            if let earlier = parameters.firstIndex(where: { $0.id == id }) {
                report.warning("'\(name)' is given more than once; the last value is used", at: entryPath(), offset: entry.start)
                parameters.remove(at: earlier)
            }
            parameters.append(HapticEvent.Parameter(id, value))
        }
        return valid ? parameters : nil
    }

    /// The sound of an AudioCustom event; for other kinds, warns about audio keys and returns `nil`.
    private mutating func readAudioResource(_ fields: Fields, kind: HapticEvent.Kind?, in object: JSONValue, at path: @autoclosure () -> String, valid: inout Bool) -> HapticEvent.AudioResource? {
        let audioKeys = [AHAPKey.waveformPath, AHAPKey.waveformUsesVolumeEnvelope, AHAPKey.waveformLoopEnabled]
        guard kind == .audioCustom else {
            guard let kind else { return nil }
            // `"EventWaveformPath": null` on haptic events is common in real files and harmless.
            for key in audioKeys {
                if let value = fields[key], !value.isNull {
                    report.warning("'\(key)' applies only to AudioCustom events; ignored on a \(kind.rawValue) event",
                                   at: JSONPath.appending(key, to: path()), offset: value.start)
                }
            }
            return nil
        }
        let pathLocation = JSONPath.appending(AHAPKey.waveformPath, to: path())
        guard let pathValue = fields[AHAPKey.waveformPath], !pathValue.isNull else {
            report.error("missing 'EventWaveformPath': an AudioCustom event needs the sound file it plays",
                         at: pathLocation, offset: object.start)
            valid = false
            return nil
        }
        let usesEnvelope = optionalBool(fields, AHAPKey.waveformUsesVolumeEnvelope, at: path(), valid: &valid)
        let loops = optionalBool(fields, AHAPKey.waveformLoopEnabled, at: path(), valid: &valid)
        guard let file = string(pathValue, at: pathLocation) else {
            valid = false
            return nil
        }
        guard !file.isEmpty else {
            report.error("'EventWaveformPath' is empty; it must name the sound file to play", at: pathLocation, offset: pathValue.start)
            valid = false
            return nil
        }
        if let baseDirectory {
            let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : baseDirectory.appendingPathComponent(file)
            if !FileManager.default.fileExists(atPath: url.path) {
                report.warning("sound file '\(JSONText.display(file))' not found (looked for \(JSONText.display(url.path, maxLength: 200))); the event is kept and plays no sound",
                               at: pathLocation, offset: pathValue.start)
            }
        }
        return HapticEvent.AudioResource(path: file, usesVolumeEnvelope: usesEnvelope, loopEnabled: loops)
    }

    private mutating func readParameter(_ value: JSONValue, at path: @autoclosure () -> String) -> HapticDynamicParameter? {
        guard let fields = checkedObject(value, at: path(), allowed: AHAPKey.parameterKeys) else { return nil }
        let id = readDynamicID(fields, in: value, at: path())
        let time = requiredTime(fields, alias: AHAPKey.parameterTime, in: value, at: path())
        let rawValue = requiredNumber(fields, AHAPKey.parameterValue, in: value, at: path())
        guard let id, let time, let rawValue else { return nil }
        let parameterValue = clamped(rawValue, to: id.range, naming: id.rawValue,
                                     at: JSONPath.appending(AHAPKey.parameterValue, to: path()),
                                     offset: fields[AHAPKey.parameterValue]?.start)
        return HapticDynamicParameter(id, parameterValue, at: time)
    }

    private mutating func readCurve(_ value: JSONValue, at path: @autoclosure () -> String) -> HapticParameterCurve? {
        guard let fields = checkedObject(value, at: path(), allowed: AHAPKey.curveKeys) else { return nil }
        let id = readDynamicID(fields, in: value, at: path())
        let time = requiredTime(fields, alias: AHAPKey.parameterTime, in: value, at: path())
        func pointsPath() -> String { JSONPath.appending(AHAPKey.controlPoints, to: path()) }
        guard let pointsValue = fields[AHAPKey.controlPoints] else {
            report.error("missing 'ParameterCurveControlPoints'; a curve needs its control points", at: pointsPath(), offset: value.start)
            return nil
        }
        guard case .array(let entries) = pointsValue.content else {
            report.error("expected an array of control points, found \(pointsValue.kindDescription)", at: pointsPath(), offset: pointsValue.start)
            return nil
        }
        guard entries.count <= limits.maxControlPoints else {
            report.error("the curve has \(entries.count) control points, more than the limit of \(limits.maxControlPoints)",
                         at: pointsPath(), offset: pointsValue.start)
            return nil
        }
        var points: [HapticParameterCurve.ControlPoint] = []
        var valid = true
        for (index, entry) in entries.enumerated() {
            func entryPath() -> String { "\(pointsPath())[\(index)]" }
            guard let pointFields = checkedObject(entry, at: entryPath(), allowed: AHAPKey.controlPointKeys,
                                                  expecting: "an object with 'Time' and 'ParameterValue'") else {
                valid = false
                continue
            }
            let pointTime = requiredTime(pointFields, alias: AHAPKey.parameterTime, in: entry, at: entryPath())
            let rawValue = requiredNumber(pointFields, AHAPKey.parameterValue, in: entry, at: entryPath())
            guard let pointTime, let rawValue else {
                valid = false
                continue
            }
            let pointValue = id.map {
                clamped(rawValue, to: $0.range, naming: $0.rawValue,
                        at: JSONPath.appending(AHAPKey.parameterValue, to: entryPath()),
                        offset: pointFields[AHAPKey.parameterValue]?.start)
            } ?? rawValue
            points.append(HapticParameterCurve.ControlPoint(at: pointTime, pointValue))
        }
        guard let id, let time, valid else { return nil }
        guard !points.isEmpty else {
            report.warning("the curve has no control points and does nothing; it is skipped", at: pointsPath(), offset: pointsValue.start)
            return nil
        }
        if zip(points, points.dropFirst()).contains(where: { $0.relativeTime > $1.relativeTime }) {
            report.warning("the control points are not in time order; they are sorted", at: pointsPath(), offset: pointsValue.start)
            points = points.enumerated()
                .sorted { ($0.element.relativeTime, $0.offset) < ($1.element.relativeTime, $1.offset) }
                .map(\.element)
        }
        if points.count > CoreHapticsLimits.maxControlPoints {
            report.warning("the curve has \(points.count) control points; Core Haptics allows at most \(CoreHapticsLimits.maxControlPoints) per curve",
                           at: pointsPath(), offset: pointsValue.start)
        }
        return HapticParameterCurve(id, at: time, controlPoints: points)
    }

    /// The `ParameterID` of a Parameter or ParameterCurve; `nil` after an error or, for an
    /// unknown ID, a warning (the element is skipped).
    private mutating func readDynamicID(_ fields: Fields, in object: JSONValue, at path: @autoclosure () -> String) -> HapticDynamicParameter.ID? {
        guard let name = requiredString(fields, AHAPKey.parameterID, in: object, at: path()) else { return nil }
        if let id = HapticDynamicParameter.ID(rawValue: name) { return id }
        report.warning("unknown dynamic parameter '\(JSONText.display(name))'; the element is skipped",
                       at: JSONPath.appending(AHAPKey.parameterID, to: path()),
                       offset: fields[AHAPKey.parameterID]?.start,
                       suggestion: KeySuggestion.best(for: name, among: HapticDynamicParameter.ID.allCases.map(\.rawValue)))
        return nil
    }

    // MARK: Typed access

    /// An object's members after warning about keys its context does not allow.
    private mutating func checkedObject(_ value: JSONValue, at path: @autoclosure () -> String, allowed: [String], expecting what: String = "an object") -> Fields? {
        guard case .object(let members) = value.content else {
            report.error("expected \(what), found \(value.kindDescription)", at: path(), offset: value.start)
            return nil
        }
        for member in members where !allowed.contains(member.key) {
            warnUnknownKey(member, at: path(), allowed: allowed)
        }
        return Fields(members)
    }

    private mutating func warnUnknownKey(_ member: JSONMember, at path: @autoclosure () -> String, allowed: [String]) {
        let misnomer = AHAPKey.documentedMisnomers[member.key].flatMap { allowed.contains($0) ? $0 : nil }
        report.warning("unknown key '\(JSONText.display(member.key))' is ignored",
                       at: JSONPath.appending(member.key, to: path()), offset: member.keyStart,
                       suggestion: misnomer ?? KeySuggestion.best(for: member.key, among: allowed))
    }

    /// `Time`, or its alias when `Time` is absent: present, a number, not negative, in the limit.
    private mutating func requiredTime(_ fields: Fields, alias: String, in object: JSONValue, at path: @autoclosure () -> String) -> Double? {
        switch (fields[AHAPKey.time], fields[alias]) {
        case (nil, nil):
            report.error("missing 'Time'", at: JSONPath.appending(AHAPKey.time, to: path()), offset: object.start)
            return nil
        case (let time?, let aliased):
            if let aliased {
                report.warning("both 'Time' and '\(alias)' are given; 'Time' is used",
                               at: JSONPath.appending(alias, to: path()), offset: aliased.start)
            }
            return seconds(time, at: JSONPath.appending(AHAPKey.time, to: path()), naming: "time")
        case (nil, let aliased?):
            return seconds(aliased, at: JSONPath.appending(alias, to: path()), naming: "time")
        }
    }

    /// A time or duration: a number, not negative, within the duration limit.
    private mutating func seconds(_ value: JSONValue, at path: @autoclosure () -> String, naming name: String) -> Double? {
        guard let number = number(value, at: path()) else { return nil }
        if number < 0 {
            report.error("negative \(name) \(JSONText.shortNumber(number)); a \(name) must be 0 or more", at: path(), offset: value.start)
            return nil
        }
        let maxDuration = limits.maxDuration
        if number > maxDuration {
            report.error("the \(name) \(JSONText.shortNumber(number)) s is beyond the \(Self.secondsText(maxDuration)) limit on a pattern's length",
                         at: path(), offset: value.start)
            return nil
        }
        return number
    }

    private mutating func requiredString(_ fields: Fields, _ key: String, in object: JSONValue, at path: @autoclosure () -> String) -> String? {
        guard let value = fields[key] else {
            report.error("missing '\(key)'", at: JSONPath.appending(key, to: path()), offset: object.start)
            return nil
        }
        return string(value, at: JSONPath.appending(key, to: path()))
    }

    private mutating func requiredNumber(_ fields: Fields, _ key: String, in object: JSONValue, at path: @autoclosure () -> String) -> Double? {
        guard let value = fields[key] else {
            report.error("missing '\(key)'", at: JSONPath.appending(key, to: path()), offset: object.start)
            return nil
        }
        return number(value, at: JSONPath.appending(key, to: path()))
    }

    /// An optional boolean; `null` counts as absent.
    private mutating func optionalBool(_ fields: Fields, _ key: String, at path: @autoclosure () -> String, valid: inout Bool) -> Bool? {
        guard let value = fields[key], !value.isNull else { return nil }
        guard case .bool(let flag) = value.content else {
            report.error("expected true or false, found \(value.kindDescription)", at: JSONPath.appending(key, to: path()), offset: value.start)
            valid = false
            return nil
        }
        return flag
    }

    private mutating func number(_ value: JSONValue, at path: @autoclosure () -> String) -> Double? {
        guard case .number(let number) = value.content else {
            report.error("expected a number, found \(value.kindDescription)", at: path(), offset: value.start)
            return nil
        }
        return number
    }

    private mutating func string(_ value: JSONValue, at path: @autoclosure () -> String) -> String? {
        guard case .string(let text) = value.content else {
            report.error("expected a string, found \(value.kindDescription)", at: path(), offset: value.start)
            return nil
        }
        return text
    }

    private mutating func clamped(_ value: Double, to range: ClosedRange<Double>, naming name: String, at path: @autoclosure () -> String, offset: Int?) -> Double {
        guard !range.contains(value) else { return value }
        let result = range.clamp(value)
        report.warning("\(name) \(JSONText.shortNumber(value)) is outside \(Self.rangeText(range)); clamped to \(JSONText.shortNumber(result))",
                       at: path(), offset: offset)
        return result
    }

    private static func rangeText(_ range: ClosedRange<Double>) -> String {
        "\(JSONText.shortNumber(range.lowerBound))...\(JSONText.shortNumber(range.upperBound))"
    }

    private static func secondsText(_ value: Double) -> String {
        "\(JSONText.shortNumber(value)) s"
    }
}

/// The members of one JSON object, looked up by key.
private struct Fields {
    let members: [JSONMember]

    init(_ members: [JSONMember]) { self.members = members }

    subscript(key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }
}

extension JSONValue {
    var isNull: Bool {
        if case .null = content { return true }
        return false
    }
}
