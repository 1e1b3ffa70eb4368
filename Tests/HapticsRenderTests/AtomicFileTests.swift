import Foundation
import HapticsTestSupport
import Synchronization
import Testing
@testable import HapticsRender
@testable import HapticsSystem

/// Every writer replaces its target only with a complete, flushed file: failures (a full disk,
/// I/O errors) leave the old file byte for byte and no temporary file behind.
@Suite("Atomic file writes")
struct AtomicFileTests {

    let oldContents = Data("the old file, which must survive\n".utf8)

    func ramp(_ count: Int) -> [Float] {
        (0..<count).map { Float(sin(Double($0) * 0.017)) * 0.7 }
    }

    /// Writes a WAV of `frames` mono frames to `path` through `io`.
    func writeWAV(to path: String, frames: Int, io: AtomicFile.IO = .system) throws(WAVError) {
        let writer = try WAVWriter(
            path: path, sampleRate: 48_000, channelCount: 1, format: .s16, frameCount: frames,
            riffLimit: WAVWriter.riffLimit, io: io)
        let samples = ramp(frames)
        try samples.withUnsafeBufferPointer { (all) throws(WAVError) in try writer.write(all) }
        try writer.finish()
    }

    /// Bytes a fake disk takes before its writes fail, shared by all the writes of one test.
    final class ByteBudget: Sendable {
        private let left: Mutex<Int>
        private let code: Int32

        init(_ bytes: Int, then code: Int32) {
            left = Mutex(bytes)
            self.code = code
        }

        /// Runs `write` with as many of `count` bytes as are left; none left: -1 with `code` in errno.
        func write(_ count: Int, _ write: (Int) -> Int) -> Int {
            let allowed = left.withLock { left in
                let n = min(count, left)
                left -= n
                return n
            }
            guard allowed > 0 else {
                errno = code
                return -1
            }
            return write(allowed)
        }
    }

    /// System calls that fail with `code` once `budget` bytes have been written, or at fsync.
    static func failing(_ code: Int32, afterBytes budget: Int? = nil, atSync: Bool = false) -> AtomicFile.IO {
        let bytes = budget.map { ByteBudget($0, then: code) }
        return AtomicFile.IO(
            write: { fd, buffer, count in
                guard let bytes else { return Glibc.write(fd, buffer, count) }
                return bytes.write(count) { Glibc.write(fd, buffer, $0) }
            },
            sync: { fd in
                if atSync {
                    errno = code
                    return -1
                }
                return fsync(fd)
            })
    }

