import FoundationEssentials
import Glibc
import Haptics

/// An SVG picture of a pattern on one time axis, top to bottom: the intensity and sharpness
/// envelopes, each event, each dynamic parameter's timeline, and the rendered drive signal.
///
/// Plain SVG 1.1 with inline attributes (no script, no external CSS), so browsers, editors and
/// librsvg (which draws `.png` plots) all draw it the same.
struct PatternPlot {
    var pattern: HapticPattern
    var profile: ActuatorProfile
    var title: String
    var width = 1000

    /// Lane heights, top to bottom.
    private let envelopeHeight = 150.0
    private let eventsHeight = 90.0
    private let controlHeight = 60.0
    private let signalHeight = 140.0
    private let left = 110.0
    private let right = 20.0
    private let laneGap = 22.0

    /// Sharpness 0…1 as a colour from warm (round) to cool (crisp).
    static func colour(sharpness: Double) -> String {
        let s = min(max(sharpness, 0), 1)
        let r = Int(230 - 180 * s)
        let g = Int(120 + 40 * s)
        let b = Int(40 + 200 * s)
        return "rgb(\(r),\(g),\(b))"
    }

    /// The parameters the pattern changes, one lane each.
    private var controls: [HapticControl] {
        HapticControl.allCases.filter { control in
            pattern.parameters.contains { HapticControl($0.id) == control } || pattern.curves.contains { HapticControl($0.id) == control }
        }
    }

    /// The picture's height in pixels: the lanes, their gaps, the title and the time axis.
    var height: Int {
        Int(54 + envelopeHeight + laneGap + eventsHeight + laneGap + Double(controls.count) * (controlHeight + laneGap) + signalHeight + 60)
    }

    /// The drive signal's lowest and highest sample in each pixel column, rendered in blocks:
    /// the memory is the picture's width, not the pattern's length (a one-hour pattern's whole
    /// signal was 1.36 GB), and every column covers the same span of time.
    struct SignalSummary {
        var low: [Float]
        var high: [Float]
        var seconds: Double
    }

