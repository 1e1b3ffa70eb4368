/// Reduces a polyline to fewer points with the Ramer–Douglas–Peucker algorithm: keep the
/// point farthest from the chord between the ends if it is farther than a tolerance, and
/// recurse on both halves. Iterative (no recursion depth limit); O(n log n) on typical data.
package enum CurveSimplifier {
    /// The indices of the points to keep (always the first and last), for a tolerance on the
    /// vertical distance (the value's error, in its own unit).
    package static func keep(times: [Double], values: [[Double]], tolerance: Double) -> [Int] {
        let n = times.count
        guard n > 2 else { return Array(0..<n) }
        var keep = [Bool](repeating: false, count: n)
        keep[0] = true
        keep[n - 1] = true
        var stack: [(Int, Int)] = [(0, n - 1)]
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            let span = times[b] - times[a]
            var worst = -1.0
            var worstIndex = a
            for i in (a + 1)..<b {
                let f = span > 0 ? (times[i] - times[a]) / span : 0
                var error = 0.0
                for series in values {
                    let predicted = series[a] + (series[b] - series[a]) * f
                    error = max(error, abs(series[i] - predicted))
                }
                if error > worst {
                    worst = error
                    worstIndex = i
                }
            }
            if worst > tolerance {
                keep[worstIndex] = true
                stack.append((a, worstIndex))
                stack.append((worstIndex, b))
            }
        }
        return keep.indices.filter { keep[$0] }
    }

    /// The indices to keep so that at most `budget` points remain: the smallest tolerance
    /// (found by bisection, 24 steps) whose result fits, never below `minimumTolerance`.
    package static func keep(times: [Double], values: [[Double]], budget: Int, minimumTolerance: Double = 0.002) -> [Int] {
        let all = keep(times: times, values: values, tolerance: minimumTolerance)
        guard all.count > max(2, budget) else { return all }
        var low = minimumTolerance
        var high = 1.0
        var best = keep(times: times, values: values, tolerance: high)
        for _ in 0..<24 {
            let mid = (low + high) / 2
            let candidate = keep(times: times, values: values, tolerance: mid)
            if candidate.count <= budget {
                best = candidate
                high = mid
            } else {
                low = mid
            }
        }
        return best
    }
}
