import CLinuxInput
import Foundation
import Glibc
import Synchronization
import HapticsPlayback
import Testing

@Suite("Evdev rumble output")
struct EvdevRumbleOutputTests {
    typealias Call = RecordingForceFeedbackDevice.Call

    @Test("init reads the capabilities, sets the gain, then uploads one infinite rumble effect with id -1 and zero levels")
    func initSequence() throws {
        let device = RecordingForceFeedbackDevice(firstID: 3)
        let output = try EvdevRumbleOutput(device: device, gain: 1)
        #expect(
            device.calls == [
                .supportedEffects,
                Expected.gain(0xFFFF),
                Expected.rumble(id: -1, strong: 0, weak: 0),
            ])
        #expect(output.effectID == 3)
        #expect(output.effectKind == .rumble)
        #expect(output.deviceGain == 0xFFFF)
        #expect(!output.isPlaying)
        #expect(!device.isClosed)
    }

    @Test("a series of levels: the first non-zero level uploads under the assigned id and plays once, later ones only upload, zeros stop")
    func levelSeries() throws {
        let device = RecordingForceFeedbackDevice(firstID: 5)
        let output = try EvdevRumbleOutput(device: device)
        let afterInit = device.calls.count

        try output.setMotors(strong: 0x8000, weak: 0x1000)
        try output.setMotors(strong: 0xFFFF, weak: 0)
        try output.setMotors(strong: 0x0001, weak: 0xFFFF)
        try output.setMotors(strong: 0, weak: 0)
        try output.setMotors(strong: 0, weak: 0x2000)

        #expect(
            Array(device.calls[afterInit...]) == [
                Expected.rumble(id: 5, strong: 0x8000, weak: 0x1000),
                Expected.play(5),
                Expected.rumble(id: 5, strong: 0xFFFF, weak: 0),
                Expected.rumble(id: 5, strong: 0x0001, weak: 0xFFFF),
                Expected.stop(5),
                Expected.rumble(id: 5, strong: 0, weak: 0x2000),
                Expected.play(5),
            ])
        #expect(output.isPlaying)
    }

    @Test("zero levels while idle and repeated levels send nothing")
    func redundantLevels() throws {
        let device = RecordingForceFeedbackDevice()
        let output = try EvdevRumbleOutput(device: device)
        let afterInit = device.calls.count
        try output.setMotors(strong: 0, weak: 0)
        #expect(device.calls.count == afterInit)
        try output.setMotors(strong: 100, weak: 200)
        let afterFirst = device.calls.count
        try output.setMotors(strong: 100, weak: 200)
        #expect(device.calls.count == afterFirst)
    }

    @Test("stop() while playing uploads zeros, writes stop, erases and closes; a second stop() does nothing")
    func stopWhilePlaying() throws {
        let device = RecordingForceFeedbackDevice(firstID: 2)
        let output = try EvdevRumbleOutput(device: device)
        try output.setMotors(strong: 0x4000, weak: 0x4000)
        let beforeStop = device.calls.count

        output.stop()
        let afterStop = Array(device.calls[beforeStop...])
        #expect(
            afterStop == [
                Expected.rumble(id: 2, strong: 0, weak: 0),
                Expected.stop(2),
                .erase(2),
                .close,
            ])
        #expect(!output.isPlaying)

        output.stop()
        #expect(device.calls.count == beforeStop + afterStop.count)
    }

    @Test("stop() puts a gain it lowered back to full scale, after erasing and before closing")
    func stopRestoresGain() throws {
        let device = RecordingForceFeedbackDevice(firstID: 1)
        let output = try EvdevRumbleOutput(device: device, gain: 0.25)
        #expect(device.calls.contains(Expected.gain(0x4000)))
        try output.setMotors(strong: 0xFFFF, weak: 0)
        // The gain is the device's job: the levels go out unscaled.
        #expect(device.uploads.last == .init(type: Int32(FF_RUMBLE), id: 1, replayLength: 0, strong: 0xFFFF, weak: 0))
        let beforeStop = device.calls.count
        output.stop()
        #expect(
            Array(device.calls[beforeStop...]) == [
                Expected.rumble(id: 1, strong: 0, weak: 0), Expected.stop(1), .erase(1), Expected.gain(0xFFFF), .close,
            ])
    }

    @Test("stop() while idle erases and closes without playing anything")
    func stopWhileIdle() throws {
        let device = RecordingForceFeedbackDevice(firstID: 4)
        let output = try EvdevRumbleOutput(device: device)
        try output.setMotors(strong: 9, weak: 9)
        try output.setMotors(strong: 0, weak: 0)
        let beforeStop = device.calls.count
        output.stop()
        #expect(Array(device.calls[beforeStop...]) == [.erase(4), .close])
    }

    @Test("setMotors after stop() leaves the closed device alone")
    func setMotorsAfterStop() throws {
        let device = RecordingForceFeedbackDevice()
        let output = try EvdevRumbleOutput(device: device)
        output.stop()
        let afterStop = device.calls.count
        try output.setMotors(strong: 0xFFFF, weak: 0xFFFF)
        #expect(device.calls.count == afterStop)
    }

    @Test("releasing the output stops it")
    func deinitStops() throws {
        let device = RecordingForceFeedbackDevice(firstID: 6)
        do {
            let output = try EvdevRumbleOutput(device: device)
            try output.setMotors(strong: 1, weak: 2)
        }
        #expect(device.calls.suffix(4) == [Expected.rumble(id: 6, strong: 0, weak: 0), Expected.stop(6), .erase(6), .close])
    }

    @Test("ENODEV on an upload while playing is deviceLost naming the device")
    func unpluggedDuringUpload() throws {
        let device = RecordingForceFeedbackDevice(path: "/dev/input/event12")
        let output = try EvdevRumbleOutput(device: device)
        try output.setMotors(strong: 10, weak: 10)
        device.fail(.upload, with: ENODEV)
        let error = #expect(throws: RumbleOutputError.self) { try output.setMotors(strong: 20, weak: 20) }
        #expect(error == .deviceLost(device: "/dev/input/event12", reason: "the device was disconnected"))
        #expect(error?.description.contains("/dev/input/event12") == true)
        // stop() still completes on a lost device: it ignores failures and closes.
        output.stop()
        #expect(device.calls.last == .close)
    }

    @Test("EIO on the play write is deviceLost")
    func ioErrorOnPlay() throws {
        let device = RecordingForceFeedbackDevice()
        let output = try EvdevRumbleOutput(device: device)
        device.fail(.write, with: EIO)
        let error = #expect(throws: RumbleOutputError.self) { try output.setMotors(strong: 1, weak: 0) }
        guard case .deviceLost(let path, let reason) = error else {
            Issue.record("expected deviceLost, got \(String(describing: error))")
            return
        }
        #expect(path == device.path)
        #expect(reason.contains("input/output error"))
    }

    @Test("a device with periodic effects but no rumble gets a periodic sine whose magnitude follows the stronger motor")
    func periodicFallback() throws {
        let capabilities = ForceFeedbackCapabilities(
            codes: [FF_PERIODIC, FF_SINE, FF_SQUARE, FF_CONSTANT].map { Int32($0) }, simultaneousEffects: 8)
        let device = RecordingForceFeedbackDevice(capabilities: capabilities, firstID: 0)
        let output = try EvdevRumbleOutput(device: device)
        #expect(output.effectKind == .periodic(waveform: UInt16(FF_SINE)))
        #expect(output.deviceGain == nil)
        try output.setMotors(strong: 0x2000, weak: 0xFFFF)
        try output.setMotors(strong: 0x9000, weak: 0x0100)

        let uploads = device.uploads
        #expect(uploads.count == 3)
        for upload in uploads {
            #expect(upload.type == FF_PERIODIC)
            #expect(upload.waveform == FF_SINE)
            #expect(upload.period == RumbleEffectKind.periodicPeriod)
            #expect(upload.replayLength == 0)
        }
        #expect(uploads.map(\.id) == [-1, 0, 0])
        #expect(uploads.map(\.periodicMagnitude) == [0, 0x7FFF, 0x4800])
        #expect(device.calls.filter { $0 == Expected.play(0) }.count == 1)
    }

    @Test("the periodic fallback uses another waveform when the device has no sine")
    func periodicWithoutSine() throws {
        let capabilities = ForceFeedbackCapabilities(codes: [FF_PERIODIC, FF_SQUARE].map { Int32($0) }, simultaneousEffects: 1)
        let output = try EvdevRumbleOutput(device: RecordingForceFeedbackDevice(capabilities: capabilities))
        #expect(output.effectKind == .periodic(waveform: UInt16(FF_SQUARE)))
    }

    @Test("without FF_GAIN the gain scales the levels instead, and no gain event is written")
    func softwareGain() throws {
        let capabilities = ForceFeedbackCapabilities(codes: [Int32(FF_RUMBLE)], simultaneousEffects: 1)
        let device = RecordingForceFeedbackDevice(capabilities: capabilities, firstID: 1)
        let output = try EvdevRumbleOutput(device: device, gain: 0.5)
        try output.setMotors(strong: 0x8000, weak: 0xFFFF)
        #expect(!device.calls.contains { if case .write(_, UInt16(FF_GAIN), _) = $0 { true } else { false } })
        #expect(device.uploads.last == .init(type: Int32(FF_RUMBLE), id: 1, replayLength: 0, strong: 0x4000, weak: 0x7FFF))
    }

    @Test(
        "gain maps 0…1 to FF_GAIN 0…0xFFFF, clamped, NaN as 0",
        arguments: [
            (0.5, 0x8000), (0.0, 0), (1.0, 0xFFFF), (2.0, 0xFFFF), (-1.0, 0), (Double.nan, 0),
        ] as [(Double, Int32)])
    func gainValues(gain: Double, expected: Int32) throws {
        let device = RecordingForceFeedbackDevice()
        _ = try EvdevRumbleOutput(device: device, gain: gain)
        #expect(device.calls.contains(Expected.gain(expected)))
    }

    @Test("a device without force feedback is unavailable and gets closed")
    func noForceFeedback() {
        let device = RecordingForceFeedbackDevice(capabilities: ForceFeedbackCapabilities(bits: 0, simultaneousEffects: 0))
        let error = #expect(throws: RumbleOutputError.self) { try EvdevRumbleOutput(device: device) }
        #expect(error == .deviceUnavailable(device: device.path, reason: "does not support force feedback"))
        #expect(device.isClosed)
        #expect(device.uploads.isEmpty)
    }

    @Test("a device with force feedback but neither rumble nor periodic effects is unavailable")
    func wheelWithoutRumble() {
        let capabilities = ForceFeedbackCapabilities(
            codes: [FF_CONSTANT, FF_SPRING, FF_AUTOCENTER].map { Int32($0) }, simultaneousEffects: 4)
        let device = RecordingForceFeedbackDevice(capabilities: capabilities)
        let error = #expect(throws: RumbleOutputError.self) { try EvdevRumbleOutput(device: device) }
        #expect(error?.reason.contains("neither rumble nor periodic") == true)
        #expect(device.isClosed)
    }

    @Test("no free effect slot at init is deviceUnavailable, and the device is closed")
    func noFreeSlot() {
        let device = RecordingForceFeedbackDevice()
        device.fail(.upload, with: ENOSPC)
        let error = #expect(throws: RumbleOutputError.self) { try EvdevRumbleOutput(device: device) }
        #expect(error?.reason.contains("no free force-feedback effect slot") == true)
        #expect(device.isClosed)
    }

    @Test("stop() from another thread while the control thread keeps setting levels: no device call after close, motors stopped")
    func stopRacesSetMotors() throws {
        let device = RecordingForceFeedbackDevice(firstID: 9)
        let output = try EvdevRumbleOutput(device: device)
        let failures = Mutex<[RumbleOutputError]>([])
        let finished = DispatchSemaphore(value: 0)
        let control = Thread {
            var level: UInt16 = 1
            // Runs until stop() has happened and some more calls have met the stopped output.
            var callsAfterStop = 0
            while callsAfterStop < 1000 {
                if device.isClosed { callsAfterStop += 1 }
                do throws(RumbleOutputError) {
                    try output.setMotors(strong: level, weak: level &* 3)
                } catch {
                    failures.withLock { $0.append(error) }
                }
                level = level == 0xFFFF ? 1 : level + 1
            }
            finished.signal()
        }
        control.start()
        while device.uploadCount < 200 {}  // let the control thread get going
        output.stop()
        finished.wait()

        let calls = device.calls
        let closeIndex = try #require(calls.firstIndex(of: .close))
        #expect(closeIndex == calls.count - 1, "calls after close: \(calls[(closeIndex + 1)...])")
        #expect(
            Array(calls[(closeIndex - 3)...]) == [
                Expected.rumble(id: 9, strong: 0, weak: 0), Expected.stop(9), .erase(9), .close,
            ])
        #expect(failures.withLock { $0 }.isEmpty)
    }
}
