import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport
import Synchronization
import Testing

/// An app's own event type, as apps subclass Apple's classes.
private final class BumpEvent: CHHapticEvent {
    let label: String

    init(label: String, at time: TimeInterval) {
        self.label = label
        super.init(
            eventType: .hapticTransient,
            parameters: [
                CHHapticEventParameter(parameterID: .hapticIntensity, value: 0.7),
                CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.9),
            ], relativeTime: time)
    }
}

/// An app's engine subclass counting its starts, with mutable state and no annotations.
private class CountingEngine: CHHapticEngine {
    var starts = 0

    override func start() throws {
        starts += 1
        try super.start()
    }
}

/// A main-actor owner whose handlers capture `self`, as view controllers write them. The
/// handlers run on the engine's threads (as on Apple's platforms, where Swift 6 checks this at
/// run time), so they hop to the main actor before touching its state.
@MainActor
private final class Owner {
    var engine: CHHapticEngine?
    var stops: [CHHapticEngine.StoppedReason] = []

    func prepare() throws {
        engine = try CHHapticEngine()
        engine?.stoppedHandler = { reason in
            Task { @MainActor in
                self.stops.append(reason)
            }
        }
        engine?.resetHandler = { [weak self] in
            Task { @MainActor in
                try? self?.engine?.start()
            }
        }
        try engine?.start()
    }

    func playAndStop() throws {
        let pattern = try CHHapticPattern(events: [BumpEvent(label: "bump", at: 0)], parameters: [])
        let player = try engine?.makePlayer(with: pattern)
        try player?.start(atTime: CHHapticTimeImmediate)
        engine?.notifyWhenPlayersFinished { _ in .stopEngine }
    }
}

@Suite("CoreHaptics for ported code")
struct PortingTests {
    @Test("subclasses of CHHapticEvent and CHHapticEngine play, and overrides are called")
    func subclasses() throws {
        let output = FileOutput()
        let (x, starts) = try output.run { () throws -> ([Float], Int) in
            let engine = try CountingEngine()
            return try withExtendedLifetime(engine) {
                try engine.start()
                let events: [CHHapticEvent] = [BumpEvent(label: "a", at: 0), BumpEvent(label: "b", at: 0.1)]
                #expect((events[1] as? BumpEvent)?.label == "b")
                try playWithLocalPlayer(try CHHapticPattern(events: events, parameters: []), on: engine)
                return (try output.samples(seconds: engine.currentTime + 0.3), engine.starts)
            }
        }
        #expect(starts == 1)
        let onsets = Taps.onsets(x)
        try #require(onsets.count == 2, "onsets \(onsets)")
        #expect(onsets[1] - onsets[0] == 4800)
        #expect(abs(Taps.peak(x, at: onsets[0]) - 0.49) < 0.02)
    }

    @Test("a main-actor owner's handlers capture self and hop to the main actor; the stop reaches it")
    @MainActor
    func mainActorHandlers() async throws {
        let output = FileOutput()
        let owner = Owner()
        try output.run {
            try owner.prepare()
            try owner.playAndStop()
        }
        try await Wait.suspendingUntil(timeout: .seconds(5), interval: .milliseconds(10)) { !owner.stops.isEmpty }
        #expect(owner.stops == [.notifyWhenFinished])
    }

    @Test("start(completionHandler:) and stop(completionHandler:) run in order and report on a background queue")
    func completionHandlers() throws {
        let output = FileOutput()
        try output.run {
            let engine = try CHHapticEngine()
            let events = Mutex<[String]>([])
            let done = DispatchSemaphore(value: 0)
            engine.start { error in
                events.withLock { $0.append("started \(error == nil)") }
            }
            engine.stop { error in
                events.withLock { $0.append("stopped \(error == nil)") }
                done.signal()
            }
            wait(done, "the stop's completion")
            #expect(events.withLock { $0 } == ["started true", "stopped true"])
            #expect(!engine.hapticEngine.isRunning)
        }
    }

