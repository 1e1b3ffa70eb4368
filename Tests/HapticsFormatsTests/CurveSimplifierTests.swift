import Foundation
import HapticsTestSupport
import Testing

@testable import HapticsFormats

/// Ramer–Douglas–Peucker on the curves the converters write.
@Suite("CurveSimplifier")
struct CurveSimplifierTests {
    @Test("points on a straight line go; the ends stay")
    func straightLine() {
        let times = (0...100).map { Double($0) / 100 }
        #expect(CurveSimplifier.keep(times: times, values: [times.map { 0.2 + 0.5 * $0 }], tolerance: 0.001) == [0, 100])
    }

    @Test("a corner farther than the tolerance stays, one nearer goes")
    func corner() {
        let times = [0.0, 0.5, 1]
        #expect(CurveSimplifier.keep(times: times, values: [[0, 1, 0]], tolerance: 0.1) == [0, 1, 2])
        #expect(CurveSimplifier.keep(times: times, values: [[0, 0.05, 0]], tolerance: 0.1) == [0, 2])
    }

    @Test("with several series, a point stays when any of them needs it")
    func series() {
        let times = [0.0, 0.5, 1]
        #expect(CurveSimplifier.keep(times: times, values: [[0, 0.5, 1], [0, 1, 0]], tolerance: 0.1) == [0, 1, 2])
    }

    @Test("every kept point is within the tolerance of the simplified curve")
    func withinTolerance() {
        let times = (0...400).map { Double($0) / 400 }
        let values = times.map { 0.5 + 0.5 * sin($0 * 20) }
        let kept = CurveSimplifier.keep(times: times, values: [values], tolerance: 0.01)
        #expect(kept.count < times.count / 4, "\(kept.count) of \(times.count) points kept")
        let points = kept.map { HapticLayers.Point(times[$0], values[$0]) }
        let worst = zip(times, values).map { abs(HapticLayers.value(of: points, at: $0) - $1) }.max() ?? 0
        #expect(worst <= 0.01 + 1e-12, "worst error \(worst)")
    }

    @Test("a budget: at most that many points, the ends included; two points or fewer are kept as they are")
    func budget() {
        let times = (0...400).map { Double($0) / 400 }
        let values = times.map { 0.5 + 0.5 * sin($0 * 20) }
        let kept = CurveSimplifier.keep(times: times, values: [values], budget: 16)
        #expect(kept.count <= 16 && kept.first == 0 && kept.last == 400)
        #expect(CurveSimplifier.keep(times: [0, 1], values: [[0, 1]], tolerance: 0) == [0, 1])
        #expect(CurveSimplifier.keep(times: [], values: [[]], tolerance: 0).isEmpty)
    }
}
