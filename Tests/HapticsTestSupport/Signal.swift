import Foundation

/// Measurements on rendered or captured samples, for tests. Ranges are in samples.
public enum Signal {
    /// Index of the first sample at or after `from` whose magnitude exceeds `threshold`.
    public static func firstNonZero(_ x: [Float], from: Int = 0, threshold: Float = 0) -> Int? {
        (from..<x.count).first { abs(x[$0]) > threshold }
    }

    /// Index of the last sample whose magnitude exceeds `threshold`.
    public static func lastNonZero(_ x: [Float], threshold: Float = 0) -> Int? {
        x.indices.last { abs(x[$0]) > threshold }
    }

    /// Root mean square over a range.
    public static func rms(_ x: [Float], _ range: Range<Int>) -> Double {
        let sum = range.reduce(0.0) { $0 + Double(x[$1]) * Double(x[$1]) }
        return (sum / Double(range.count)).squareRoot()
    }

    /// Amplitude of a sine of known frequency around a time: √2 × RMS over one period centred
    /// there, which for a linearly changing amplitude equals the amplitude at the centre.
    public static func amplitude(_ x: [Float], at seconds: Double, frequency: Double, sampleRate: Double) -> Double {
        let period = Int((sampleRate / frequency).rounded())
        let centre = Int((seconds * sampleRate).rounded())
        return rms(x, (centre - period / 2)..<(centre - period / 2 + period)) * 2.0.squareRoot()
    }

    /// Largest magnitude over a range.
    public static func peak(_ x: [Float], _ range: Range<Int>) -> Float {
        range.reduce(0) { max($0, abs(x[$1])) }
    }

    /// Frequency from upward zero crossings over a range, interpolated to sub-sample accuracy.
    public static func frequency(_ x: [Float], _ range: Range<Int>, sampleRate: Double) -> Double {
        var crossings: [Double] = []
        for i in range.dropFirst() where x[i - 1] < 0 && x[i] >= 0 {
            let fraction = Double(-x[i - 1]) / Double(x[i] - x[i - 1])
            crossings.append(Double(i - 1) + fraction)
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * sampleRate / (last - first)
    }

    /// Largest absolute difference between neighbouring samples.
    public static func maximumStep(_ x: [Float]) -> Float {
        zip(x, x.dropFirst()).reduce(0) { max($0, abs($1.1 - $1.0)) }
    }

    /// Onsets: starts of runs of non-zero samples separated by at least `gap` zero samples.
    public static func onsets(_ x: [Float], gap: Int) -> [Int] {
        var result: [Int] = []
        var zeros = gap
        for i in x.indices {
            if x[i] != 0 {
                if zeros >= gap { result.append(i) }
                zeros = 0
            } else {
                zeros += 1
            }
        }
        return result
    }

    /// Amplitude of the component at `frequency` over a range: a single-bin Fourier transform
    /// (Goertzel), exact for a steady sine spanning a whole number of its periods and
    /// nearly so over many periods.
    public static func magnitude(_ x: [Float], _ range: Range<Int>, frequency: Double, sampleRate: Double) -> Double {
        let omega = 2 * Double.pi * frequency / sampleRate
        var re = 0.0
        var im = 0.0
        for (n, i) in range.enumerated() {
            re += Double(x[i]) * cos(omega * Double(n))
            im -= Double(x[i]) * sin(omega * Double(n))
        }
        return 2 * (re * re + im * im).squareRoot() / Double(range.count)
    }
}
