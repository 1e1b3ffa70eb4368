import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport
import Testing

/// Shapes of Core Haptics use that public apps and game-engine plugins rely on (found by
/// building such code against this module), written here from Apple's documented API.
@Suite("CoreHaptics usage seen in real apps")
struct RealWorldShapesTests {
    @Test("AHAP JSON read with .mutableContainers, cast from NSMutableDictionary to [CHHapticPattern.Key: Any], plays with its curve")
    func mutableContainersDictionary() throws {
        // Plugins hand AHAP text over a C boundary and parse it with Foundation's object graph:
        // the nested values are then NSMutableArray / NSMutableDictionary / NSNumber.
        let ahap = #"""
            {"Version": 1, "Pattern": [
              {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.4,
                         "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}]}},
              {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0,
                                  "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 1},
                                                                  {"Time": 0.3, "ParameterValue": 0.2}]}}]}
            """#
        let object = try JSONSerialization.jsonObject(with: Data(ahap.utf8), options: .mutableContainers)
        let mutable = try #require(object as? NSMutableDictionary)
        let dictionary = try #require(mutable as? [CHHapticPattern.Key: Any])
        let pattern = try CHHapticPattern(dictionary: dictionary)
        #expect(pattern.hapticPattern.events.count == 1)
        #expect(pattern.hapticPattern.curves.first?.controlPoints.map(\.value) == [1, 0.2])

        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let engine = try CHHapticEngine()
            return try withExtendedLifetime(engine) {
                try engine.start()
                try engine.makePlayer(with: pattern).start(atTime: CHHapticTimeImmediate)
                return try output.samples(seconds: 0.5)
            }
        }
        let onset = try #require(Taps.onsets(x).first)
        let early = Signal.peak(x, onset..<(onset + 2400))
        let late = Signal.peak(x, (onset + 14_400)..<(onset + 16_800))
        #expect(early > 0.5, "the event starts at full intensity: \(early)")
        #expect(late > 0, "the event still sounds at 0.3 s")
        #expect(late < early * 0.6, "the intensity curve brings it down: \(early) → \(late)")
    }

    @Test("notifyWhenPlayersFinished returning .leaveEngineRunning keeps the engine running for the next player")
    func leaveEngineRunning() throws {
        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let engine = try CHHapticEngine()
            return try withExtendedLifetime(engine) {
                let stoppedForFinish = Locked(false)
                engine.stoppedHandler = { reason in
                    if reason == .notifyWhenFinished { stoppedForFinish.value = true }
                }
                try engine.start()
                let finished = DispatchSemaphore(value: 0)
                engine.notifyWhenPlayersFinished { error in
                    #expect(error == nil)
                    finished.signal()
                    return .leaveEngineRunning
                }
                try engine.makePlayer(with: try tapPattern()).start(atTime: CHHapticTimeImmediate)
                wait(finished, "the players to finish")
                // Kept: the app's pause between two taps, with the engine idle, is the scenario.
                Thread.sleep(forTimeInterval: 0.05)
                // No start(): the engine is still running.
                try engine.makePlayer(with: try tapPattern(intensity: 0.5)).start(atTime: CHHapticTimeImmediate)
                // Kept: a window in which a wrong .notifyWhenFinished stop would show; an absence
                // has nothing to wait on.
                Thread.sleep(forTimeInterval: 0.2)
                #expect(!stoppedForFinish.value)
                return try output.samples(seconds: 0.1)
            }
        }
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 2, "onsets: \(onsets)")
        #expect(Taps.peak(x, at: onsets[1]) < Taps.peak(x, at: onsets[0]))
    }

    @Test("a plugin passes a player over C as Unmanaged<AnyObject> and casts it back to any CHHapticPatternPlayer")
    func playerThroughOpaquePointer() throws {
        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let engine = try CHHapticEngine()
            return try withExtendedLifetime(engine) {
                try engine.start()
                // Apple's plugins write Unmanaged<CHHapticPatternPlayer>, which needs an
                // Objective-C protocol; AnyObject works on both platforms.
                let handle = Unmanaged<AnyObject>.passRetained(try engine.makePlayer(with: try tapPattern())).toOpaque()
                let player = Unmanaged<AnyObject>.fromOpaque(handle).takeUnretainedValue() as! any CHHapticPatternPlayer
                try player.start(atTime: CHHapticTimeImmediate)
                let samples = try output.samples(seconds: 0.3)
                Unmanaged<AnyObject>.fromOpaque(handle).release()
                return samples
            }
        }
        #expect(Taps.onsets(x).count == 1)
    }
}

/// A value shared with handlers that run on the engine's threads.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
