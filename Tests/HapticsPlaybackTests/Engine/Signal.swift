/// Measurements on captured samples. Ranges are in samples.
enum Signal {
    static func rms(_ x: [Float], _ range: Range<Int>) -> Double {
        let sum = range.reduce(0.0) { $0 + Double(x[$1]) * Double(x[$1]) }
        return (sum / Double(range.count)).squareRoot()
    }

    static func peak(_ x: [Float], _ range: Range<Int>) -> Float {
        range.reduce(0) { max($0, abs(x[$1])) }
    }

    static func maximumStep(_ x: [Float]) -> Float {
        zip(x, x.dropFirst()).reduce(0) { max($0, abs($1.1 - $1.0)) }
    }

    /// Frequency from upward zero crossings, interpolated.
    static func frequency(_ x: [Float], _ range: Range<Int>, sampleRate: Double) -> Double {
        var crossings: [Double] = []
        for i in range.dropFirst() where x[i - 1] < 0 && x[i] >= 0 {
            crossings.append(Double(i - 1) + Double(-x[i - 1]) / Double(x[i] - x[i - 1]))
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * sampleRate / (last - first)
    }

    /// Starts of runs of non-zero samples separated by at least `gap` zeros.
    static func onsets(_ x: [Float], gap: Int) -> [Int] {
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
}
