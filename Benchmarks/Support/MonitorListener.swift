import Foundation
import Synchronization

/// What reaches the device: the null sink's monitor, recorded by `parec` with a 1 ms fragment
/// into a pipe that a thread of ours reads, stamping each arrival with CLOCK_MONOTONIC.
///
/// Shared by the latency benchmarks (the engine's and the feedback service's). Every sound measured takes the same path from the sink to this process, so the path's own
/// delay (a fragment, a pipe) adds the same to ours and to the anchor's.
package final class MonitorListener: @unchecked Sendable {
    /// When the sink last played a non-zero sample (monotonic nanoseconds; 0: never).
    package let lastSound = Atomic<Int>(0)
    /// Set by ``arm()``; the first non-zero sample after it clears it and sets `heard`.
    private let armed = Atomic<Bool>(false)
    private let heard = Atomic<Int>(0)
    private let recorder: ChildProcess
    private let pipeRead: Int32

    package init(server: PulseServer) {
        guard let parec = executable("parec") else { fatalError("parec is not installed (Debian: pulseaudio-utils)") }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { fatalError("pipe: \(errno)") }
        pipeRead = fds[0]
        recorder = ChildProcess(
            [
                // Big-endian, which the sink's Float32 is not: the server converts every block
                // it sends (a byte swap, exact). In the sink's own format it forwards the
                // blocks a client wrote through shared memory as they are, and pulseaudio
                // 16.1 cannot send another client's memfd block ("Falling back to copying
                // full block data over socket"): its accounting of imported blocks then goes
                // wrong, and it aborts on an assertion (`n_imported > 0`, memblock.c) when
                // that client disconnects (the real-time tests under load saw it die so).
                parec, "--device=\(server.sinkName).monitor", "--raw", "--format=float32be",
                "--rate=\(server.sampleRate)", "--channels=1", "--latency-msec=1",
            ], standardOutput: fds[1])
        close(fds[1])
        let thread = Thread { [self] in listen() }
        thread.name = "monitor"
        thread.start()
        // The null sink plays silence while idle: data flows as soon as parec is connected.
        let deadline = Date().addingTimeInterval(10)
        while received.load(ordering: .relaxed) == 0 {
            guard Date() < deadline else { fatalError("parec recorded nothing within 10 s") }
            usleep(10_000)
        }
    }

    private let received = Atomic<Int>(0)

    private func listen() {
        var parameters = sched_param(sched_priority: 50)
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
        let capacity = 16_384
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 4)
        var carry = 0
        while true {
            let count = read(pipeRead, buffer + carry, capacity - carry)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            let time = now()
            let total = carry + count
            let samples = total / 4
            let words = buffer.bindMemory(to: UInt32.self, capacity: samples)
            var sounding = false
            for i in 0..<samples where Float(bitPattern: UInt32(bigEndian: words[i])) != 0 {
                sounding = true
                break
            }
            if sounding {
                lastSound.store(time, ordering: .relaxed)
                if armed.exchange(false, ordering: .acquiringAndReleasing) { heard.store(time, ordering: .releasing) }
            }
            carry = total - samples * 4
            if carry > 0 { buffer.copyMemory(from: buffer + samples * 4, byteCount: carry) }
            received.add(count, ordering: .relaxed)
        }
    }

    /// Waits until the sink has been silent for `quiet` seconds.
    package func waitForSilence(_ quiet: Double = 0.02) {
        while Double(now() - lastSound.load(ordering: .relaxed)) < quiet * 1e9 { usleep(2_000) }
    }

    /// Watches for the next sound; ``heardTime(timeout:)`` returns when it arrived.
    package func arm() {
        heard.store(0, ordering: .relaxed)
        armed.store(true, ordering: .releasing)
    }

    /// When the first non-zero sample after ``arm()`` arrived (monotonic nanoseconds), or nil
    /// if none arrived within `timeout` seconds.
    package func heardTime(timeout: Double = 2) -> Int? {
        let deadline = now() + Int(timeout * 1e9)
        while now() < deadline {
            let time = heard.load(ordering: .acquiring)
            if time != 0 { return time }
            usleep(200)
        }
        armed.store(false, ordering: .releasing)
        return nil
    }

    package func stop() { recorder.terminate() }
}
