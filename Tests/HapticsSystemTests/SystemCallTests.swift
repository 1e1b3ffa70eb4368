import Foundation
import Testing

@testable import HapticsSystem

/// The one helper for interrupted system calls and errno errors.
@Suite("System calls")
struct SystemCallTests {
    @Test("an interrupted call is repeated until it answers, and its answer is returned")
    func retriesInterruptions() throws {
        var calls = 0
        let result = try systemCall { () -> Int in
            calls += 1
            guard calls > 2 else {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7)
        #expect(calls == 3)
    }

    @Test("any other failure is thrown once, as its errno, with the system's reason")
    func throwsErrno() {
        var calls = 0
        let error = #expect(throws: Errno.self) {
            try systemCall { () -> Int32 in
                calls += 1
                errno = ENOSPC
                return -1
            }
        }
        #expect(calls == 1)
        #expect(error == Errno(ENOSPC))
        #expect(error?.description == "No space left on device")
    }

    @Test("a function that returns its error number is retried on EINTR and throws the rest")
    func returnedErrors() {
        var results: [Int32] = [EINTR, EINTR, 0]
        #expect(throws: Never.self) { try systemCallReturningError { results.removeFirst() } }
        #expect(results.isEmpty)
        #expect(throws: Errno(ETIMEDOUT)) { try systemCallReturningError { ETIMEDOUT } }
    }

    @Test("writeWhole continues after short and interrupted writes, at the right offsets")
    func writesWhole() throws {
        let bytes: [UInt8] = Array(0..<100)
        var written: [UInt8] = []
        var offsets: [Int] = []
        var interrupted = false
        try bytes.withUnsafeBytes { raw in
            try writeWhole(raw) { start, count, offset in
                if !interrupted {
                    interrupted = true
                    errno = EINTR
                    return -1
                }
                offsets.append(offset)
                let chunk = min(count, 30)
                written += UnsafeRawBufferPointer(start: start, count: chunk)
                return chunk
            }
        }
        #expect(written == bytes)
        #expect(offsets == [0, 30, 60, 90])
    }

    @Test("a write that takes nothing is EIO, not a loop without end")
    func zeroWriteIsAnError() {
        let bytes: [UInt8] = [1, 2, 3]
        #expect(throws: Errno(EIO)) {
            try bytes.withUnsafeBytes { raw in try writeWhole(raw) { _, _, _ in 0 } }
        }
    }

    @Test("a semaphore's timed wait ends at its deadline when nothing signals, and takes a signal")
    func semaphoreDeadline() {
        let semaphore = SystemSemaphore(value: 0)
        #expect(!semaphore.wait(until: SystemClock.nanoseconds))
        #expect(!semaphore.wait(nanoseconds: 1_000_000))
        semaphore.signal()
        #expect(semaphore.wait(until: SystemClock.nanoseconds + 1_000_000_000))
    }
}
