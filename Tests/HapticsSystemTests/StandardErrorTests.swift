import Foundation
import Testing

@testable import HapticsSystem

/// The process's own lines on standard error: where they go while a library's are captured,
/// and the last line a signal ends the process with. Each runs in a child process (an exit
/// test), whose standard error the test reads.
@Suite("Standard error: the process's own lines")
struct StandardErrorTests {
    @Test("while descriptor 2 is redirected to a pipe, the process's own lines reach the real standard error and the library's the pipe")
    func ownLinesBypassARedirection() async throws {
        let result = try await #require(processExitsWith: .exitCode(0), observing: [\.standardErrorContent]) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { exit(2) }
            let (_, redirected) = StandardError.redirecting(to: ends[1]) {
                StandardError.write("the process's own line\n")
                _ = "a library's line\n".withCString { write(STDERR_FILENO, $0, strlen($0)) }
            }
            close(ends[1])
            var bytes = [UInt8](repeating: 0, count: 256)
            let count = read(ends[0], &bytes, bytes.count)
            let captured = String(decoding: bytes[0..<max(count, 0)], as: UTF8.self)
            // What the pipe caught, on the real standard error once it is back.
            StandardError.write("redirected: \(redirected); captured: [\(captured)]\n")
            exit(0)
        }
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(text == "the process's own line\nredirected: true; captured: [a library's line\n]\n")
    }

    @Test("the last line is the last: another thread writing all the while gets nothing in after it, and the exit code is the one given")
    func theLastLineIsLast() async throws {
        // Standard error is a file here: a write to it never blocks, so the other thread is
        // always writing, and only the lock keeps its next line from landing after the last.
        // The child finds the folder by this process's id (an exit test captures nothing); the
        // folder is made here, private, and must be new.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("haptics-last-line-\(getpid())")
        try #require(mkdir(folder.path, 0o700) == 0, "cannot make \(folder.path): \(String(cString: strerror(errno)))")
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(processExitsWith: .exitCode(143)) {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("haptics-last-line-\(getppid())/stderr").path
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
            guard descriptor >= 0, dup2(descriptor, STDERR_FILENO) >= 0 else { exit(2) }
            let started = SystemSemaphore(value: 0)
            let chatter = SystemThread {
                started.signal()
                while true { StandardError.write("warning: still working\n") }
            }
            chatter.start()
            started.wait()
            usleep(2_000)
            StandardError.exit(withLastLine: "haptics: terminated\n", code: 143)
        }
        let lines = try String(contentsOf: folder.appendingPathComponent("stderr"), encoding: .utf8).split(separator: "\n")
        #expect(lines.last == "haptics: terminated")
        #expect(lines.dropLast().allSatisfy { $0 == "warning: still working" }, "\(Set(lines))")
    }
}
