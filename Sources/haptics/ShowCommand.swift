import ArgumentParser
import Foundation
import Haptics

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Describe a pattern: duration, counts and a readable timeline.",
        discussion: """
        Loads PATTERN (a preset, an AHAP file or - for standard input) in lenient mode and \
        prints its duration (as Core Haptics computes it: the latest event end, including a \
        continuous event's release, parameter time or curve end), how many elements of each \
        kind it has, and a timeline with one line per element, sorted by time: events with \
        their intensity, sharpness and duration, parameters with their value, curves with \
        their points. Audio events (AudioContinuous, AudioCustom) are kept in the pattern but \
        not rendered as haptics; a note says so when there are any. Warnings go to standard \
        error.

        With --json, standard output is one JSON object (keys sorted):

          {"source": "Boing.ahap", "version": 1, "duration": 0.265,
           "metadata": {"Project": "...", ...},
           "counts": {"events": 2, "transients": 1, "continuous": 1,
                      "audioContinuous": 0, "audioCustom": 0,
                      "parameters": 0, "curves": 2},
           "events": [{"time": 0, "type": "HapticTransient", "duration": 0, "end": 0,
                       "haptic": true, "intensity": 0.8, "sharpness": 0.4,
                       "parameters": [{"id": "HapticIntensity", "value": 0.8}, ...],
                       "waveformPath": null}, ...],
           "parameters": [{"time": 0.5, "id": "HapticIntensityControl", "value": 0.4}, ...],
           "curves": [{"time": 0.015, "id": "HapticIntensityControl", "end": 0.265,
                       "controlPoints": [{"time": 0, "value": 1}, ...]}, ...]}

        Times are in seconds from the pattern's start; each array is sorted by time (equal \
        times keep the pattern's order). "intensity" and "sharpness" are the values the event \
        plays with (written or default, clamped), null for audio events; "parameters" are the \
        event parameters as written; "end" is when the element stops contributing.

        Examples:
          haptics show Boing.ahap
          haptics show success --json | jq .duration
        """
    )

    @OptionGroup var input: PatternInput

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let loaded = try input.load()
        reportWarnings(loaded.diagnostics)
        let summary = PatternSummary(source: loaded.name, pattern: loaded.pattern)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            writeStandardOutput(String(decoding: try encoder.encode(summary), as: UTF8.self) + "\n")
        } else {
            writeStandardOutput(PatternTimeline(pattern: loaded.pattern, name: loaded.name).text)
        }
    }
}

/// The `show` text: header lines, then one line per element in time order.
private struct PatternTimeline {
    var pattern: HapticPattern
    var name: String