    @Test("starting on a device that cannot open throws serverInitFailed, through every start")
    func unavailableDevice() async throws {
        let selection = HapticOutputSelection(device: "hw:CARD=NoSuchCard,DEV=0")
        try await HapticOutputSelection.$override.withValue(selection) {
            let engine = try CHHapticEngine()
            expectError(.serverInitFailed) { try engine.start() }
            do {
                try await engine.start()
                Issue.record("async start did not throw")
            } catch {
                #expect((error as NSError).code == CHHapticError.Code.serverInitFailed.rawValue)
            }
            let reported = Mutex<Int?>(nil)
            let done = DispatchSemaphore(value: 0)
            engine.start { error in
                reported.withLock { $0 = error.map { ($0 as NSError).code } }
                done.signal()
            }
            wait(done, "the start's completion")
            #expect(reported.withLock { $0 } == -4810)
        }
    }

    @Test("audio resources: registered IDs make AudioCustom events; in-use and unknown IDs cannot be unregistered")
    func audioResources() throws {
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let sound = folder.file("sound.wav")
        _ = try TestWAV.write(TestWAV.sine(frequency: 440, seconds: 0.1, sampleRate: 48_000), sampleRate: 48_000, to: sound)
        let output = FileOutput()
        try output.run {
            let engine = try CHHapticEngine()
            let id = try engine.registerAudioResource(
                sound,
                options: [
                    CHHapticAudioResourceKeyLoopEnabled: true,
                    CHHapticAudioResourceKeyUseVolumeEnvelope: false,
                ])
            #expect(id != 0)
            expectError(.fileNotFound) { _ = try engine.registerAudioResource(sound.appendingPathExtension("missing")) }
            expectError(.invalidAudioResource) { _ = try engine.registerAudioResource(URL(string: "https://example.com/a.wav")!) }

            let event = CHHapticEvent(
                audioResourceID: id, parameters: [CHHapticEventParameter(parameterID: .audioVolume, value: 0.5)],
                relativeTime: 0.1, duration: 0.2)
            #expect(event.type == .audioCustom)
            let pattern = try CHHapticPattern(events: [event], parameters: [])
            expectError(.operationNotPermitted) { _ = try pattern.exportDictionary() }

            var player: (any CHHapticPatternPlayer)? = try engine.makePlayer(with: pattern)
            #expect(player != nil)
            expectError(.operationNotPermitted) { try engine.unregisterAudioResource(id) }
            player = nil
            try engine.unregisterAudioResource(id)
            expectError(.invalidAudioResource) { try engine.unregisterAudioResource(id) }
            expectError(.invalidAudioResource) { _ = try engine.makePlayer(with: pattern) }
            withExtendedLifetime(player) {}
        }
    }

    @Test("the output is chosen from HAPTICS_DEVICE, then the settings, then an actuator found, else null, with the settings' profile")
    func outputSelection() {
        let nothing = HapticOutputDiscovery(
            roots: .init(inputDirectory: "/nonexistent/input", sysfsInputDirectory: "/nonexistent/sys", soundCardDirectory: "/nonexistent/asound")
        ) { path throws(ForceFeedbackDeviceError) in try LinuxForceFeedbackDevice(path: path) }
        let settings = HapticSettings(device: "plughw:CARD=Device,DEV=0", profile: "lra")
        let fromEnvironment = HapticOutputSelection.resolve(environment: ["HAPTICS_DEVICE": "null"], settings: settings)
        #expect(fromEnvironment.device == "null" && fromEnvironment.source == .environment && fromEnvironment.profile == .lra)
        let fromSettings = HapticOutputSelection.resolve(environment: [:], settings: settings)
        #expect(fromSettings.device == "plughw:CARD=Device,DEV=0" && fromSettings.source == .settings)
        let fallback = HapticOutputSelection.resolve(environment: [:], settings: HapticSettings(), discovery: nothing)
        #expect(fallback.device == "null" && fallback.source == .systemDefault && fallback.profile == .wideband)
        #expect(!fallback.isHapticActuator && fromSettings.isHapticActuator && fromEnvironment.isHapticActuator)
        #expect(!fallback.isConfigured && fromSettings.isConfigured)
        let badProfile = HapticOutputSelection.resolve(environment: [:], settings: HapticSettings(profile: "nonesuch"), discovery: nothing)
        #expect(badProfile.profile == .wideband && badProfile.problems.count == 1)
        let file = HapticOutputSelection.resolve(environment: ["HAPTICS_DEVICE": "file:'/tmp/x.wav',wav"], settings: HapticSettings())
        #expect(file.isOutputAvailable, "a configured output counts as available without asking ALSA")
    }
}
