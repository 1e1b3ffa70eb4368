import CoreHaptics
import Foundation
import HapticsTestSupport
import Testing

/// A bridge as React Native and Flutter plugins write one: players kept by the description of
/// the pattern they play.
private final class DescriptionKeyedBridge {
    let engine: CHHapticEngine
    var players: [String: any CHHapticPatternPlayer] = [:]

    init(engine: CHHapticEngine) { self.engine = engine }

    func prepare(_ pattern: CHHapticPattern) throws -> String {
        let key = String(describing: pattern)
        if players[key] == nil { players[key] = try engine.makePlayer(with: pattern) }
        return key
    }

    func play(_ key: String) throws { try players[key]?.start(atTime: CHHapticTimeImmediate) }
}

@Suite("CoreHaptics objects describe and compare themselves as NSObjects do")
struct ObjectIdentityTests {
    @Test("two patterns keyed by String(describing:) in a bridge play their own taps, not the first pattern's")
    func bridgeKeyedByDescription() throws {
        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let engine = try CHHapticEngine()
            return try withExtendedLifetime(engine) {
                try engine.start()
                let bridge = DescriptionKeyedBridge(engine: engine)
                let single = try tapPattern()
                let triple = try CHHapticPattern(
                    events: [0, 0.1, 0.2].map { CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: $0) },
                    parameters: [])
                _ = try bridge.prepare(single)
                let key = try bridge.prepare(triple)
                #expect(bridge.players.count == 2)
                try bridge.play(key)
                return try output.samples(seconds: engine.currentTime + 0.4)
            }
        }
        #expect(Taps.onsets(x).count == 3, "onsets \(Taps.onsets(x))")
    }

    @Test("every model class describes each instance apart: its class and address, in description and debugDescription")
    func descriptions() throws {
        let engine = try CHHapticEngine()
        let parameter = CHHapticEventParameter(parameterID: .hapticIntensity, value: 1)
        let event = CHHapticEvent(eventType: .hapticTransient, parameters: [parameter], relativeTime: 0)
        let dynamic = CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 1, relativeTime: 0)
        let point = CHHapticParameterCurve.ControlPoint(relativeTime: 0, value: 1)
        let curve = CHHapticParameterCurve(parameterID: .hapticIntensityControl, controlPoints: [point], relativeTime: 0)
        let pattern = try CHHapticPattern(events: [event], parameters: [dynamic])
        let player = try engine.makePlayer(with: pattern)
        let advanced = try engine.makeAdvancedPlayer(with: pattern)
        let objects: [(Any, Any)] = [
            (engine, try CHHapticEngine()), (pattern, try CHHapticPattern(events: [event], parameters: [])),
            (event, CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: 0)),
            (parameter, CHHapticEventParameter(parameterID: .hapticIntensity, value: 1)),
            (dynamic, CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 1, relativeTime: 0)),
            (curve, CHHapticParameterCurve(parameterID: .hapticIntensityControl, controlPoints: [point], relativeTime: 0)),
            (point, CHHapticParameterCurve.ControlPoint(relativeTime: 0, value: 1)),
            (player, try engine.makePlayer(with: pattern)), (advanced, try engine.makeAdvancedPlayer(with: pattern)),
        ]
        for (first, second) in objects {
            let description = String(describing: first)
            #expect(description != String(describing: second), "\(description)")
            #expect(description.hasPrefix("<") && description.contains(": 0x"), "\(description)")
            #expect("\(first)" == description)
            #expect(String(reflecting: first).contains(": 0x"), "\(String(reflecting: first))")
        }
        #expect(String(describing: pattern).hasPrefix("<CHHapticPattern: 0x"))
        #expect(pattern.description == String(describing: pattern))
        #expect(pattern.debugDescription == pattern.description)
    }

    @Test("objects are equal and hash by identity: Set<CHHapticEngine>, ==, isEqual(_:), hash")
    func identity() throws {
        let first = try CHHapticEngine()
        let second = try CHHapticEngine()
        let engines: Set<CHHapticEngine> = [first, second, first]
        #expect(engines.count == 2)
        #expect(first == first && first != second)
        #expect(first.isEqual(first) && !first.isEqual(second) && !first.isEqual(nil) && !first.isEqual("engine"))
        #expect(first.hash == first.hash && first.hash != second.hash)
        let event = CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: 0)
        let twin = CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: 0)
        #expect(event != twin, "events with equal contents are still two objects, as NSObjects are")
        #expect(Set([event, twin, event]).count == 2)
        let events: [CHHapticEvent] = [event, twin]
        #expect(events.firstIndex(of: twin) == 1)
    }

    @Test("a subclass that overrides isEqual(_:) and hash compares by value in == and sets")
    func subclassEquality() {
        final class LabelledParameter: CHHapticEventParameter {
            override func isEqual(_ object: Any?) -> Bool {
                guard let other = object as? LabelledParameter else { return false }
                return other.parameterID == parameterID && other.value == value
            }
            override var hash: Int { value.hashValue }
        }
        let a = LabelledParameter(parameterID: .hapticSharpness, value: 0.5)
        let b = LabelledParameter(parameterID: .hapticSharpness, value: 0.5)
        #expect(a == b)
        #expect(Set<CHHapticEventParameter>([a, b]).count == 1)
    }
}
