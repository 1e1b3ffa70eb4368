import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport
import Synchronization
import Testing

/// A tap at the given strength and feel, as iOS code builds one.
func tapPattern(intensity: Float = 1, sharpness: Float = 0.5, at time: TimeInterval = 0) throws -> CHHapticPattern {
    let event = CHHapticEvent(
        eventType: .hapticTransient,
        parameters: [
            CHHapticEventParameter(parameterID: .hapticIntensity, value: intensity),
            CHHapticEventParameter(parameterID: .hapticSharpness, value: sharpness),
        ], relativeTime: time)
    return try CHHapticPattern(events: [event], parameters: [])
}

/// Plays a pattern with a player that only this function holds, as most iOS code does.
func playWithLocalPlayer(_ pattern: CHHapticPattern, on engine: CHHapticEngine) throws {
    let player = try engine.makePlayer(with: pattern)
    try player.start(atTime: CHHapticTimeImmediate)
}

/// Waits for a semaphore, reporting a timeout as a test failure.
func wait(_ semaphore: DispatchSemaphore, _ what: String, seconds: Double = 5) {
    #expect(semaphore.wait(timeout: .now() + seconds) == .success, "timed out waiting for \(what)")
}

@Suite("CoreHaptics engine on a file output")
struct EngineTests {
    @Test("a tap from a player held only in a local variable plays to its end, at intensity² and the sharpness' frequency")
    func localPlayerTap() throws {
        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let engine = try CHHapticEngine()
            return try withExtendedLifetime(engine) {
                try engine.start()
                try playWithLocalPlayer(try tapPattern(intensity: 0.8, sharpness: 1), on: engine)
                return try output.samples(seconds: 0.5)
            }
        }
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 1, "onsets: \(onsets)")
        #expect(abs(Taps.peak(x, at: onsets[0]) - 0.64) < 0.02)
        let frequency = Signal.frequency(x, onsets[0]..<(onsets[0] + 480), sampleRate: 48_000)
        #expect(abs(frequency - 300) < 30, "frequency \(frequency)")
    }

    @Test("the engine starts again after stop(completionHandler:), and players play again")
    func restartAfterStop() throws {
        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let engine = try CHHapticEngine()
            return try withExtendedLifetime(engine) {
                try engine.start()
                let player = try engine.makePlayer(with: try tapPattern(sharpness: 0))
                try player.start(atTime: CHHapticTimeImmediate)
                let stopped = DispatchSemaphore(value: 0)
                engine.stop { error in
                    #expect(error == nil)
                    stopped.signal()
                }
                wait(stopped, "the engine to stop")
                // Starting a player on the stopped engine fails with Apple's code…
                expectError(.engineNotRunning) { try player.start(atTime: 0) }
                // …and works again once the engine runs (the file plugin starts a new file).
                try engine.start()
                try player.start(atTime: CHHapticTimeImmediate)
                return try output.samples(seconds: 0.4)
            }
        }
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 1, "onsets: \(onsets)")
        // Sharpness 0 on the wideband profile: two cycles at 60 Hz, about 33 ms (a crisp tap
        // lasts 8 ms).
        let end = try #require(Signal.lastNonZero(Array(x[..<(onsets[0] + 4800)])))
        #expect(end - onsets[0] > 1400, "the tap lasted \(end - onsets[0]) samples")
    }

    @Test("starting a player on an engine never started throws engineNotRunning (-4805) in Core Haptics' domain")
    func engineNotRunning() throws {
        let output = FileOutput()
        try output.run {
            let engine = try CHHapticEngine()
            let player = try engine.makePlayer(with: try tapPattern())
            do {
                try player.start(atTime: CHHapticTimeImmediate)
                Issue.record("start did not throw")
            } catch CHHapticError.engineNotRunning {
                let error = CHHapticError(.engineNotRunning)
                #expect((error as NSError).code == -4805)
                #expect((error as NSError).domain == "com.apple.CoreHaptics")
                #expect(CHHapticError.errorDomain == CoreHapticsErrorDomain)
            } catch {
                Issue.record("unexpected error \(error)")
            }
            do {
                try player.start(atTime: 0)
            } catch let error as CHHapticError {
                #expect(error.code == .engineNotRunning)
                #expect(error.code.rawValue == -4805)
                #expect((error as NSError).code == -4805)
                #expect(!error.localizedDescription.isEmpty)
            }
        }
    }

    @Test("a running engine's finished handler that answers .stopEngine stops it and reports notifyWhenFinished")
    func finishedHandlerStopsEngine() throws {
        let output = FileOutput()
        try output.run {
            let engine = try CHHapticEngine()
            try withExtendedLifetime(engine) {
                let reasons = Mutex<[CHHapticEngine.StoppedReason]>([])
                let stopped = DispatchSemaphore(value: 0)
                engine.stoppedHandler = { reason in
                    reasons.withLock { $0.append(reason) }
                    stopped.signal()
                }
                try engine.start()
                try playWithLocalPlayer(try tapPattern(), on: engine)
                let finished = DispatchSemaphore(value: 0)
                engine.notifyWhenPlayersFinished { error in
                    #expect(error == nil)
                    finished.signal()
                    return .stopEngine
                }
                wait(finished, "the players to finish")
                wait(stopped, "the stopped handler")
                #expect(reasons.withLock { $0 } == [.notifyWhenFinished])
                expectError(.engineNotRunning) { try playWithLocalPlayer(try tapPattern(), on: engine) }
            }
        }
    }

    @Test("playPattern(from: Data) starts the engine and plays the AHAP data")
    func playPatternFromData() throws {
        let output = FileOutput()
        let ahap = """
            { "Version": 1.0, "Pattern": [
              { "Event": { "Time": 0.0, "EventType": "HapticTransient",
                  "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.5 } ] } },
              { "Event": { "Time": 0.1, "EventType": "HapticTransient",
                  "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 1.0 } ] } } ] }
            """
        let x = try output.run { () throws -> [Float] in
            let engine = try CHHapticEngine()
            return try withExtendedLifetime(engine) {
                try engine.playPattern(from: Data(ahap.utf8))
                return try output.samples(seconds: 0.5)
            }
        }
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 2, "onsets: \(onsets)")
        #expect(onsets[1] - onsets[0] == 4800)
        #expect(abs(Taps.peak(x, at: onsets[0]) - 0.25) < 0.02)
        #expect(abs(Taps.peak(x, at: onsets[1]) - 1) < 0.02)
    }

    @Test("malformed AHAP data and files throw Apple's codes")
    func playPatternErrors() throws {
        let output = FileOutput()
        try output.run {
            let engine = try CHHapticEngine()
            expectError(.invalidPatternData) { try engine.playPattern(from: Data("{ \"Pattern\": [ ".utf8)) }
            expectError(.fileNotFound) { try engine.playPattern(from: URL(fileURLWithPath: "/nonexistent/x.ahap")) }
            expectError(.invalidPatternData) { try engine.playPattern(from: Data("{ \"Pattern\": [] }".utf8)) }
            #expect(!engine.hapticEngine.isRunning, "a bad pattern does not start the engine")
        }
    }

    @Test("Float values flow through: sendParameters' intensity control halves a continuous vibration's intensity")
    func sendParametersScales() throws {
        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let engine = try CHHapticEngine()
            return try withExtendedLifetime(engine) {
                try engine.start()
                let intensity: Float = 1
                let event = CHHapticEvent(
                    eventType: .hapticContinuous,
                    parameters: [
                        CHHapticEventParameter(parameterID: .hapticIntensity, value: intensity),
                        CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.5),
                    ], relativeTime: 0, duration: 0.4)
                let player = try engine.makePlayer(with: try CHHapticPattern(events: [event], parameters: []))
                let start = engine.currentTime + 0.2
                try player.start(atTime: start)
                let control = CHHapticDynamicParameter(parameterID: .hapticIntensityControl, value: 0.5, relativeTime: 0)
                try player.sendParameters([control], atTime: start + 0.2)
                let x = try output.samples(seconds: start + 0.6)
                return Array(x[Int(start * 48_000)...])
            }
        }
        let before = Signal.amplitude(x, at: 0.1, frequency: 180, sampleRate: 48_000)
        let after = Signal.amplitude(x, at: 0.3, frequency: 180, sampleRate: 48_000)
        #expect(abs(before - 1) < 0.05, "before \(before)")
        // Intensity 1 × control 0.5 = 0.5, heard as 0.5² (the profile's intensity curve).
        #expect(abs(after - 0.25) < 0.03, "after \(after)")
    }

    @Test("the flags map to the native engine's")
    func flags() throws {
        let output = FileOutput()
        try output.run {
            let engine = try CHHapticEngine(audioSession: AVAudioSession.sharedInstance())
            engine.playsHapticsOnly = true
            engine.isMutedForAudio = true
            engine.isAutoShutdownEnabled = true
            #expect(engine.hapticEngine.playsHapticsOnly && engine.hapticEngine.isMutedForAudio && engine.hapticEngine.isAutoShutdownEnabled)
            engine.playsAudioOnly = true
            engine.isMutedForHaptics = true
            #expect(engine.playsAudioOnly && engine.isMutedForHaptics)
            #expect(engine.currentTime >= 0)
        }
    }

    @Test("capabilitiesForHardware reports haptics on a configured output, and parameter ranges")
    func capabilities() throws {
        let output = FileOutput(profile: .lra)
        try output.run {
            let capabilities = CHHapticEngine.capabilitiesForHardware()
            #expect(capabilities.supportsHaptics)
            let intensity = try capabilities.attributes(forEventParameter: .hapticIntensity, eventType: .hapticTransient)
            #expect(intensity.minValue == 0 && intensity.maxValue == 1 && intensity.defaultValue == 0.75)
            let sharpness = try capabilities.attributes(forEventParameter: .hapticSharpness, eventType: .hapticContinuous)
            #expect("\(sharpness)".contains("140–220 Hz"))
            let pitch = try capabilities.attributes(forEventParameter: .audioPitch, eventType: .audioContinuous)
            #expect(pitch.minValue == -1 && pitch.maxValue == 1 && pitch.defaultValue == 0)
            let control = try capabilities.attributes(forDynamicParameter: .hapticSharpnessControl)
            #expect(control.minValue == -1 && control.maxValue == 1 && control.defaultValue == 0)
            expectError(.invalidParameterType) { _ = try capabilities.attributes(forDynamicParameter: CHHapticDynamicParameter.ID(rawValue: "Bogus")) }
        }
    }

    @Test("patterns with what cannot play are made, and makePlayer refuses them with Apple's codes, as Apple's pattern converts its events then")
    func patternErrors() throws {
        let native = CHHapticEngine(hapticEngine: HapticEngine(device: "null"))
        let bogusType = CHHapticEvent(eventType: CHHapticEvent.EventType(rawValue: "HapticBogus"), parameters: [], relativeTime: 0)
        let early = CHHapticEvent(eventType: .hapticTransient, parameters: [], relativeTime: -1)
        let bogusParameter = CHHapticEvent(
            eventType: .hapticTransient,
            parameters: [
                CHHapticEventParameter(parameterID: CHHapticEvent.ParameterID("Loudness"), value: 1)
            ], relativeTime: 0)
        for (event, code) in [(bogusType, CHHapticError.Code.invalidEventType), (early, .invalidEventTime), (bogusParameter, .invalidParameterType)] {
            // Made without an error (before, init threw)…
            let pattern = try CHHapticPattern(events: [event], parameters: [])
            #expect(pattern.duration == 0)
            // …refused where Apple refuses it.
            expectError(code) { _ = try native.makePlayer(with: pattern) }
            expectError(code) { _ = try native.makeAdvancedPlayer(with: pattern) }
            expectError(code) { _ = try pattern.exportDictionary() }
        }

        let output = FileOutput()
        try output.run {
            let engine = try CHHapticEngine()
            let empty = try CHHapticPattern(events: [], parameters: [])
            #expect(empty.duration == 0)
            expectError(.invalidPatternData) { _ = try engine.makePlayer(with: empty) }
            expectError(.invalidPatternData) { _ = try engine.makeAdvancedPlayer(with: empty) }
        }
    }
}

/// Expects `body` to throw a ``CHHapticError`` with `code`.
func expectError(_ code: CHHapticError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected \(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as CHHapticError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
}