    var text: String {
        let counts = pattern.counts
        var lines = [name]
        lines.append("  duration    \(seconds(pattern.duration))")
        var kinds: [String] = []
        if counts.transients > 0 { kinds.append("\(counts.transients) transient") }
        if counts.continuous > 0 { kinds.append("\(counts.continuous) continuous") }
        if counts.audioContinuous > 0 { kinds.append("\(counts.audioContinuous) audio continuous") }
        if counts.audioCustom > 0 { kinds.append("\(counts.audioCustom) audio custom") }
        lines.append("  events      \(counts.events)" + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))"))
        lines.append("  parameters  \(counts.parameters)")
        lines.append("  curves      \(counts.curves)")
        lines.append("")
        lines.append("    time (s)  element         details")
        for row in rows() {
            let time = String(format: "%10.3f", row.time)
            lines.append("  \(time)  \(row.kind.padding(toLength: 14, withPad: " ", startingAt: 0))  \(row.details)")
        }
        let audio = counts.audioContinuous + counts.audioCustom
        if audio > 0 {
            lines.append("")
            lines.append("note: \(audio) audio event\(audio == 1 ? " is" : "s are") kept in the pattern but not rendered as haptics.")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private struct Row {
        var time: Double
        var kind: String
        var details: String
    }

    private func rows() -> [Row] {
        var rows = pattern.events.map(eventRow)
        rows += pattern.parameters.map {
            Row(time: $0.relativeTime, kind: "parameter", details: "\($0.id.rawValue) = \(value($0.value))")
        }
        rows += pattern.curves.map(curveRow)
        return rows.enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    private func eventRow(_ event: HapticEvent) -> Row {
        var details: [String] = []
        switch event.kind {
        case .transient:
            details.append("intensity \(value(event.value(of: .hapticIntensity)))")
            details.append("sharpness \(value(event.value(of: .hapticSharpness)))")
            if event.duration > 0 { details.append("duration \(seconds(event.duration))") }
            return Row(time: event.relativeTime, kind: "transient", details: details.joined(separator: ", "))
        case .continuous:
            details.append("intensity \(value(event.value(of: .hapticIntensity)))")
            details.append("sharpness \(value(event.value(of: .hapticSharpness)))")
            details.append("duration \(seconds(event.duration))")
            details += envelopeDetails(event)
            return Row(time: event.relativeTime, kind: "continuous", details: details.joined(separator: ", "))
        case .audioContinuous:
            details.append("volume \(value(event.value(of: .audioVolume)))")
            details.append("pitch \(value(event.value(of: .audioPitch)))")
            details.append("duration \(seconds(event.duration))")
            details.append("not rendered")
            return Row(time: event.relativeTime, kind: "audio", details: details.joined(separator: ", "))
        case .audioCustom:
            details.append(event.audio?.path ?? "no sound file")
            details.append("volume \(value(event.value(of: .audioVolume)))")
            if event.duration > 0 { details.append("duration \(seconds(event.duration))") }
            details.append("not rendered")
            return Row(time: event.relativeTime, kind: "audio custom", details: details.joined(separator: ", "))
        }
    }

    private func envelopeDetails(_ event: HapticEvent) -> [String] {
        var details: [String] = []
        let written = Set(event.parameters.map(\.id))
        if written.contains(.attackTime) { details.append("attack \(value(event.value(of: .attackTime)))") }
        if !event.isSustained {
            details.append("not sustained")
            if written.contains(.decayTime) { details.append("decay \(value(event.value(of: .decayTime)))") }
        }
        if written.contains(.releaseTime) { details.append("release \(value(event.value(of: .releaseTime)))") }
        return details
    }

    private func curveRow(_ curve: HapticParameterCurve) -> Row {
        let shown = 6
        var points = curve.controlPoints.prefix(shown).map { "\(String(format: "%.3f", $0.relativeTime))→\(value($0.value))" }
        if curve.controlPoints.count > shown { points.append("… (\(curve.controlPoints.count - shown) more)") }
        let count = curve.controlPoints.count
        let details = "\(curve.id.rawValue), \(count) point\(count == 1 ? "" : "s") until \(seconds(curve.end)): " + points.joined(separator: ", ")
        return Row(time: curve.relativeTime, kind: "curve", details: details)
    }

    private func seconds(_ time: Double) -> String { String(format: "%.3f s", time) }
    private func value(_ number: Double) -> String { String(format: "%.2f", number) }
}

/// The `show --json` object.
private struct PatternSummary: Encodable {
    var source: String
    var version: Double
    var duration: Double
    var metadata: [String: String]
    var counts: Counts
    var events: [Event]
    var parameters: [Parameter]
    var curves: [Curve]

    init(source: String, pattern: HapticPattern) {
        self.source = source
        version = pattern.version
        duration = pattern.duration
        var metadata = pattern.metadata.other
        if let project = pattern.metadata.project { metadata["Project"] = project }
        if let created = pattern.metadata.created { metadata["Created"] = created }
        if let description = pattern.metadata.description { metadata["Description"] = description }
        self.metadata = metadata
        counts = Counts(pattern.counts)
        events = Self.timeOrdered(pattern.events, time: \.relativeTime).map(Event.init)
        parameters = Self.timeOrdered(pattern.parameters, time: \.relativeTime).map(Parameter.init)
        curves = Self.timeOrdered(pattern.curves, time: \.relativeTime).map(Curve.init)
    }

    private static func timeOrdered<T>(_ items: [T], time: (T) -> Double) -> [T] {
        items.enumerated()
            .sorted { (time($0.element), $0.offset) < (time($1.element), $1.offset) }
            .map(\.element)
    }

    struct Counts: Encodable {
        var events, transients, continuous, audioContinuous, audioCustom, parameters, curves: Int

        init(_ counts: HapticPattern.Counts) {
            events = counts.events
            transients = counts.transients
            continuous = counts.continuous
            audioContinuous = counts.audioContinuous
            audioCustom = counts.audioCustom
            parameters = counts.parameters
            curves = counts.curves
        }
    }

    struct Event: Encodable {
        var event: HapticEvent

        enum CodingKeys: String, CodingKey {
            case time, type, duration, end, haptic, intensity, sharpness, parameters, waveformPath
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(event.relativeTime, forKey: .time)
            try container.encode(event.kind.rawValue, forKey: .type)
            try container.encode(event.duration, forKey: .duration)
            try container.encode(event.end, forKey: .end)
            try container.encode(event.kind.isHaptic, forKey: .haptic)
            try container.encode(event.kind.isHaptic ? event.value(of: .hapticIntensity) : nil, forKey: .intensity)
            try container.encode(event.kind.isHaptic ? event.value(of: .hapticSharpness) : nil, forKey: .sharpness)
            try container.encode(event.parameters.map { Point(id: $0.id.rawValue, value: $0.value) }, forKey: .parameters)
            try container.encode(event.audio?.path, forKey: .waveformPath)
        }

        struct Point: Encodable {
            var id: String
            var value: Double
        }
    }

    struct Parameter: Encodable {
        var time: Double
        var id: String
        var value: Double

        init(_ parameter: HapticDynamicParameter) {
            time = parameter.relativeTime
            id = parameter.id.rawValue
            value = parameter.value
        }
    }

    struct Curve: Encodable {
        var time: Double
        var id: String
        var end: Double
        var controlPoints: [Point]

        init(_ curve: HapticParameterCurve) {
            time = curve.relativeTime
            id = curve.id.rawValue
            end = curve.end
            controlPoints = curve.controlPoints.map { Point(time: $0.relativeTime, value: $0.value) }
        }

        struct Point: Encodable {
            var time: Double
            var value: Double
        }
    }
}
