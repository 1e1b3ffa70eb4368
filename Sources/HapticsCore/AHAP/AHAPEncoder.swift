import FoundationEssentials

/// Writes a ``HapticPattern`` as canonical AHAP JSON.
///
/// The output is strict JSON that Core Haptics and ``AHAPDecoder`` in strict mode accept, in
/// a stable form: two-space indentation, a trailing newline, keys in the order Core Haptics
/// exports them — `Version`, `Metadata` (when not empty), `Pattern`; in `Pattern` all events
/// (in the pattern's order), then all parameters, then all curves. Every event has `Time`,
/// `EventType`, `EventDuration` and `EventParameters`; AudioCustom events add
/// `EventWaveformPath` and, when set, `EventWaveformUseVolumeEnvelope` and
/// `EventWaveformLoopEnabled`. Numbers are written in their shortest form that reads back
/// exactly, so decoding the output gives back an equal pattern.
public struct AHAPEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// The pattern as AHAP JSON, UTF-8.
    ///
    /// Numbers JSON cannot hold (NaN, infinities) are written as `0.0`. Keys of
    /// ``HapticPattern/Metadata/other`` that name a dedicated field (`Project`, `Created`,
    /// `Description`) are left out.
    public func encode(_ pattern: HapticPattern) -> Data {
        Data(encodeText(pattern).utf8)
    }

    /// The pattern as AHAP JSON text.
    public func encodeText(_ pattern: HapticPattern) -> String {
        var out = "{\n"
        var topLevel = ["  \"Version\": \(JSONText.number(pattern.version))"]
        if !pattern.metadata.isEmpty {
            topLevel.append("  \"Metadata\": " + metadataText(pattern.metadata))
        }
        var elements: [String] = []
        elements.reserveCapacity(pattern.events.count + pattern.parameters.count + pattern.curves.count)
        for event in pattern.events { elements.append(eventText(event)) }
        for parameter in pattern.parameters { elements.append(parameterText(parameter)) }
        for curve in pattern.curves { elements.append(curveText(curve)) }
        topLevel.append("  \"Pattern\": " + (elements.isEmpty ? "[]" : "[\n" + elements.joined(separator: ",\n") + "\n  ]"))
        out += topLevel.joined(separator: ",\n")
        out += "\n}\n"
        return out
    }

    private func metadataText(_ metadata: HapticPattern.Metadata) -> String {
        var entries: [(String, String)] = []
        if let project = metadata.project { entries.append((AHAPKey.project, project)) }
        if let created = metadata.created { entries.append((AHAPKey.created, created)) }
        if let description = metadata.description { entries.append((AHAPKey.description, description)) }
        let reserved: Set = [AHAPKey.project, AHAPKey.created, AHAPKey.description]
        for key in metadata.other.keys.sorted() where !reserved.contains(key) {
            entries.append((key, metadata.other[key] ?? ""))
        }
        let lines = entries.map { "    \(JSONText.quoted($0.0)): \(JSONText.quoted($0.1))" }
        return "{\n" + lines.joined(separator: ",\n") + "\n  }"
    }

    private func eventText(_ event: HapticEvent) -> String {
        var lines = [
            "\"Time\": \(JSONText.number(event.relativeTime))",
            "\"EventType\": \(JSONText.quoted(event.kind.rawValue))",
            "\"EventDuration\": \(JSONText.number(event.duration))",
            "\"EventParameters\": "
                + listText(
                    event.parameters.map {
                        "{ \"ParameterID\": \(JSONText.quoted($0.id.rawValue)), \"ParameterValue\": \(JSONText.number($0.value)) }"
                    }),
        ]
        if event.kind == .audioCustom, let audio = event.audio {
            lines.append("\"EventWaveformPath\": \(JSONText.quoted(audio.path))")
            if let usesEnvelope = audio.usesVolumeEnvelope {
                lines.append("\"EventWaveformUseVolumeEnvelope\": \(usesEnvelope)")
            }
            if let loops = audio.loopEnabled {
                lines.append("\"EventWaveformLoopEnabled\": \(loops)")
            }
        }
        return elementText(AHAPKey.event, lines)
    }

    private func parameterText(_ parameter: HapticDynamicParameter) -> String {
        elementText(
            AHAPKey.parameter,
            [
                "\"ParameterID\": \(JSONText.quoted(parameter.id.rawValue))",
                "\"Time\": \(JSONText.number(parameter.relativeTime))",
                "\"ParameterValue\": \(JSONText.number(parameter.value))",
            ])
    }

    private func curveText(_ curve: HapticParameterCurve) -> String {
        elementText(
            AHAPKey.parameterCurve,
            [
                "\"ParameterID\": \(JSONText.quoted(curve.id.rawValue))",
                "\"Time\": \(JSONText.number(curve.relativeTime))",
                "\"ParameterCurveControlPoints\": "
                    + listText(
                        curve.controlPoints.map {
                            "{ \"Time\": \(JSONText.number($0.relativeTime)), \"ParameterValue\": \(JSONText.number($0.value)) }"
                        }),
            ])
    }

    /// `{ "Key": { lines } }` at the indentation of a pattern element.
    private func elementText(_ key: String, _ lines: [String]) -> String {
        let body = lines.map { "        " + $0 }.joined(separator: ",\n")
        return "    {\n      \"\(key)\": {\n" + body + "\n      }\n    }"
    }

    /// A list of one-line objects at the indentation of an element's member.
    private func listText(_ items: [String]) -> String {
        guard !items.isEmpty else { return "[]" }
        return "[\n" + items.map { "          " + $0 }.joined(separator: ",\n") + "\n        ]"
    }
}
