import FoundationEssentials

/// Turns the JSON tree of an AHAP file into a ``HapticPattern``, reporting every problem it
/// finds with its JSON location rather than stopping at the first.
///
/// Each `read…` method returns `nil` when its element cannot be used, either because of an
/// error (already reported) or because lenient mode skips it (already warned about).
/// The folder an AHAP file's sound files are relative to: the URL given, or the folder of a
/// file read by path, made a URL only when a pattern names a sound file. (Creating the first
/// `URL` of a process costs about 0.4 ms, a tenth of `haptics show`, and most patterns have
/// no sound files.)
enum SoundFolder {
    case url(URL)
    case path(String)

    var url: URL {
        switch self {
        case .url(let url): url
        case .path(let path): URL(fileURLWithPath: path, isDirectory: true)
        }
    }
}

struct AHAPPatternReader {
    var report: DiagnosticCollector
    let limits: AHAPLimits
    /// The folder `EventWaveformPath` resolves against; `nil` skips the sound-file check.
    let baseDirectory: SoundFolder?
    /// The source text, for keeping non-string metadata values as they were written.
    let bytes: [UInt8]
    /// Event times and durations noted for the milliseconds check (see ``TimingPlausibility``).
    var timing = TimingPlausibility()

    /// The pattern, or `nil` when the file has errors.
    mutating func read(_ root: JSONValue) -> HapticPattern? {
        guard case .object(let members) = root.content else {
            report.error(
                "expected a JSON object with a 'Pattern' array at the top level, found \(root.kindDescription)",
                at: "", offset: root.start)
            return nil
        }
        let fields = JSONFields(members)
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
                report.error(
                    "the 'Pattern' array is missing: this looks like a single pattern element, but an AHAP file is an object whose 'Pattern' array holds the elements",
                    at: AHAPKey.pattern, offset: root.start)
            } else {
                report.error(
                    "the 'Pattern' array is missing: an AHAP file needs a top-level \"Pattern\": [ … ] of events, parameters and curves",
                    at: AHAPKey.pattern, offset: root.start)
            }
            return nil
        }
        guard case .array(let items) = patternValue.content else {
            report.error(
                "expected an array of pattern elements, found \(patternValue.kindDescription)",
                at: AHAPKey.pattern, offset: patternValue.start)
            return nil
        }
        guard !items.isEmpty else {
            report.error(
                "the pattern is empty; Core Haptics rejects a pattern without events, parameters or curves",
                at: AHAPKey.pattern, offset: patternValue.start)
            return nil
        }
        for (index, item) in items.enumerated() {
            readElement(item, at: "\(AHAPKey.pattern)[\(index)]", into: &pattern)
        }
        if !report.hasErrors && pattern.isEmpty {
            report.error(
                "the pattern has no usable element: every element was skipped",
                at: AHAPKey.pattern, offset: patternValue.start)
        }
        let duration = pattern.duration
        let maxDuration = limits.maxDuration
        if duration > maxDuration {
            report.error(
                "the pattern lasts \(Self.secondsText(duration)), longer than the \(Self.secondsText(maxDuration)) limit",
                at: AHAPKey.pattern, offset: patternValue.start)
        } else {
            checkPlausibility(duration: duration, at: AHAPKey.pattern, offset: patternValue.start)
        }
        return report.hasErrors ? nil : pattern
    }

    // MARK: Top level

    mutating func readVersion(_ value: JSONValue) -> Double? {
        guard let version = number(value, at: AHAPKey.version) else { return nil }
        if !CoreHapticsLimits.versions.contains(version) {
            report.warning(
                "version \(JSONText.shortNumber(version)) is outside \(Self.rangeText(CoreHapticsLimits.versions)), the versions Core Haptics loads",
                at: AHAPKey.version, offset: value.start)
        }
        return version
    }

    mutating func readMetadata(_ value: JSONValue) -> HapticPattern.Metadata {
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
                report.warning(
                    "the value is \(member.value.kindDescription), not a string", consequence: "; kept as its JSON text",
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

    mutating func readElement(_ value: JSONValue, at path: @autoclosure () -> String, into pattern: inout HapticPattern) {
        guard case .object(let members) = value.content else {
            report.error(
                "expected an object holding one Event, Parameter or ParameterCurve, found \(value.kindDescription)",
                at: path(), offset: value.start)
            return
        }
        guard !members.isEmpty else {
            report.error("empty element; expected one of 'Event', 'Parameter' or 'ParameterCurve'", at: path(), offset: value.start)
            return
        }
        let known = members.filter { AHAPKey.elementKeys.contains($0.key) }
        for member in members where !AHAPKey.elementKeys.contains(member.key) {
            let suggestion = NameSuggestion.best(for: member.key, among: AHAPKey.elementKeys)
            let message =
                known.isEmpty
                ? "unknown element '\(JSONText.display(member.key))'"
                : "unknown key '\(JSONText.display(member.key))'"
            let consequence = known.isEmpty ? "; the element is skipped" : " is ignored"
            report.warning(message, consequence: consequence, at: JSONPath.appending(member.key, to: path()), offset: member.keyStart, suggestion: suggestion)
        }
        guard known.count <= 1 else {
            let names = known.map { "'\($0.key)'" }.joined(separator: " and ")
            report.error(
                "the element holds \(names); each element holds exactly one Event, Parameter or ParameterCurve",
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
}
