import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport
import Synchronization
import Testing

/// An unpaced output that keeps no samples, only what matters here: how many were written and
/// how many were not finite numbers (which must never reach a device).
final class FiniteCheckOutput: AudioOutput, @unchecked Sendable {
    let sampleRate = 48_000
    let channelCount = 1
    let periodFrames = 480
    let bufferFrames = 960
    private let counts = Mutex((frames: 0, nonFinite: 0, loudest: Float(0)))

    func write(_ samples: UnsafeBufferPointer<Float>) throws(AudioOutputError) {
        var nonFinite = 0
        var loudest: Float = 0
        for x in samples {
            if !x.isFinite { nonFinite += 1 } else { loudest = max(loudest, abs(x)) }
        }
        counts.withLock {
            $0.frames += samples.count
            $0.nonFinite += nonFinite
            $0.loudest = max($0.loudest, loudest)
        }
    }

    func pendingFrames() -> Int { 0 }
    func queuedFrames() -> Int { 0 }
    func drain() {}
    func stop() {}
    func close() {}

    var frames: Int { counts.withLock { $0.frames } }
    var nonFinite: Int { counts.withLock { $0.nonFinite } }
    var loudest: Float { counts.withLock { $0.loudest } }

    /// A Core Haptics engine playing into a new output of this kind.
    static func engine() -> (engine: CHHapticEngine, output: FiniteCheckOutput) {
        let output = FiniteCheckOutput()
        let native = HapticEngine(configuration: .init(device: "finite-check", profile: .wideband)) { _, _, _ in output }
        return (CHHapticEngine(hapticEngine: native), output)
    }

    /// Waits until at least `frames` more frames than now were written.
    func waitFor(frames more: Int) throws {
        let target = frames + more
        try Wait.require("\(more) frames written", timeout: .seconds(20), interval: .milliseconds(5)) { self.frames >= target }
    }
}

/// Issue #24, items 4 and 5: numbers Core Haptics code passes in (times, durations, values)
/// that are not finite, or so large that converting them to frames overflows, are refused at
/// the API with Apple's codes, and nothing that is not a finite number ever reaches a device.
@Suite("CoreHaptics numeric inputs")
struct NumericInputTests {
    static let special: [Double] = [.nan, .infinity, -.infinity]

