import Haptics

/// A one-line picture of a pattern's strength over time, for terminals.
enum Sparkline {
    private static let levels: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The rendered signal's peak per column, with the time span underneath.
    static func envelope(of pattern: HapticPattern, profile: ActuatorProfile, columns: Int = 64) -> String {
        let signal = HapticRenderer.render(pattern, profile: profile)
        let samples = signal.channel(profile.hapticChannels.first ?? 0)
        guard !samples.isEmpty else { return "  (silent)" }
        // At least 3 ms a column, so a column spans a carrier cycle and shows the envelope,
        // not the oscillation.
        let perColumn = max(signal.sampleRate * 3 / 1000, (samples.count + columns - 1) / columns)
        var line = ""
        for start in stride(from: 0, to: samples.count, by: perColumn) {
            let peak = samples[start..<min(samples.count, start + perColumn)].reduce(Float(0)) { max($0, abs($1)) }
            let index = peak == 0 ? 0 : max(1, min(levels.count - 1, Int((peak * Float(levels.count - 1)).rounded(.up))))
            line.append(levels[index])
        }
        let seconds = Double(samples.count) / Double(signal.sampleRate)
        return "  │\(line)│ 0–\(seconds.fixed(2)) s"
    }

    /// Three rows on one time axis: intensity and sharpness as block heights, and the events
    /// (`╿` a transient, `━` a continuous event sounding), each column a slice of the pattern.
    static func timeline(of pattern: HapticPattern, columns: Int = 60) -> String {
        let duration = max(pattern.duration, pattern.events.map(\.end).max() ?? 0)
        guard duration > 0, !pattern.events.isEmpty else { return "" }
        let envelope = PatternEnvelope(pattern: pattern)
        let step = duration / Double(columns)
        var intensity = ""
        var sharpness = ""
        var events = ""
        for column in 0..<columns {
            let start = Double(column) * step
            // The strongest moment of the column, sampled at a few points across it.
            var best: (intensity: Double, sharpness: Double?) = (0, nil)
            for k in 0..<4 {
                let value = envelope.value(at: start + step * (Double(k) + 0.5) / 4, resolution: step)
                if value.intensity >= best.intensity && value.sharpness != nil { best = value }
            }
            intensity.append(level(best.intensity))
            sharpness.append(best.sharpness.map(level) ?? " ")
            let last = column == columns - 1
            let tap = pattern.events.contains { $0.kind == .transient && $0.relativeTime >= start && ($0.relativeTime < start + step || last) }
            let buzz = pattern.events.contains { $0.kind == .continuous && $0.relativeTime < start + step && $0.end > start }
            events.append(tap ? "╿" : buzz ? "━" : " ")
        }
        return """
              intensity │\(intensity)│
              sharpness │\(sharpness)│
              events    │\(events)│ 0–\(duration.fixed(2)) s

            """
    }

    private static func level(_ value: Double) -> Character {
        guard value > 0 else { return levels[0] }
        return levels[max(1, min(levels.count - 1, Int((value * Double(levels.count - 1)).rounded(.up))))]
    }
}