    static func summary(of pattern: HapticPattern, profile: ActuatorProfile, columns: Int) -> SignalSummary {
        let renderer = HapticRenderer(pattern: pattern, profile: profile)
        let rate = Double(renderer.sampleRate)
        let channels = renderer.channelCount
        let channel = min(profile.hapticChannels.first ?? 0, channels - 1)
        let seconds = max(pattern.duration, Double(renderer.totalFrames) / rate, 0.001)
        var low = [Float](repeating: 0, count: columns)
        var high = [Float](repeating: 0, count: columns)
        let blockFrames = 4096
        var buffer = [Float](repeating: 0, count: blockFrames * channels)
        var frame = 0
        let columnsPerFrame = Double(columns) / (seconds * rate)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { renderer.render(into: $0) }
            if count == 0 { break }
            for k in 0..<count {
                let value = buffer[k * channels + channel]
                let column = min(columns - 1, Int(Double(frame + k) * columnsPerFrame))
                low[column] = min(low[column], value)
                high[column] = max(high[column], value)
            }
            frame += count
        }
        return SignalSummary(low: low, high: high, seconds: seconds)
    }

    var svg: String {
        let plotWidth = Double(width) - left - right
        let signal = Self.summary(of: pattern, profile: profile, columns: max(1, Int(plotWidth)))
        let seconds = signal.seconds
        let compiled = CompiledPattern(pattern)
        let controls = self.controls
        func x(_ t: Double) -> Double { left + t / seconds * plotWidth }

        var out: [String] = []
        var y = 54.0
        let totalHeight = Double(height)
        out.append(##"<?xml version="1.0" encoding="UTF-8"?>"##)
        out.append(
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(width)" height="\##(Int(totalHeight))" viewBox="0 0 \##(width) \##(Int(totalHeight))" font-family="sans-serif" font-size="12">"##
        )
        out.append(##"<rect width="100%" height="100%" fill="white"/>"##)
        out.append(##"<text x="\##(left)" y="22" font-size="15" font-weight="bold">\##(escape(title))</text>"##)
        out.append(
            ##"<text x="\##(left)" y="38" fill="#555">\##(pattern.duration.fixed(3)) s · \##(pattern.counts.events) event\##(pattern.counts.events == 1 ? "" : "s") · profile \##(escape(profile.name)) (\##(Int(profile.minFrequency))–\##(Int(profile.maxFrequency)) Hz)</text>"##
        )

        // Envelopes: the strongest sounding event's effective intensity, and its sharpness.
        let columns = Int(plotWidth)
        var intensity: [Double] = []
        var sharpness: [Double?] = []
        for column in 0...columns {
            let t = Double(column) / Double(columns) * seconds
            let (i, s) = PatternEnvelope(pattern: pattern, compiled: compiled).value(at: t, resolution: seconds / Double(columns))
            intensity.append(i)
            sharpness.append(s)
        }
        lane(&out, y: y, height: envelopeHeight, label: "intensity", sublabel: "sharpness ┄")
        let envelopePoints = intensity.enumerated().map { "\(fmt(left + Double($0.offset))),\(fmt(y + envelopeHeight * (1 - $0.element)))" }
        out.append(
            ##"<polygon fill="#4a78c2" fill-opacity="0.25" stroke="#2d5aa0" stroke-width="1.2" points="\##(fmt(left)),\##(fmt(y + envelopeHeight)) \##(envelopePoints.joined(separator: " ")) \##(fmt(left + Double(columns))),\##(fmt(y + envelopeHeight))"/>"##
        )
        for run in runs(of: sharpness) {
            let points = run.map { "\(fmt(left + Double($0.0))),\(fmt(y + envelopeHeight * (1 - $0.1)))" }
            out.append(##"<polyline fill="none" stroke="#d2691e" stroke-width="1.5" stroke-dasharray="4 3" points="\##(points.joined(separator: " "))"/>"##)
        }
        y += envelopeHeight + laneGap

        // Events: transients as stems, continuous events as bars, both coloured by sharpness.
        lane(&out, y: y, height: eventsHeight, label: "events", sublabel: "colour: sharpness")
        for event in pattern.events.sorted(by: { $0.relativeTime < $1.relativeTime }) {
            let level = event.value(of: .hapticIntensity)
            let colour = Self.colour(sharpness: event.value(of: .hapticSharpness))
            let top = y + eventsHeight * (1 - level)
            switch event.kind {
            case .transient:
                out.append(
                    ##"<line x1="\##(fmt(x(event.relativeTime)))" y1="\##(fmt(y + eventsHeight))" x2="\##(fmt(x(event.relativeTime)))" y2="\##(fmt(top))" stroke="\##(colour)" stroke-width="2"/>"##
                )
                out.append(##"<circle cx="\##(fmt(x(event.relativeTime)))" cy="\##(fmt(top))" r="3" fill="\##(colour)"/>"##)
            case .continuous:
                let w = max(1, x(event.relativeTime + event.duration) - x(event.relativeTime))
                out.append(
                    ##"<rect x="\##(fmt(x(event.relativeTime)))" y="\##(fmt(top))" width="\##(fmt(w))" height="\##(fmt(y + eventsHeight - top))" fill="\##(colour)" fill-opacity="0.6" stroke="\##(colour)"/>"##
                )
            case .audioContinuous, .audioCustom:
                let w = max(2, x(event.relativeTime + max(event.duration, 0.01)) - x(event.relativeTime))
                out.append(
                    ##"<rect x="\##(fmt(x(event.relativeTime)))" y="\##(fmt(y + eventsHeight - 8))" width="\##(fmt(w))" height="8" fill="#888" fill-opacity="0.5"><title>\##(event.kind.rawValue)</title></rect>"##
                )
            }
        }
        y += eventsHeight + laneGap

        // Dynamic parameters: each control's value over time (steps and curves as played).
        for control in controls {
            let range = control.multiplies ? 0.0...1.0 : -1.0...1.0
            lane(&out, y: y, height: controlHeight, label: Self.name(of: control), sublabel: control.multiplies ? "× 0…1" : "+ −1…1")
            if range.lowerBound < 0 {
                out.append(
                    ##"<line x1="\##(fmt(left))" y1="\##(fmt(y + controlHeight / 2))" x2="\##(fmt(left + plotWidth))" y2="\##(fmt(y + controlHeight / 2))" stroke="#ccc" stroke-dasharray="2 2"/>"##
                )
            }
            let points = (0...columns).map { column -> String in
                let value = compiled.control(control, at: Double(column) / Double(columns) * seconds)
                let unit = (value - range.lowerBound) / (range.upperBound - range.lowerBound)
                return "\(fmt(left + Double(column))),\(fmt(y + controlHeight * (1 - unit)))"
            }
            out.append(##"<polyline fill="none" stroke="#6a3d9a" stroke-width="1.5" points="\##(points.joined(separator: " "))"/>"##)
            y += controlHeight + laneGap
        }

        // The drive signal: min and max per pixel column.
        lane(&out, y: y, height: signalHeight, label: "drive signal", sublabel: "±1")
        let middle = y + signalHeight / 2
        out.append(##"<line x1="\##(fmt(left))" y1="\##(fmt(middle))" x2="\##(fmt(left + plotWidth))" y2="\##(fmt(middle))" stroke="#ccc"/>"##)
        var path = ""
        for column in signal.low.indices where signal.high[column] > signal.low[column] {
            let x = left + Double(column)
            path += "M\(fmt(x)),\(fmt(middle - Double(signal.high[column]) * signalHeight / 2))V\(fmt(middle - Double(signal.low[column]) * signalHeight / 2))"
        }
        if !path.isEmpty { out.append(##"<path d="\##(path)" stroke="#1b7f3b" stroke-width="1" fill="none"/>"##) }
        y += signalHeight

        // The time axis.
        let step = Self.tickStep(for: seconds)
        out.append(##"<line x1="\##(fmt(left))" y1="\##(fmt(y + 8))" x2="\##(fmt(left + plotWidth))" y2="\##(fmt(y + 8))" stroke="#333"/>"##)
        var tick = 0.0
        while tick <= seconds + step / 1000 {
            out.append(##"<line x1="\##(fmt(x(tick)))" y1="\##(fmt(y + 8))" x2="\##(fmt(x(tick)))" y2="\##(fmt(y + 13))" stroke="#333"/>"##)
            out.append(##"<text x="\##(fmt(x(tick)))" y="\##(fmt(y + 27))" text-anchor="middle">\##(Self.label(tick, step: step))</text>"##)
            tick += step
        }
        out.append(##"<text x="\##(fmt(left + plotWidth))" y="\##(fmt(y + 45))" text-anchor="end" fill="#555">time (s)</text>"##)
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// Consecutive columns that have a value, as separate polylines.
    private func runs(of values: [Double?]) -> [[(Int, Double)]] {
        var result: [[(Int, Double)]] = []
        var current: [(Int, Double)] = []
        for (index, value) in values.enumerated() {
            if let value {
                current.append((index, value))
            } else if !current.isEmpty {
                result.append(current)
                current = []
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    private func lane(_ out: inout [String], y: Double, height: Double, label: String, sublabel: String) {
        out.append(
            ##"<rect x="\##(fmt(left))" y="\##(fmt(y))" width="\##(fmt(Double(width) - left - right))" height="\##(fmt(height))" fill="#fafafa" stroke="#ddd"/>"##
        )
        out.append(##"<text x="\##(fmt(left - 8))" y="\##(fmt(y + 14))" text-anchor="end" font-weight="bold">\##(escape(label))</text>"##)
        out.append(##"<text x="\##(fmt(left - 8))" y="\##(fmt(y + 29))" text-anchor="end" fill="#777" font-size="10">\##(escape(sublabel))</text>"##)
    }

    static func name(of control: HapticControl) -> String {
        "\(control) ctl"
    }

    /// A round tick spacing giving about 5–10 ticks.
    static func tickStep(for seconds: Double) -> Double {
        let raw = seconds / 8
        let power = pow(10, floor(log10(raw)))
        for factor in [1.0, 2, 5, 10] where raw <= factor * power { return factor * power }
        return 10 * power
    }

    static func label(_ t: Double, step: Double) -> String {
        let decimals = max(0, Int(-floor(log10(step))))
        return t.fixed(decimals)
    }

    private func fmt(_ v: Double) -> String { v.fixed(1) }

    private func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