    func tap(at time: TimeInterval = 0, intensity: Float = 1) -> CHHapticEvent {
        CHHapticEvent(
            eventType: .hapticTransient, parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: intensity)],
            relativeTime: time)
    }

    func buzz(at time: TimeInterval = 0, duration: TimeInterval = 0.5) -> CHHapticEvent {
        CHHapticEvent(eventType: .hapticContinuous, parameters: [], relativeTime: time, duration: duration)
    }

    /// A player for the pattern made by `make`, where Core Haptics reports what cannot play
    /// (the pattern itself is made without an error, as Apple's).
    func player(_ make: @autoclosure () throws -> CHHapticPattern) throws -> any CHHapticPatternPlayer {
        let pattern = try make()
        return try CHHapticEngine(hapticEngine: HapticEngine(device: "null")).makePlayer(with: pattern)
    }

    func code(_ body: () throws -> Void) -> CHHapticError.Code? {
        do {
            try body()
            return nil
        } catch let error as CHHapticError {
            return error.code
        } catch {
            Issue.record("not a CHHapticError: \(error)")
            return nil
        }
    }

    @Test("an event time past the 3,600 s limit, or huge enough to overflow a frame count, is invalidEventTime")
    func hugeEventTime() {
        for time in [3_600.5, 1.9e14, 1e300] + Self.special {
            #expect(code { _ = try player(CHHapticPattern(events: [tap(at: time)], parameters: [])) } == .invalidEventTime, "\(time)")
            #expect(code { _ = try player(CHHapticPattern(events: [tap(at: time)], parameterCurves: [])) } == .invalidEventTime, "\(time)")
        }
        #expect(code { _ = try player(CHHapticPattern(events: [tap(at: 3_600)], parameters: [])) } == nil, "the limit itself is allowed")
    }

    @Test("a duration that takes an event past 3,600 s is invalidEventDuration")
    func hugeDuration() {
        for duration in [3_601, 1.9e14, 1e300] + Self.special {
            #expect(code { _ = try player(CHHapticPattern(events: [buzz(duration: duration)], parameters: [])) } == .invalidEventDuration, "\(duration)")
        }
        #expect(code { _ = try player(CHHapticPattern(events: [buzz(at: 3_000, duration: 601)], parameters: [])) } == .invalidEventDuration)
    }

    @Test("a parameter or curve with a huge or non-finite time or value is badParameterEntry")
    func parameterEntries() {
        for bad in [1e15, 3_601] + Self.special {
            let parameter = CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 0.5, relativeTime: bad)
            #expect(code { _ = try player(CHHapticPattern(events: [tap()], parameters: [parameter])) } == .badParameterEntry, "time \(bad)")
            let late = CHHapticParameterCurve(
                parameterID: .hapticIntensityControl, controlPoints: [.init(relativeTime: 0, value: 1)], relativeTime: bad)
            #expect(code { _ = try player(CHHapticPattern(events: [tap()], parameterCurves: [late])) } == .badParameterEntry, "curve time \(bad)")
            let point = CHHapticParameterCurve(
                parameterID: .hapticIntensityControl, controlPoints: [.init(relativeTime: 0, value: 1), .init(relativeTime: bad, value: 0)],
                relativeTime: 0)
            #expect(code { _ = try player(CHHapticPattern(events: [tap()], parameterCurves: [point])) } == .badParameterEntry, "point time \(bad)")
        }
        for value in [Float.nan, .infinity, -.infinity] {
            let parameter = CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: value, relativeTime: 0)
            #expect(code { _ = try player(CHHapticPattern(events: [tap()], parameters: [parameter])) } == .badParameterEntry, "value \(value)")
            let curve = CHHapticParameterCurve(
                parameterID: .hapticSharpnessControl, controlPoints: [.init(relativeTime: 0, value: value)], relativeTime: 0)
            #expect(code { _ = try player(CHHapticPattern(events: [tap()], parameterCurves: [curve])) } == .badParameterEntry, "point value \(value)")
        }
    }

    @Test("an event parameter that is not a finite number is badEventEntry")
    func eventParameterValues() {
        for value in [Float.nan, .infinity, -.infinity] {
            #expect(code { _ = try player(CHHapticPattern(events: [tap(intensity: value)], parameters: [])) } == .badEventEntry, "\(value)")
        }
        // Finite values out of range are clamped when played, as Core Haptics does.
        #expect(code { _ = try player(CHHapticPattern(events: [tap(intensity: 1e30)], parameters: [])) } == nil)
    }

    @Test("a native pattern with an event at 1.9e14 s is refused by makePlayer instead of trapping the audio thread")
    func hugeNativePattern() throws {
        let (engine, _) = FiniteCheckOutput.engine()
        try engine.start()
        defer { engine.stop() }
        let native = HapticPattern(events: [.transient(at: 1.9e14, intensity: 1, sharpness: 0.5)])
        #expect(code { _ = try engine.makePlayer(with: CHHapticPattern(hapticPattern: native)) } == .invalidPatternData)
        #expect(code { _ = try engine.makeAdvancedPlayer(with: CHHapticPattern(hapticPattern: native)) } == .invalidPatternData)
        let nan = HapticPattern(events: [.transient(at: 0, intensity: .nan, sharpness: 0.5)])
        #expect(code { _ = try engine.makePlayer(with: CHHapticPattern(hapticPattern: nan)) } == .invalidPatternData)
    }

    @Test("sendParameters and scheduleParameterCurve refuse values and times that are not finite numbers; nothing is sent")
    func playerRefusesNonFinite() throws {
        let (engine, output) = FiniteCheckOutput.engine()
        try engine.start()
        defer { engine.stop() }
        let player = try engine.makeAdvancedPlayer(with: CHHapticPattern(events: [buzz(duration: 2)], parameters: []))
        try player.start(atTime: CHHapticTimeImmediate)
        for value in [Float.nan, .infinity, -.infinity] {
            let parameter = CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: value, relativeTime: 0)
            #expect(code { try player.sendParameters([parameter], atTime: CHHapticTimeImmediate) } == .badParameterEntry, "\(value)")
            let curve = CHHapticParameterCurve(
                parameterID: .hapticSharpnessControl, controlPoints: [.init(relativeTime: 0, value: 0), .init(relativeTime: 0.1, value: value)],
                relativeTime: 0)
            #expect(code { try player.scheduleParameterCurve(curve, atTime: CHHapticTimeImmediate) } == .badParameterEntry, "\(value)")
        }
        for time in Self.special + [1e300] {
            let parameter = CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 0.5, relativeTime: 0)
            #expect(code { try player.sendParameters([parameter], atTime: time) } == .invalidTime, "atTime \(time)")
            let late = CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 0.5, relativeTime: time)
            #expect(code { try player.sendParameters([late], atTime: 0) } == .invalidTime, "relativeTime \(time)")
            if !time.isFinite { #expect(code { try player.seek(toOffset: time) } == .invalidTime, "seek \(time)") }
            #expect(code { try player.start(atTime: time) } == .invalidTime, "start \(time)")
        }
        try output.waitFor(frames: 4_800)
        #expect(output.nonFinite == 0)
        #expect(output.loudest > 0.1, "the buzz still plays: peak \(output.loudest)")
    }

    @Test("the native API refuses non-finite controls, and nothing non-finite reaches the device")
    func outputStageGuard() throws {
        // Refused where they enter, by the native engine too (the output stage's own guard is
        // tested on its own in OutputStageTests).
        let output = FiniteCheckOutput()
        let engine = HapticEngine(configuration: .init(device: "finite-check", profile: .wideband)) { _, _, _ in output }
        try engine.start()
        defer { engine.stop() }
        let player = try engine.makeAdvancedPlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 1, intensity: 1, sharpness: 0.5)]))
        try player.start()
        for value in Self.special {
            let send = {
                try player.sendParameters([HapticDynamicParameter(.hapticIntensityControl, value)])
                try player.sendParameters([HapticDynamicParameter(.hapticSharpnessControl, value)])
                try player.scheduleParameterCurve(HapticParameterCurve(.hapticSharpnessControl, at: 0, points: [(0, 0), (0.05, value)]))
            }
            if value.isFinite {
                try send()
            } else {
                #expect(throws: HapticError.self, "\(value)") { try send() }
            }
            try output.waitFor(frames: 2_400)
        }
        #expect(output.nonFinite == 0, "\(output.nonFinite) samples that are not finite numbers reached the device")
    }
}

