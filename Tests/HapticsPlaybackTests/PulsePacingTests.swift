import CPulse
import Foundation
import HapticsTestSupport
import Synchronization
import Testing
@testable import HapticsPlayback

/// The `pulse` output's idle wait, paced by its model of the server's read position: it sleeps
/// until the time the model gives for the room (on its own wake-up, not the server's socket),
/// and a stop or an interrupt still ends it at once.
@Suite("Pulse output's paced wait for room")
struct PulsePacingTests {
    static let rate = 48_000

    @Test("The room's time comes from the model: frames to read before the room is there, at the stream's rate, rounded up")
    func roomTimeFromTheModel() {
        // A full 960-frame buffer, read from 0 at t = 1 s: 320 frames of room once 320 are read.
        #expect(haptics_pulse_room_time(960, 0, 1_000_000, 960, 48_000, 320) == 1_006_667)
        // Read 100 frames at the anchor: 220 to go.
        #expect(haptics_pulse_room_time(960, 100, 1_000_000, 960, 48_000, 320) == 1_004_584)
        // 2,000 written, 1,100 read by the anchor: 60 frames already free, 260 to go.
        #expect(haptics_pulse_room_time(2_000, 1_100, 5_000_000, 960, 48_000, 320) == 5_005_417)
        // Room there already (the model read past it): the anchor's time, not earlier.
        #expect(haptics_pulse_room_time(960, 400, 1_000_000, 960, 48_000, 320) == 1_000_000)
        #expect(haptics_pulse_room_time(960, 960, 1_000_000, 960, 48_000, 960) == 1_000_000)
        // The whole buffer at 44.1 kHz: 960 frames are 21,768.7 µs.
        #expect(haptics_pulse_room_time(960, 0, 0, 960, 44_100, 960) == 21_769)
    }

    @Test(
        "While a started stream's wait is paced, its thread sleeps on its own wake-up alone, and an interrupt ends the wait",
        .enabled(if: PulseOutput.isAvailable, "libpulse is not installed"))
    func interruptEndsPacedWait() async throws {
        let (sleptAlone, returned, paced) = try await PulseAudioServer.withServer(sampleRate: Self.rate, channelCount: 1) { _ in
            let output = try PulseOutput(sampleRate: Self.rate, channelCount: 1, latency: .milliseconds(20))
            defer { output.close() }
            let period = [Float](repeating: 0, count: output.periodFrames)
            func writePeriod() throws {
                try period.withUnsafeBufferPointer { (samples) throws(AudioOutputError) in try output.write(samples) }
            }
            // Playing, with the buffer full; then as the idle engine does, a period at a time
            // once the wait says there is room: the first wait anchors the model on the
            // server's request, those after it are paced.
            for _ in 0..<(output.bufferFrames / output.periodFrames) { try writePeriod() }
            for _ in 0..<20 {
                output.waitForRoom(frames: output.periodFrames)
                try writePeriod()
            }
            let paced = output.pacedWaits
            // A minute of room never comes: a wait for it that ends did so for the interrupt.
            // A wait that starts when the model is due to be checked against the server takes
            // the server's request as it comes first, polling libpulse's descriptors (counted
            // as `precise`): that one is not paced, and is interrupted and made again, once
            // anchored. Any other wait not found asleep on its wake-up alone fails the test.
            var sleptAlone = false
            var returned = true
            for _ in 0..<3 where !sleptAlone && returned {
                let preciseBefore = output.pacedWaits.precise
                let waiter = Mutex<(thread: String, done: Bool)>(("", false))
                let thread = Thread {
                    // "PID/task/TID": this thread's folder.
                    let folder = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
                    waiter.withLock { $0.thread = folder }
                    output.waitForRoom(frames: Self.rate * 60)
                    waiter.withLock { $0.done = true }
                }
                thread.start()
                // The thread sleeps in ppoll on one descriptor (its eventfd); libpulse's own
                // loop polls the server's socket and its wake-up pipe together.
                sleptAlone = Wait.until(timeout: .seconds(5)) {
                    let thread = waiter.withLock { $0.thread }
                    guard !thread.isEmpty, let call = try? String(contentsOfFile: "/proc/\(thread)/syscall", encoding: .utf8) else {
                        return false
                    }
                    let fields = call.split(separator: " ").map(String.init)
                    return fields.count > 2 && fields[0] == String(Self.ppoll) && fields[2] == "0x1"
                }
                let tookTheRequest = output.pacedWaits.precise > preciseBefore
                output.interruptWait()
                returned = Wait.until(timeout: .seconds(10)) { waiter.withLock { $0.done } }
                if !returned {
                    // Frees the thread before the output closes under it.
                    output.stop()
                    Wait.until(timeout: .seconds(10)) { waiter.withLock { $0.done } }
                }
                // Only the request-taking wait is made again.
                if !sleptAlone && !tookTheRequest { break }
            }
            return (sleptAlone, returned, paced)
        }
        #expect(paced.onTime >= 1, "no wait of the 20 was paced and found its room on time (\(paced.early) too early)")
        #expect(sleptAlone, "the waiting thread never slept in ppoll on its wake-up alone")
        #expect(returned, "the paced wait did not end on the interrupt")
    }

    /// The ppoll system call's number, as /proc/PID/task/TID/syscall shows it.
    static var ppoll: Int {
        #if arch(x86_64)
            271
        #elseif arch(arm64)
            73
        #else
            -1
        #endif
    }
}
