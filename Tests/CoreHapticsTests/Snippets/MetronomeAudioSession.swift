// A metronome as iOS apps write one: the audio session configured right before the engine,
// a click pattern restarted from the advanced player's completion handler for each bar.
#if canImport(AVFoundation)
import AVFoundation
#endif
import CoreHaptics
import Foundation
import HapticsTestSupport
import Synchronization
import Testing

final class Metronome {
    let engine: CHHapticEngine
    private var player: (any CHHapticAdvancedPatternPlayer)?
    private let barsLeft = Mutex(0)
    let done = DispatchSemaphore(value: 0)

    init() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playback, mode: .default, options: [.mixWithOthers])
        try session.setActive(true)
        try AVAudioSession.sharedInstance().setCategory(.ambient)
        try AVAudioSession.sharedInstance().setCategory(.playback, options: .duckOthers)
        try session.setActive(false, options: .notifyOthersOnDeactivation)
        try session.setActive(true)
        engine = try CHHapticEngine(audioSession: session)
    }

    /// Plays `bars` bars of four clicks, 0.1 s apart, the first accented.
    func play(bars: Int) throws {
        try engine.start()
        let clicks = (0..<4).map { beat in
            CHHapticEvent(
                eventType: .hapticTransient,
                parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: beat == 0 ? 1 : 0.5)],
                relativeTime: Double(beat) * 0.1, duration: 0.1)  // a transient's duration pads the bar to 0.4 s
        }
        let pattern = try CHHapticPattern(events: clicks, parameters: [])
        let player = try engine.makeAdvancedPlayer(with: pattern)
        self.player = player
        barsLeft.withLock { $0 = bars }
        player.completionHandler = { [weak self] _ in
            guard let self else { return }
            let more = self.barsLeft.withLock { left -> Bool in
                left -= 1
                return left > 0
            }
            // The next bar, restarted from the completion handler.
            if more { try? self.player?.start(atTime: CHHapticTimeImmediate) } else { self.done.signal() }
        }
        try player.start(atTime: CHHapticTimeImmediate)
    }
}

@Suite("CoreHaptics snippet: a metronome with an audio session, restarted from its completion handler")
struct MetronomeAudioSessionTests {
    @Test("the session calls compile and are remembered; three bars play twelve clicks, every fourth accented")
    func threeBars() throws {
        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let metronome = try Metronome()
            let session = AVAudioSession.sharedInstance()
            #expect(session.category == .playback && session.categoryOptions == .duckOthers && session.isActive)
            try metronome.play(bars: 3)
            wait(metronome.done, "three bars")
            return try output.samples(seconds: metronome.engine.currentTime)
        }
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 12, "onsets \(onsets)")
        for (index, onset) in onsets.enumerated() {
            let peak = Taps.peak(x, at: onset)
            if index % 4 == 0 { #expect(peak > 0.9, "click \(index): \(peak)") } else { #expect(peak < 0.3, "click \(index): \(peak)") }
        }
    }
}
