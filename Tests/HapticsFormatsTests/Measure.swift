import Foundation
import HapticsCore
import HapticsRender

/// Signal measurements for the round-trip and analysis tests.
enum Measure {
    /// Pearson correlation of two series over the longer one's length (the shorter padded with zeros).
    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let n = max(a.count, b.count)
        guard n > 1 else { return 1 }
        func at(_ x: [Double], _ i: Int) -> Double { i < x.count ? x[i] : 0 }
        var ma = 0.0
        var mb = 0.0
        for i in 0..<n {
            ma += at(a, i)
            mb += at(b, i)
        }
        ma /= Double(n)
        mb /= Double(n)
        var sab = 0.0
        var saa = 0.0
        var sbb = 0.0
        for i in 0..<n {
            let x = at(a, i) - ma
            let y = at(b, i) - mb
            sab += x * y
            saa += x * x
            sbb += y * y
        }
        guard saa > 0, sbb > 0 else { return saa == sbb ? 1 : 0 }
        return sab / (saa * sbb).squareRoot()
    }

    /// The peak |x| of consecutive windows of `window` samples: the signal's amplitude
    /// envelope, independent of the carrier's phase when the window is longer than half the
    /// carrier's period.
    static func envelope(_ x: [Float], window: Int) -> [Double] {
        stride(from: 0, to: x.count, by: window).map { start in
            var peak: Float = 0
            for i in start..<min(x.count, start + window) { peak = max(peak, abs(x[i])) }
            return Double(peak)
        }
    }

    /// The RMS of consecutive windows of `window` samples.
    static func rmsEnvelope(_ x: [Float], window: Int) -> [Double] {
        stride(from: 0, to: x.count, by: window).map { start in
            let end = min(x.count, start + window)
            var sum = 0.0
            for i in start..<end { sum += Double(x[i]) * Double(x[i]) }
            return (sum / Double(end - start)).squareRoot()
        }
    }

    /// The rendered drive signal (wideband, 48 kHz, mono) of a pattern.
    static func drive(_ pattern: HapticPattern) -> [Float] {
        HapticRenderer.render(pattern).channel(0)
    }

    /// Envelope correlation (peaks in 10 ms windows: longer than half the period of the
    /// wideband profile's lowest frequency, 60 Hz) and raw sample correlation of two patterns'
    /// drive signals.
    static func similarity(_ a: HapticPattern, _ b: HapticPattern) -> (envelope: Double, raw: Double) {
        let x = drive(a)
        let y = drive(b)
        let envelope = correlation(Self.envelope(x, window: 480), Self.envelope(y, window: 480))
        let raw = correlation(x.map(Double.init), y.map(Double.init))
        return (envelope, raw)
    }

    /// Spearman rank correlation.
    static func spearman(_ a: [Double], _ b: [Double]) -> Double {
        func ranks(_ x: [Double]) -> [Double] {
            let order = x.indices.sorted { x[$0] < x[$1] }
            var r = [Double](repeating: 0, count: x.count)
            var i = 0
            while i < order.count {
                var j = i
                while j + 1 < order.count && x[order[j + 1]] == x[order[i]] { j += 1 }
                let rank = Double(i + j) / 2
                for k in i...j { r[order[k]] = rank }
                i = j + 1
            }
            return r
        }
        return correlation(ranks(a), ranks(b))
    }
}
