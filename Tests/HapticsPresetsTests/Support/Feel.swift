import Foundation
import HapticsCore
import HapticsRender

/// What a rendered pattern feels like, measured from its samples: the separate bursts of
/// vibration (taps, or longer continuous stretches) a finger would tell apart, each with its
/// strength, pitch and energy.
struct Feel: CustomStringConvertible {
    /// One stretch of vibration separated from the next by silence.
    struct Segment: CustomStringConvertible {
        /// Seconds from the start of the render.
        var start: Double
        var end: Double
        /// Largest absolute sample.
        var peak: Double
        /// When the largest sample occurs.
        var peakTime: Double
        /// Dominant frequency over the whole segment, from zero crossings.
        var frequency: Double
        /// Frequency over the first and the last third (equal to ``frequency`` for short ones).
        var startFrequency: Double
        var endFrequency: Double
        /// Sum of squared samples over the sample rate.
        var energy: Double

        var duration: Double { end - start }
        /// The peak in decibels relative to full scale.
        var peakDecibels: Double { 20 * log10(max(peak, 1e-9)) }

        var description: String {
            String(
                format: "[%.0f–%.0f ms peak %.3f (%.1f dB) at %.0f ms, %.0f Hz (%.0f→%.0f)]",
                start * 1000, end * 1000, peak, peakDecibels, peakTime * 1000, frequency, startFrequency, endFrequency)
        }
    }

    var segments: [Segment]
    /// Sum of squared samples over the sample rate, for the whole signal.
    var energy: Double
    /// Largest absolute sample.
    var peak: Double
    /// When the last audible sample occurs.
    var end: Double
    var clippedSamples: Int
    var samples: [Float]
    var sampleRate: Double

    /// How many separate taps or stretches there are.
    var count: Int { segments.count }

    var description: String {
        String(format: "%d segment(s), energy %.3g, peak %.3f, end %.0f ms: ", count, energy, peak, end * 1000)
            + segments.map(\.description).joined(separator: " ")
    }

    /// Renders and measures.
    init(_ pattern: HapticPattern, profile: ActuatorProfile = .wideband) {
        self.init(HapticRenderer.render(pattern, profile: profile))
    }

    /// Measures the first haptic channel of a rendered signal.
    ///
    /// Segments are found on an envelope (the largest magnitude within ±5 ms, which bridges the
    /// zero crossings of anything above 50 Hz), switching on above 10 % of the loudest point and
    /// off below 5 %; each segment then spans the samples above 5 %.
    init(_ signal: RenderedSignal, channel: Int = 0) {
        let x = signal.channel(channel)
        let rate = Double(signal.sampleRate)
        samples = x
        sampleRate = rate
        clippedSamples = signal.clippedSamples
        energy = x.reduce(0) { $0 + Double($1) * Double($1) } / rate
        peak = Double(x.reduce(0) { max($0, abs($1)) })
        end = Double((x.indices.last { abs(x[$0]) > 1e-6 } ?? 0)) / rate

        let envelope = Feel.envelope(x, halfWidth: Int(0.005 * rate))
        let on = Float(peak * 0.10)
        let off = Float(peak * 0.05)
        var ranges: [Range<Int>] = []
        var startIndex: Int?
        for i in envelope.indices {
            if let first = startIndex {
                if envelope[i] < off {
                    ranges.append(first..<i)
                    startIndex = nil
                }
            } else if peak > 0, envelope[i] > on {
                startIndex = i
            }
        }
        if let first = startIndex { ranges.append(first..<envelope.count) }
        // The envelope reaches ahead of and behind the sound by its half-width; the segment is
        // where the samples themselves are above the off level.
        segments = ranges.compactMap { range in
            guard let first = range.first(where: { abs(x[$0]) > off }),
                let last = range.last(where: { abs(x[$0]) > off })
            else { return nil }
            return Feel.segment(x, first..<(last + 1), sampleRate: rate)
        }
    }

    /// Largest magnitude within ±`halfWidth` samples of each sample.
    static func envelope(_ x: [Float], halfWidth: Int) -> [Float] {
        // Running maxima forward and backward within blocks of the window's width give the
        // sliding maximum in linear time (van Herk / Gil–Werman); truncated windows at the
        // edges are computed directly.
        let width = 2 * halfWidth + 1
        let magnitude = x.map(abs)
        var forward = magnitude
        var backward = magnitude
        for i in magnitude.indices where i % width != 0 { forward[i] = max(forward[i - 1], magnitude[i]) }
        for i in magnitude.indices.reversed() where i % width != width - 1 && i + 1 < magnitude.count {
            backward[i] = max(backward[i + 1], magnitude[i])
        }
        return magnitude.indices.map { i in
            let low = i - halfWidth
            let high = i + halfWidth
            guard low >= 0, high < magnitude.count else {
                return magnitude[max(0, low)...min(magnitude.count - 1, high)].max() ?? 0
            }
            return max(backward[low], forward[high])
        }
    }

    static func segment(_ x: [Float], _ range: Range<Int>, sampleRate: Double) -> Segment {
        var peakIndex = range.lowerBound
        for i in range where abs(x[i]) > abs(x[peakIndex]) { peakIndex = i }
        let third = range.count / 3
        let long = range.count >= Int(0.03 * sampleRate)
        let whole = frequency(x, range, sampleRate: sampleRate)
        return Segment(
            start: Double(range.lowerBound) / sampleRate,
            end: Double(range.upperBound) / sampleRate,
            peak: Double(abs(x[peakIndex])),
            peakTime: Double(peakIndex) / sampleRate,
            frequency: whole,
            startFrequency: long ? frequency(x, range.lowerBound..<(range.lowerBound + third), sampleRate: sampleRate) : whole,
            endFrequency: long ? frequency(x, (range.upperBound - third)..<range.upperBound, sampleRate: sampleRate) : whole,
            energy: range.reduce(0) { $0 + Double(x[$1]) * Double(x[$1]) } / sampleRate
        )
    }

    /// Frequency from all zero crossings (half periods) in a range, interpolated between
    /// samples. A crossing counts only between samples above 2 % of the range's peak on either
    /// side, so the faint tails where a burst dies away do not add spurious ones.
    static func frequency(_ x: [Float], _ range: Range<Int>, sampleRate: Double) -> Double {
        let floor = range.reduce(Float(0)) { max($0, abs(x[$1])) } * 0.02
        var crossings: [Double] = []
        var last: (index: Int, negative: Bool)?
        for i in range where abs(x[i]) > floor {
            let negative = x[i] < 0
            if let previous = last, previous.negative != negative,
                let j = (previous.index..<i).first(where: { (x[$0] < 0) != (x[$0 + 1] < 0) })
            {
                crossings.append(Double(j) + Double(-x[j]) / Double(x[j + 1] - x[j]))
            }
            last = (i, negative)
        }
        guard let first = crossings.first, let final = crossings.last, crossings.count > 1, final > first else { return 0 }
        return Double(crossings.count - 1) * sampleRate / (2 * (final - first))
    }
}
