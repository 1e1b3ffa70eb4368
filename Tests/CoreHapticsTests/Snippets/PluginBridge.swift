// In the style of game-engine plugins (Unity's, Flutter's, React Native's) that drive Core
// Haptics from another language: C entry points hand the engine across as an opaque pointer
// (`Unmanaged`), patterns arrive as AHAP JSON text that becomes a `[CHHapticPattern.Key: Any]`
// dictionary through `JSONSerialization`, and errors go back as Core Haptics' error codes,
// read with `(error as NSError).code`. (Not `catch let error as NSError`: Swift on Linux does
// not bridge thrown Swift errors to NSError in catch patterns; see the README.)
import CoreHaptics
import HapticsTestSupport
import Testing

@_cdecl("TestPlugin_CHHapticEngine_Create")
private func TestPlugin_CHHapticEngine_Create() -> UnsafeMutableRawPointer? {
    do {
        let engine = try CHHapticEngine()
        engine.playsHapticsOnly = true
        engine.isAutoShutdownEnabled = false
        return Unmanaged.passRetained(engine).toOpaque()
    } catch {
        return nil
    }
}

@_cdecl("TestPlugin_CHHapticEngine_Start")
private func TestPlugin_CHHapticEngine_Start(_ enginePtr: UnsafeRawPointer) -> Int {
    let engine = Unmanaged<CHHapticEngine>.fromOpaque(enginePtr).takeUnretainedValue()
    do {
        try engine.start()
        return 0
    } catch {
        return (error as NSError).code
    }
}

@_cdecl("TestPlugin_CHHapticEngine_PlayPatternJSON")
private func TestPlugin_CHHapticEngine_PlayPatternJSON(_ enginePtr: UnsafeRawPointer, _ json: UnsafePointer<CChar>) -> Int {
    let engine = Unmanaged<CHHapticEngine>.fromOpaque(enginePtr).takeUnretainedValue()
    do {
        let data = String(cString: json).data(using: .utf8)!
        let dict = try JSONSerialization.jsonObject(with: data, options: []) as! [CHHapticPattern.Key: Any]
        let pattern = try CHHapticPattern(dictionary: dict)
        let player = try engine.makePlayer(with: pattern)
        try player.start(atTime: CHHapticTimeImmediate)
        return 0
    } catch {
        return (error as NSError).code
    }
}

@_cdecl("TestPlugin_CHHapticEngine_Destroy")
private func TestPlugin_CHHapticEngine_Destroy(_ enginePtr: UnsafeRawPointer) {
    Unmanaged<CHHapticEngine>.fromOpaque(enginePtr).release()
}

@Suite("CoreHaptics snippet: a plugin bridge")
struct PluginBridgeTests {
    @Test("C entry points create, start, play JSON patterns on and destroy an engine; errors come back as codes")
    func bridge() throws {
        let output = FileOutput()
        let (x, badCode, emptyCode) = try output.run { () throws -> ([Float], Int, Int) in
            let engine = try #require(TestPlugin_CHHapticEngine_Create())
            defer { TestPlugin_CHHapticEngine_Destroy(engine) }
            #expect(TestPlugin_CHHapticEngine_Start(engine) == 0)
            let json = #"{"Pattern":[{"Event":{"EventType":"HapticTransient","Time":0.0,"EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":0.9}]}},{"Event":{"EventType":"HapticTransient","Time":0.05,"EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":0.9}]}}]}"#
            #expect(TestPlugin_CHHapticEngine_PlayPatternJSON(engine, json) == 0)
            let bad = TestPlugin_CHHapticEngine_PlayPatternJSON(engine, #"{"Pattern":[{"Event":{"EventType":"HapticBoom","Time":0}}]}"#)
            let empty = TestPlugin_CHHapticEngine_PlayPatternJSON(engine, #"{"Pattern":[]}"#)
            return (try output.samples(seconds: 0.3), bad, empty)
        }
        #expect(badCode == CHHapticError.Code.invalidEventType.rawValue)
        #expect(emptyCode == CHHapticError.Code.invalidPatternDictionary.rawValue, "Apple's reader: -4814, empty pattern")
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 2, "onsets \(onsets)")
        #expect(onsets[1] - onsets[0] == 2400)
    }

    @Test("Unmanaged.autorelease() keeps the object until the run loop turns, then releases it")
    func autorelease() {
        final class Probe {}
        weak var weakProbe: Probe?
        let pointer: UnsafeMutableRawPointer = {
            let probe = Probe()
            weakProbe = probe
            return Unmanaged.passRetained(probe).autorelease().toOpaque()
        }()
        #expect(weakProbe != nil, "alive right after autorelease")
        #expect(Unmanaged<Probe>.fromOpaque(pointer).takeUnretainedValue() === weakProbe)
        RunLoop.current.run(until: Date().addingTimeInterval(0.05))
        #expect(weakProbe == nil, "released when the run loop ran")
    }
}
