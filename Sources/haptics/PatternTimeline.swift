import FoundationEssentials
import Haptics

/// The `show` text: header lines, then one line per element in time order.
struct PatternTimeline {
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
            let time = row.time.fixed(3).rightAligned(10)
            lines.append("  \(time)  \(row.kind.padded(to: 14))  \(row.details)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The note `show` prints on standard error for a pattern with audio events, nil without.
    var audioNote: String? {
        let counts = pattern.counts
        let audio = counts.audioContinuous + counts.audioCustom
        guard audio > 0 else { return nil }
        return
            "\(name): note: \(audio == 1 ? "the audio event plays" : "\(audio) audio events play") with `play` (on the audio channels, beside the haptics); `render` mixes \(audio == 1 ? "it" : "them") in with --audio"
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
            details += audioDetails(event)
            details.append("duration \(seconds(event.duration))")
            details += envelopeDetails(event)
            return Row(time: event.relativeTime, kind: "audio", details: details.joined(separator: ", "))
        case .audioCustom:
            details.append(event.audio?.path ?? "no sound file")
            details.append("volume \(value(event.value(of: .audioVolume)))")
            details += audioDetails(event)
            details.append(event.duration > 0 ? "duration \(seconds(event.duration))" : "the whole file")
            if event.audio?.loopEnabled == true { details.append("looped") }
            if event.audio?.usesVolumeEnvelope == false { details.append("no envelope") } else { details += envelopeDetails(event) }
            return Row(time: event.relativeTime, kind: "audio custom", details: details.joined(separator: ", "))
        }
    }

    /// Pitch (tones only: files list it when written), pan and brightness, when written.
    private func audioDetails(_ event: HapticEvent) -> [String] {
        let written = Set(event.parameters.map(\.id))
        var details: [String] = []
        if event.kind == .audioCustom && written.contains(.audioPitch) { details.append("pitch \(value(event.value(of: .audioPitch)))") }
        if written.contains(.audioPan) { details.append("pan \(value(event.value(of: .audioPan)))") }
        if written.contains(.audioBrightness) { details.append("brightness \(value(event.value(of: .audioBrightness)))") }
        return details
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
        var points = curve.controlPoints.prefix(shown).map { "\($0.relativeTime.fixed(3))→\(value($0.value))" }
        if curve.controlPoints.count > shown { points.append("… (\(curve.controlPoints.count - shown) more)") }
        let count = curve.controlPoints.count
        let details = "\(curve.id.rawValue), \(count) point\(count == 1 ? "" : "s") until \(seconds(curve.end)): " + points.joined(separator: ", ")
        return Row(time: curve.relativeTime, kind: "curve", details: details)
    }

    private func seconds(_ time: Double) -> String { time.fixed(3) + " s" }
    private func value(_ number: Double) -> String { number.fixed(2) }
}
