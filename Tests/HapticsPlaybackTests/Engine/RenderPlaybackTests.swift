import Foundation
import HapticsCore
import HapticsRender
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// `HapticRenderer` with loops and a rate renders what an advanced player with the same
/// `loopCount`, `loopEnd` and `playbackRate` plays, sample for sample.
@Suite("Rendering as a player plays")
struct RenderPlaybackTests {
    static let pattern = HapticPattern(events: [
        .transient(at: 0, intensity: 1, sharpness: 0.8),
        .continuous(at: 0.05, duration: 0.2, intensity: 0.7, sharpness: 0.3, release: 0.2),
        .transient(at: 0.12, intensity: 0.6, sharpness: 0.2),
    ])

    @Test(
        "loops, loop end and rate render exactly as the engine plays them",
        arguments: [(3, 0.0, 1.0), (2, 0.15, 1.0), (3, 0.0, 1.5), (4, 0.2, 0.75)])
    func rendersAsPlayed(count: Int, loopEnd: Double, rate: Double) throws {
        let playback = HapticRenderer.Playback(count: count, loopEnd: loopEnd, rate: rate)
        let rendered = HapticRenderer.render(Self.pattern, playback: playback).samples

        let (engine, output) = try makeManualEngine()
        let player = try engine.makeAdvancedPlayer(with: Self.pattern)
        player.loopCount = count
        player.loopEnd = loopEnd
        player.loopEnabled = true
        player.playbackRate = rate
        let start = 4800
        try player.start(atTime: Double(start) / 48_000)
        let frames = start + rendered.count + 9600
        output.advance(frames: frames)
        #expect(output.waitUntilWritten(frames: frames))
        output.release()
        engine.stop()
        let played = output.samples
        #expect(played[..<start].allSatisfy { $0 == 0 })
        let mismatch = zip(played[start...], rendered).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(mismatch == nil, "first difference at sample \(mismatch ?? -1) of \(rendered.count)")
        #expect(played[(start + rendered.count)..<frames].allSatisfy { $0 == 0 }, "the engine played past the render's end")
        // The last repetition is whole: its sound ends as far before the render's end as a
        // single play's does.
        let once = HapticRenderer.render(Self.pattern, playback: .init(count: 1, rate: rate)).samples
        let tail = { (x: [Float]) in x.count - (x.lastIndex { $0 != 0 } ?? 0) }
        #expect(tail(rendered) == tail(once))
    }
}
