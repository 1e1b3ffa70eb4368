import Foundation
import HapticsCore
import Testing
@testable import HapticsPlayback

/// Engines on devices that take samples as fast as they come (`null`, `file:`).
@Suite("Engine on unpaced devices")
struct UnpacedIdleTests {
    @Test("an idle engine on the null device keeps its clock near the wall clock")
    func idleClockFollowsWallClock() throws {
        let engine = HapticEngine(device: "null")
        try engine.start()
        defer { engine.stop() }
        let started = Date()
        // Kept: half a second of idling is the behaviour under test.
        Thread.sleep(forTimeInterval: 0.5)
        let wall = Date().timeIntervalSince(started)
        // At most 100 ms ahead (plus a block and a sleep); it ran about 5× real time before.
        #expect(engine.currentTime < wall + 0.2, "clock \(engine.currentTime) s after \(wall) s")
    }
}