    @Test("a WAV written over an existing file replaces it only when complete; the folder holds nothing else")
    func replacesWhenComplete() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("out.wav")
        try oldContents.write(to: URL(fileURLWithPath: path))
        let writer = try WAVWriter(path: path, sampleRate: 48_000, channelCount: 1, format: .s16, frameCount: 20_000)
        let samples = ramp(20_000)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        // Everything is written, but not committed: the old file is still what readers see.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == oldContents)
        try writer.finish()
        let wav = try WAVFile(contentsOf: URL(fileURLWithPath: path))
        #expect(wav.int16Samples == samples.map(int16Sample))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.wav"])
    }

    @Test(
        "EIO on write, EIO at fsync, ENOSPC on write: the old file is intact, no temporary file, one line naming the path",
        arguments: [("write EIO", EIO, 5_000, false), ("fsync EIO", EIO, nil, true), ("write ENOSPC", ENOSPC, 70_000, false), ("header EIO", EIO, 0, false)])
    func injectedFailures(name: String, code: Int32, budget: Int?, atSync: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("out.wav")
        try oldContents.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: WAVError.self, "\(name)") {
            try writeWAV(to: path, frames: 48_000, io: Self.failing(code, afterBytes: budget, atSync: atSync))
        }
        #expect(error.description == "\(path): cannot write the file (\(String(cString: strerror(code))))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == oldContents, "\(name)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.wav"], "\(name)")
    }

    @Test(
        "a text file with EIO on write or at fsync: the old file is intact, no temporary file",
        arguments: [(5, false), (nil, true)] as [(Int?, Bool)])
    func textFileFailures(budget: Int?, atSync: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("out.csv")
        try oldContents.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: FileWriteError.self) {
            let file = try AtomicFile(path: path, io: Self.failing(EIO, afterBytes: budget, atSync: atSync))
            try file.write(Array(repeating: UInt8(ascii: "x"), count: 10_000))
            try file.commit()
        }
        #expect(error.description == "\(path): cannot write the file (Input/output error)")
        #expect(error.code == EIO)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == oldContents)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.csv"])
    }

    @Test(
        "a failing fsync after several started writeback steps: one line naming the path, the old file intact, no temporary file")
    func fsyncFailsAfterWriteback() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("out.wav")
        try oldContents.write(to: URL(fileURLWithPath: path))
        // 3.5 writeback steps of 16-bit frames: the writeback of three has been started when fsync fails.
        let frames = 7 * AtomicFile.writebackBytes / 4
        let error = try #require(throws: WAVError.self) { try writeWAV(to: path, frames: frames, io: Self.failing(EIO, atSync: true)) }
        #expect(error.description == "\(path): cannot write the file (Input/output error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == oldContents)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.wav"])
    }

    /// Whether a large new file in the tests' temporary folder is written around the page cache
    /// (not where that folder is in memory, as a tmpfs /tmp).
    static let temporaryFolderWritesDirectly: Bool = {
        guard let folder = try? TemporaryFolder(),
            let file = try? AtomicFile(path: folder.path("probe"), io: .system, expectedBytes: AtomicFile.directMinimumBytes)
        else { return false }
        defer { file.discard() }
        return file.isWrittenDirectly
    }()
    static let noDirectWritingMessage: Comment = "the temporary folder is in memory or cannot be written with O_DIRECT; the direct writing tests are skipped"

    /// Writes `bytes` as a render's two parts do: the first half appended on this thread, the
    /// second from `half` on through a positional writer on another, both in odd-sized pieces.
    static func writeInTwoParts(_ bytes: [UInt8], half: Int, to file: AtomicFile) throws {
        let piece = 100_003
        let positional = try file.positionalWriter()
        let failure = Mutex<FileWriteError?>(nil)
        let done = DispatchSemaphore(value: 0)
        let second = Thread {
            bytes.withUnsafeBytes { all in
                do throws(FileWriteError) {
                    for start in stride(from: half, to: all.count, by: piece) {
                        try positional.write(UnsafeRawBufferPointer(rebasing: all[start..<min(start + piece, all.count)]), at: start)
                    }
                    try positional.finish()
                } catch {
                    failure.withLock { $0 = error }
                }
            }
            positional.close()
            done.signal()
        }
        second.start()
        var appendFailure: FileWriteError?
        do throws(FileWriteError) {
            for start in stride(from: 0, to: half, by: piece) {
                try file.write(Array(bytes[start..<min(start + piece, half)]))
            }
        } catch {
            appendFailure = error
        }
        done.wait()
        if let error = appendFailure ?? failure.withLock({ $0 }) { throw error }
    }

    @Test(
        "a file appended and written at an offset from another thread, each over several steps, reads back whole, through the page cache and around it",
        arguments: [false, true])
    func appendedAndPositionalReadBack(direct: Bool) throws {
        try #require(!direct || Self.temporaryFolderWritesDirectly, Self.noDirectWritingMessage)
        let folder = try TemporaryFolder()
        let path = folder.path("parts.bin")
        // Two parts of 2.5 writeback steps each (or five direct buffers), the second starting
        // at an odd offset, as the two halves of a render are.
        let half = 5 * AtomicFile.writebackBytes / 2 + 7
        let bytes = (0..<(2 * half)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
        let file = try AtomicFile(path: path, io: .system, expectedBytes: direct ? AtomicFile.directMinimumBytes : 0)
        #expect(file.isWrittenDirectly == direct)
        try Self.writeInTwoParts(bytes, half: half, to: file)
        try file.commit()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.count == bytes.count)
        #expect(data.elementsEqual(bytes), "the file is the bytes written, in place")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["parts.bin"])
    }

    @Test(
        "a direct write failing in the appended or the positional part: one line naming the path, the old file intact, no temporary file",
        arguments: [1 << 20, 4 << 20])
    func directWriteFails(budget: Int) throws {
        try #require(Self.temporaryFolderWritesDirectly, Self.noDirectWritingMessage)
        let folder = try TemporaryFolder()
        let path = folder.path("out.bin")
        try oldContents.write(to: URL(fileURLWithPath: path))
        // Direct writes fail with EIO once `budget` bytes have been written: in the first part
        // (1 MiB) or in the second (4 MiB, after the first part's 3 MiB).
        let disk = ByteBudget(budget, then: EIO)
        let io = AtomicFile.IO(writeAt: { fd, bytes, count, offset in
            disk.write(count) { pwrite(fd, bytes, $0, off_t(offset)) }
        })
        let half = 3 << 20
        let bytes = (0..<(2 * half)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let error = try #require(throws: FileWriteError.self) {
            let file = try AtomicFile(path: path, io: io, expectedBytes: AtomicFile.directMinimumBytes)
            #expect(file.isWrittenDirectly)
            try Self.writeInTwoParts(bytes, half: half, to: file)
            try file.commit()
        }
        #expect(error.description == "\(path): cannot write the file (Input/output error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == oldContents)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.bin"])
    }

    @Test("a large WAV written directly that gets fewer frames than declared has its header corrected and its samples whole")
    func directFewerFrames() throws {
        try #require(Self.temporaryFolderWritesDirectly, Self.noDirectWritingMessage)
        let folder = try TemporaryFolder()
        let path = folder.path("short.wav")
        let declared = AtomicFile.directMinimumBytes / 2 + 1_000
        let writer = try WAVWriter(path: path, sampleRate: 48_000, channelCount: 1, format: .s16, frameCount: declared)
        let samples = ramp(declared / 2 + 123)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.finish()
        let wav = try WAVFile(contentsOf: URL(fileURLWithPath: path))
        #expect(wav.int16Samples == samples.map(int16Sample))
    }

    @Test(
        "a large file in memory (tmpfs) is written through the page cache, which is its storage there",
        .enabled(if: SmallFileSystem.isAvailable, SmallFileSystem.unavailableMessage))
    func inMemoryNotDirect() throws {
        let small = try SmallFileSystem()
        let file = try AtomicFile(path: small.path("big.wav"), io: .system, expectedBytes: 1 << 30)
        #expect(!file.isWrittenDirectly)
        file.discard()
    }

    @Test("a file of several writeback steps (the writeback of each step starts while writing) reads back whole")
    func largeFileReadsBack() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("large.bin")
        let chunk = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let chunks = 2 * AtomicFile.writebackBytes / chunk.count + 3
        let file = try AtomicFile(path: path)
        for index in 0..<chunks {
            try file.write(chunk.map { $0 ^ UInt8(truncatingIfNeeded: index) })
        }
        try file.commit()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.count == chunks * chunk.count)
        for index in [0, chunks / 2, chunks - 1] {
            let part = data[(index * chunk.count)..<((index + 1) * chunk.count)]
            #expect(Array(part) == chunk.map { $0 ^ UInt8(truncatingIfNeeded: index) }, "chunk \(index)")
        }
    }

    @Test("a file released without commit leaves the old file and no temporary file")
    func discardedWithoutCommit() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("out.ahap")
        try oldContents.write(to: URL(fileURLWithPath: path))
        do {
            let file = try AtomicFile(path: path)
            try file.write(Array("{\"Pattern\": [".utf8))
            #expect(file.temporaryPath != nil)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == oldContents)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["out.ahap"])
    }

    @Test(
        "out of space (a 16 KiB tmpfs): ENOSPC, the old WAV intact byte for byte, no temporary file",
        .enabled(if: SmallFileSystem.isAvailable, SmallFileSystem.unavailableMessage))
    func outOfSpace() throws {
        let small = try SmallFileSystem()
        let path = small.path("out.wav")
        try writeWAV(to: path, frames: 2_000)
        let old = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: WAVError.self) { try writeWAV(to: path, frames: 48_000) }
        #expect(error.description == "\(path): cannot write the file (No space left on device)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == old)
        #expect(try small.names() == ["out.wav"])
    }

    @Test("a replaced file keeps its mode; a new one is 0644 less the umask")
    func permissions() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("out.wav")
        try writeWAV(to: path, frames: 100)
        // The process's umask, read without changing it (tests run in parallel).
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        let mask = try #require(Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
        #expect(try mode(path) == 0o644 & ~mask)
        chmod(path, 0o600)
        try writeWAV(to: path, frames: 200)
        #expect(try mode(path) == 0o600)
        chmod(path, 0o755)
        try writeWAV(to: path, frames: 300)
        #expect(try mode(path) == 0o755)
    }

    func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test("a symbolic link stays a link; the file it names (relative, through two links) is replaced")
    func symbolicLinks() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("real"), withIntermediateDirectories: true)
        let real = folder.path("real/target.wav")
        try oldContents.write(to: URL(fileURLWithPath: real))
        try FileManager.default.createSymbolicLink(atPath: folder.path("inner.wav"), withDestinationPath: "real/target.wav")
        try FileManager.default.createSymbolicLink(atPath: folder.path("outer.wav"), withDestinationPath: "inner.wav")
        try writeWAV(to: folder.path("outer.wav"), frames: 1_000)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("outer.wav")) == "inner.wav")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("inner.wav")) == "real/target.wav")
        let wav = try WAVFile(contentsOf: URL(fileURLWithPath: real))
        #expect(wav.int16Samples.count == 1_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("real")) == ["target.wav"])
        // A dangling link creates the file it names.
        try FileManager.default.createSymbolicLink(atPath: folder.path("dangling.wav"), withDestinationPath: "real/new.wav")
        try writeWAV(to: folder.path("dangling.wav"), frames: 10)
        #expect(FileManager.default.fileExists(atPath: folder.path("real/new.wav")))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("dangling.wav")) == "real/new.wav")
    }

    @Test("a target whose name is near the 255-byte limit still gets a temporary file and is written")
    func longName() throws {
        let folder = try TemporaryFolder()
        let name = String(repeating: "n", count: 251) + ".wav"
        try writeWAV(to: folder.path(name), frames: 100)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [name])
    }

    @Test("/dev/null is written in place and stays a character device")
    func deviceInPlace() throws {
        try writeWAV(to: "/dev/null", frames: 10_000)
        var info = stat()
        #expect(stat("/dev/null", &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFCHR)
        let file = try AtomicFile(path: "/dev/null")
        #expect(!file.isReplacingFile)
        #expect(file.targetPath == nil)
        try file.commit()
    }

    @Test("a FIFO is written in place: the reader gets the whole WAV and the FIFO stays a FIFO")
    func fifoInPlace() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("pipe.wav")
        #expect(mkfifo(path, 0o644) == 0)
        let reader = Task.detached { () -> Data? in
            FileHandle(forReadingAtPath: path)?.readDataToEndOfFile()
        }
        try writeWAV(to: path, frames: 5_000)
        let data = try #require(await reader.value)
        let wav = try WAVFile(bytes: [UInt8](data))
        #expect(wav.int16Samples == ramp(5_000).map(int16Sample))
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["pipe.wav"])
    }

    @Test("a directory, a missing folder: 'cannot create the file' with the reason, nothing created")
    func cannotCreate() throws {
        let folder = try TemporaryFolder()
        let error = try #require(throws: FileWriteError.self) { try AtomicFile(path: folder.url.path) }
        #expect(error.description == "\(folder.url.path): cannot create the file (Is a directory)")
        let missing = folder.path("missing/out.wav")
        let second = try #require(throws: FileWriteError.self) { try AtomicFile(path: missing) }
        #expect(second.description == "\(missing): cannot create the file (No such file or directory)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }
}