/// Issue #24, item 6: nesting is measured before anything walks the structure.
@Suite("CoreHaptics dictionary nesting")
struct DictionaryNestingTests {
    /// `depth` levels of arrays (or dictionaries) around a number.
    static func nested(_ depth: Int, dictionaries: Bool) -> Any {
        var value: Any = 1
        for _ in 0..<depth { value = dictionaries ? ["Pattern": value] as [String: Any] : [value] as [Any] }
        return value
    }

    @Test("10,000 levels of nesting are refused with invalidPatternDictionary, not a stack overflow", arguments: [false, true])
    func deepNesting(dictionaries: Bool) throws {
        let deep = Self.nested(10_000, dictionaries: dictionaries)
        do {
            _ = try CHHapticPattern(dictionary: [.pattern: deep])
            Issue.record("accepted")
        } catch let error as CHHapticError {
            #expect(error.code == .invalidPatternDictionary)
            #expect(error.message.contains("64 levels"), "\(error.message)")
        }
        Self.release(deep)
    }

    /// Takes a nest apart level by level: releasing 10,000 levels at once recurses as deep.
    static func release(_ value: Any) {
        var current: Any? = value
        while let level = current {
            current = (level as? [Any])?.first ?? (level as? [String: Any])?["Pattern"]
        }
    }
}
