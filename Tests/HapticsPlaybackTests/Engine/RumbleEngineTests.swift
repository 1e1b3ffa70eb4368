import Foundation
import CLinuxInput
import HapticsCore
import HapticsTestSupport
import Testing
@testable import HapticsPlayback

/// A rumble engine on the recording fake device: what reaches the kernel, and that every way
/// out leaves the motors at zero.
@Suite("Rumble engine", .serialized)
struct RumbleEngineTests {
    func makeEngine(_ device: RecordingForceFeedbackDevice) -> HapticEngine {
        HapticEngine(rumble: { () throws(RumbleOutputError) -> any RumbleOutput in try EvdevRumbleOutput(device: device) })
    }

    @Test("a transient reaches the motors as a pulse, then the motors stop")
    func transientPulse() throws {
        let device = RecordingForceFeedbackDevice()
        let engine = makeEngine(device)
        try engine.start()
        let player = try engine.makePlayer(with: HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 0)]))
        try player.start()
        let id = device.firstID
        #expect(
            Wait.until(timeout: .seconds(5), interval: .milliseconds(2)) { device.calls.contains(.write(type: UInt16(EV_FF), code: UInt16(id), value: 0)) },
            "the pulse ended")
        engine.stop()
        let uploads = device.uploads
        #expect(uploads.contains { $0.id == id && $0.strong == 65535 && $0.weak == 0 }, "full strong motor: \(uploads)")
        let plays = device.calls.filter { $0 == .write(type: UInt16(EV_FF), code: UInt16(id), value: 1) }
        #expect(plays.count == 1, "played once")
        #expect(device.calls.suffix(2) == [.erase(id), .close])
    }

    @Test("levels are sent only when they change")
    func onlyChanges() throws {
        let device = RecordingForceFeedbackDevice()
        let engine = makeEngine(device)
        try engine.start()
        let player = try engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 0.3, intensity: 1, sharpness: 0.5)]))
        try player.start()
        // Kept: 200 ms of a 300 ms rumble, then a stop, is the behaviour under test.
        usleep(200_000)
        engine.stop()
        let uploads = device.uploads
        for (a, b) in zip(uploads, uploads.dropFirst()) {
            #expect(a.strong != b.strong || a.weak != b.weak, "repeated upload \(b)")
        }
        // 200 ms at 10 ms: about 20 intervals; a steady level is not re-sent every time.
        #expect(uploads.count < 12, "\(uploads.count) uploads")
    }

    @Test("SIGINT during play leaves the motors at zero and the device released")
    func interruptStopsMotors() throws {
        let device = RecordingForceFeedbackDevice()
        let engine = makeEngine(device)
        try engine.start()
        let player = try engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 20, intensity: 1, sharpness: 0.5)]))
        try player.start()
        let id = device.firstID
        #expect(
            Wait.until(timeout: .seconds(5), interval: .milliseconds(2)) { device.calls.contains(.write(type: UInt16(EV_FF), code: UInt16(id), value: 1)) },
            "motors running")
        let watcher = SignalWatcher(signals: [SIGINT])
        let handled = DispatchSemaphore(value: 0)
        watcher.onSignal {
            engine.stop()
            handled.signal()
        }
        kill(getpid(), SIGINT)
        #expect(handled.wait(timeout: .now() + 2) == .success)
        #expect(!engine.isRunning)
        let calls = device.calls
        guard let stopIndex = calls.lastIndex(of: .write(type: UInt16(EV_FF), code: UInt16(id), value: 0)) else {
            Issue.record("the motors were never stopped: \(calls)")
            return
        }
        let lastNonZero = calls.lastIndex { if case .upload(let u) = $0 { u.strong > 0 || u.weak > 0 } else { false } }
        #expect((lastNonZero ?? -1) < stopIndex, "no motor level after the stop")
        #expect(calls.suffix(2) == [.erase(id), .close])
        let count = calls.count
        // Kept: a window in which a late call would show; an absence has nothing to wait on.
        usleep(50_000)
        #expect(device.calls.count == count, "nothing reaches the device after stop")
    }

    @Test("an unplugged controller ends the engine through its stopped handler")
    func unplugged() throws {
        let device = RecordingForceFeedbackDevice()
        let engine = makeEngine(device)
        let stopped = DispatchSemaphore(value: 0)
        engine.stoppedHandler = { reason in if reason == .deviceLost { stopped.signal() } }
        try engine.start()
        device.fail(.upload, with: ENODEV)
        let player = try engine.makePlayer(with: HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 1)]))
        try player.start()
        #expect(stopped.wait(timeout: .now() + 2) == .success)
        #expect(!engine.isRunning)
        #expect(device.isClosed)
    }
}
