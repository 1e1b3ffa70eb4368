import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport
import Testing

/// `CHHapticPattern(dictionary:)` and the numbers of the `CoreHaptics` API under seeded
/// fuzzing (time-bounded; `scripts/fuzz.sh` runs them longer with fresh seeds), and the
/// inputs that once broke them (`Tests/FuzzCorpus/corehaptics/`), replayed on every run.
///
/// A failure is a crash or a trap (the test process dies), a hang (the time limit), an error
/// that is not a one-line ``CHHapticError``, a sample that is not a finite number reaching the
/// device, or the process's resident memory growing past ``memoryBound``.
@Suite("CoreHaptics under fuzzing", .serialized)
struct CoreHapticsFuzzTests {
    /// How much the test process may grow while a fuzzer runs. The inputs that once broke the
    /// readers took gigabytes; the fuzzers themselves need a few megabytes, and the bound
    /// leaves room for the tests that run beside them in this process.
    static let memoryBound = 768.0

    /// The process's resident memory now, in MiB (`/proc/self/statm`).
    static func residentMiB() -> Double {
        let fields = ((try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "").split(separator: " ")
        return Double(fields.count > 1 ? Int(fields[1]) ?? 0 : 0) * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    /// Numbers that probe every check: not numbers, infinite, huge, past the 3,600 s limit, at
    /// a frame count's overflow, negative, tiny, and ordinary ones.
    static let hostile: [Double] = [
        .nan, .infinity, -.infinity, 1e300, -1e300, 1.9e14, 1e15, 3_600, 3_600.001, 4e9, -1, -0.0, 0, 1e-300,
        Double(Float.greatestFiniteMagnitude), 0.5, 1, 30,
    ]

    /// The pattern keys' strings (a `CHHapticPattern.Key` is an `NSString`, not `Sendable`).
    static let keys: [String] = [
        CHHapticPattern.Key.time, .eventDuration, .parameterValue, .version, .eventParameters, .pattern, .event, .parameter,
        .parameterCurve, .parameterCurveControlPoints, .eventType, .parameterID,
    ].map(\.rawValue)

    /// Replaces leaves of a decoded dictionary with what JSON cannot hold (NaN, infinities,
    /// `NSNull`, nests deeper than the limit) or with hostile numbers.
    static func corrupt(_ value: Any, random: inout JSONMutator.SeededGenerator) -> Any {
        if let dictionary = value as? [String: Any] {
            var out: [String: Any] = [:]
            for (key, element) in dictionary { out[key] = corrupt(element, random: &random) }
            if Int.random(in: 0..<8, using: &random) == 0, let key = keys.randomElement(using: &random) {
                out[key] = leaf(random: &random)
            }
            return out
        }
        if let array = value as? [Any] { return array.map { corrupt($0, random: &random) } }
        return Int.random(in: 0..<3, using: &random) == 0 ? leaf(random: &random) : value
    }

    static func leaf(random: inout JSONMutator.SeededGenerator) -> Any {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return Float(hostile.randomElement(using: &random) ?? 0)
        case 1: return NSNumber(value: hostile.randomElement(using: &random) ?? 0)
        case 2: return NSNull()
        case 3:
            var nest: Any = 1
            for _ in 0..<Int.random(in: 60...200, using: &random) { nest = [nest] }
            return nest
        case 4: return CHHapticEvent.EventType.hapticContinuous
        default: return hostile.randomElement(using: &random) ?? 0
        }
    }

    /// One dictionary: a pattern, or a one-line ``CHHapticError``; a pattern it makes plays
    /// (a player is made) or is refused the same way.
    static func check(_ dictionary: [String: Any], engine: CHHapticEngine, label: String) -> FuzzOutcome {
        do {
            let pattern = try CHHapticPattern(dictionary: dictionary)
            let events = pattern.hapticPattern.events
            let sane = events.allSatisfy { $0.relativeTime.isFinite && $0.duration.isFinite && $0.relativeTime <= 3_600 }
            #expect(sane, "\(label): \(events)")
            do {
                _ = try engine.makePlayer(with: pattern)
            } catch let error as CHHapticError {
                #expect(!error.message.contains { $0.isNewline }, "\(label): \(error.message)")
            }
            return sane ? .loaded : .failed
        } catch let error as CHHapticError {
            return FuzzRun.refusal(error.message, .anywhere, label: label)
        } catch {
            Issue.record("\(label): not a CHHapticError: \(error)")
            return .failed
        }
    }

    static let seeds = [
        #"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8}]}}, {"Event": {"Time": 0.1, "EventType": "HapticContinuous", "EventDuration": 0.3}}, {"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0.2, "ParameterValue": 0.5}}, {"ParameterCurve": {"ParameterID": "HapticSharpnessControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 0}, {"Time": 0.3, "ParameterValue": 0.5}]}}]}"#,
        #"{"Pattern": [{"Event": {"Time": 0.05, "EventType": "AudioContinuous", "EventDuration": 0.2, "EventParameters": [{"ParameterID": "AudioVolume", "ParameterValue": 0.3}, {"ParameterID": "AudioPitch", "ParameterValue": -0.2}]}}]}"#,
    ]

    static let words = [
        "\"Time\": ", "\"EventDuration\": ", "\"ParameterValue\": ", "\"Pattern\": ", "\"Event\": ", "[", "]", "{", "}", ", ",
        "\"HapticContinuous\"", "1.9e14", "1e308",
    ]

    @Test("CHHapticPattern(dictionary:) takes damaged and hostile dictionaries without a crash, a trap or runaway memory", .timeLimit(.minutes(2)))
    func dictionaries() throws {
        let run = FuzzRun(reader: "corehaptics", defaultSeconds: 4, defaultSeed: 0xC0DE_4A9E)
        let (engine, output) = FiniteCheckOutput.engine()
        try engine.start()
        defer { engine.stop() }
        var random = JSONMutator.SeededGenerator(seed: run.seed ^ 0x5EED)
        let baseline = Self.residentMiB()
        var peak = baseline
        let (loaded, refused) = run.mutate(seeds: Self.seeds, words: Self.words) { bytes, label in
            peak = max(peak, Self.residentMiB())
            guard let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]),
                let dictionary = object as? [String: Any]
            else { return .refused }
            let hostile = Int.random(in: 0..<2, using: &random) == 0 ? Self.corrupt(dictionary, random: &random) as? [String: Any] ?? dictionary : dictionary
            return Self.check(hostile, engine: engine, label: label)
        }
        #expect(loaded > 0 && refused > 0, "the mutations both keep and break dictionaries (\(loaded) loaded, \(refused) refused)")
        #expect(peak - baseline < Self.memoryBound, "resident memory grew by \(peak - baseline) MiB")
        #expect(output.nonFinite == 0)
    }

    @Test("inputs that once broke CoreHaptics (Tests/FuzzCorpus/corehaptics) are refused with one-line errors, or play")
    func corpus() throws {
        let inputs = FuzzRun.corpus("corehaptics")
        #expect(!inputs.isEmpty, "the corpus folder is missing")
        let (engine, _) = FiniteCheckOutput.engine()
        try engine.start()
        defer { engine.stop() }
        for (name, bytes) in inputs {
            let object = try JSONSerialization.jsonObject(with: Data(bytes))
            let dictionary = try #require(object as? [String: Any], "\(name)")
            #expect(Self.check(dictionary, engine: engine, label: name) != .failed, "\(name)")
        }
    }

    @Test(
        "every number of the CoreHaptics API (times, durations, values, rates, offsets) is refused or played, never non-finite on the device",
        .timeLimit(.minutes(2)))
    func apiNumbers() throws {
        let run = FuzzRun(reader: "corehaptics-api", defaultSeconds: 4, defaultSeed: 0xA91_4E0F)
        var random = JSONMutator.SeededGenerator(seed: run.seed)
        func number() -> Double {
            Int.random(in: 0..<2, using: &random) == 0 ? (Self.hostile.randomElement(using: &random) ?? 0) : Double.random(in: 0...1.5, using: &random)
        }
        func value() -> Float { Float(number()) * (Bool.random(using: &random) ? 1 : -1) }
        /// A player time: mostly now, sometimes hostile.
        func when(_ engine: CHHapticEngine) -> TimeInterval {
            Int.random(in: 0..<3, using: &random) == 0 ? number() : CHHapticTimeImmediate
        }
        let (engine, output) = FiniteCheckOutput.engine()
        try engine.start()
        defer { engine.stop() }
        let eventIDs: [CHHapticEvent.ParameterID] = [
            .hapticIntensity, .hapticSharpness, .attackTime, .decayTime, .releaseTime, .audioVolume, .audioPitch, .audioPan,
        ]
        let controlIDs: [CHHapticDynamicParameter.ID] = [
            .hapticIntensityControl, .hapticSharpnessControl, .hapticReleaseTimeControl, .audioVolumeControl, .audioPitchControl,
        ]
        let types: [CHHapticEvent.EventType] = [.hapticTransient, .hapticContinuous, .audioContinuous]
        let baseline = Self.residentMiB()
        var peak = baseline
        var (made, refused, iteration) = (0, 0, 0)
        let deadline = run.deadline
        while ContinuousClock.now < deadline {
            iteration += 1
            peak = max(peak, Self.residentMiB())
            let label = "iteration \(iteration) (seed \(run.seed))"
            // Whether the numbers given must be refused: a time or value that is not a finite
            // number, a negative time, or one past the 3,600 s limit.
            var mustRefuse = false
            func time(_ t: Double) -> Bool { t.isFinite && t >= 0 && t <= 3_600 }
            do {
                let events = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    CHHapticEvent(
                        eventType: types.randomElement(using: &random)!,
                        parameters: (0..<Int.random(in: 0...3, using: &random)).map { _ in
                            CHHapticEventParameter(parameterID: eventIDs.randomElement(using: &random)!, value: value())
                        }, relativeTime: number(), duration: number())
                }
                for event in events {
                    mustRefuse = mustRefuse || !time(event.relativeTime) || !time(event.duration) || !time(event.relativeTime + event.duration)
                    mustRefuse = mustRefuse || event.eventParameters.contains { !$0.value.isFinite }
                }
                let pattern: CHHapticPattern
                if Bool.random(using: &random) {
                    let parameters = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                        CHHapticDynamicParameter(parameterID: controlIDs.randomElement(using: &random)!, value: value(), relativeTime: number())
                    }
                    mustRefuse = mustRefuse || parameters.contains { !time($0.relativeTime) || !$0.value.isFinite }
                    pattern = try CHHapticPattern(events: events, parameters: parameters)
                } else {
                    let curves = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                        CHHapticParameterCurve(
                            parameterID: controlIDs.randomElement(using: &random)!,
                            controlPoints: (0..<Int.random(in: 1...4, using: &random)).map { _ in .init(relativeTime: number(), value: value()) },
                            relativeTime: number())
                    }
                    mustRefuse =
                        mustRefuse
                        || curves.contains { curve in
                            !time(curve.relativeTime)
                                || curve.controlPoints.contains { !time($0.relativeTime) || !time(curve.relativeTime + $0.relativeTime) || !$0.value.isFinite }
                        }
                    pattern = try CHHapticPattern(events: events, parameterCurves: curves)
                }
                // As Apple's, the pattern is made; its player is refused.
                let player = try engine.makeAdvancedPlayer(with: pattern)
                #expect(!mustRefuse, "\(label): a player was made from numbers that cannot play")
                made += 1
                defer { try? player.cancel() }
                player.playbackRate = value()
                player.loopEnd = number()
                player.loopEnabled = Bool.random(using: &random)
                try? player.start(atTime: when(engine))
                for _ in 0..<3 {
                    // A value that is not a finite number must be refused, never sent.
                    var nonFinite = false
                    do {
                        switch Int.random(in: 0..<5, using: &random) {
                        case 0:
                            let parameter = CHHapticDynamicParameter(
                                parameterID: controlIDs.randomElement(using: &random)!, value: value(), relativeTime: number())
                            nonFinite = !parameter.value.isFinite
                            try player.sendParameters([parameter], atTime: when(engine))
                        case 1:
                            let points: [CHHapticParameterCurve.ControlPoint] = [
                                .init(relativeTime: 0, value: value()), .init(relativeTime: number(), value: value()),
                            ]
                            nonFinite = points.contains { !$0.value.isFinite }
                            try player.scheduleParameterCurve(
                                CHHapticParameterCurve(parameterID: controlIDs.randomElement(using: &random)!, controlPoints: points, relativeTime: 0),
                                atTime: when(engine))
                        case 2: try player.seek(toOffset: number())
                        case 3: try player.stop(atTime: when(engine))
                        default:
                            try player.pause(atTime: when(engine))
                            try player.resume(atTime: when(engine))
                        }
                        #expect(!nonFinite, "\(label): a value that is not a finite number was accepted")
                    } catch let error as CHHapticError {
                        #expect(!error.message.contains { $0.isNewline }, "\(label): \(error.message)")
                    }
                }
            } catch let error as CHHapticError {
                refused += 1
                #expect(!error.message.isEmpty && !error.message.contains(where: \.isNewline), "\(label): \(error.message)")
            } catch {
                Issue.record("\(label): not a CHHapticError: \(error)")
                break
            }
        }
        #expect(made > 0 && refused > 0, "the numbers both make and break patterns (\(made) made, \(refused) refused)")
        // The audio thread is still alive (no trap), and wrote only finite samples.
        try output.waitFor(frames: 4_800)
        #expect(output.nonFinite == 0, "\(output.nonFinite) samples that are not finite numbers reached the device")
        #expect(peak - baseline < Self.memoryBound, "resident memory grew by \(peak - baseline) MiB")
    }
}
