import Foundation
import HapticsTestSupport
import Testing

@testable import HapticsSystem

/// The one reader of whole files under a limit (AHAP input, JSON files, standard input).
@Suite("Bounded file reading")
struct BoundedFileTests {
    @Test("a regular file up to the limit is read whole, in either mode")
    func readsWithinTheLimit() throws {
        let folder = try TemporaryFolder()
        let bytes = (0..<1000).map { UInt8($0 % 251) }
        let url = try folder.write("data", Data(bytes))
        #expect(try BoundedFile.read(path: url.path, limit: 1000, streams: false) == bytes)
        #expect(try BoundedFile.read(path: url.path, limit: 1000, streams: true) == bytes)
        #expect(try BoundedFile.read(path: try folder.write("empty", Data()).path, limit: 10, streams: false) == [])
    }

    @Test("a regular file over the limit is refused by its size, before reading")
    func refusesByStatedSize() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("big", Data(count: 1001))
        #expect(throws: BoundedFile.Failure.tooLarge(size: 1001)) { try BoundedFile.read(path: url.path, limit: 1000, streams: true) }
        #expect(throws: BoundedFile.Failure.tooLarge(size: 1001)) { try BoundedFile.read(path: url.path, limit: 1000, streams: false) }
    }

    @Test("a stream is read until it passes the limit, and no further")
    func refusesLongStreams() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let payload = [UInt8](repeating: 7, count: 5000)
        #expect(payload.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == 5000)
        close(ends[1])
        #expect(throws: BoundedFile.Failure.tooLarge(size: nil)) { try BoundedFile.read(descriptor: ends[0], limit: 4096) }
    }

    @Test("a stream within the limit is read to its end")
    func readsStreams() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let payload = (0..<3000).map { UInt8($0 % 256) }
        #expect(payload.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == 3000)
        close(ends[1])
        #expect(try BoundedFile.read(descriptor: ends[0], limit: 3000) == payload)
    }

    @Test("missing files, folders and (without streams) pipes are named for what they are")
    func refusesWhatIsNotAFile() throws {
        let folder = try TemporaryFolder()
        #expect(throws: BoundedFile.Failure.noSuchFile) { try BoundedFile.read(path: folder.path("missing"), limit: 10, streams: true) }
        #expect(throws: BoundedFile.Failure.noSuchFile) { try BoundedFile.read(path: folder.path("missing/below"), limit: 10, streams: false) }
        #expect(throws: BoundedFile.Failure.notAFile(kind: "a directory")) { try BoundedFile.read(path: folder.path, limit: 10, streams: true) }
        #expect(throws: BoundedFile.Failure.notAFile(kind: "a directory")) { try BoundedFile.read(path: folder.path, limit: 10, streams: false) }
        let fifo = folder.path("fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        // Refused from its type alone: nothing opens it, so no writer is needed to end the test.
        #expect(throws: BoundedFile.Failure.notAFile(kind: "a pipe")) { try BoundedFile.read(path: fifo, limit: 10, streams: false) }
    }

    @Test("a file the user may not open says why", .enabled(if: geteuid() != 0, "root opens any file; run as a user to check permissions"))
    func unreadable() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("secret", "x")
        try #require(chmod(url.path, 0) == 0)
        #expect(throws: BoundedFile.Failure.cannotOpen(Errno(EACCES))) { try BoundedFile.read(path: url.path, limit: 10, streams: true) }
    }
}
