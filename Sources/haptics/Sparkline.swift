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
        let perColumn = max(Int(signal.sampleRate * 0.003), (samples.count + columns - 1) / columns)
        var line = ""
        for start in stride(from: 0, to: samples.count, by: perColumn) {
            let peak = samples[start..<min(samples.count, start + perColumn)].reduce(Float(0)) { max($0, abs($1)) }
            let index = peak == 0 ? 0 : max(1, min(levels.count - 1, Int((peak * Float(levels.count - 1)).rounded(.up))))
            line.append(levels[index])
        }
        let seconds = Double(samples.count) / signal.sampleRate
        return "  │\(line)│ 0–\(String(format: "%.2f", seconds)) s"
    }
}
