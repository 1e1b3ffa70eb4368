import FoundationEssentials
import Synchronization
internal import CSystem
#if canImport(Glibc)
    import Glibc
#endif

/// A failure creating or writing an output file: one line naming the path as given and the
/// system's reason, `out.wav: cannot write the file (No space left on device)`.
public struct FileWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed: creating the file, or writing it (including flushing and renaming it).
    public enum Stage: Sendable, Hashable {
        case create
        case write
    }

    /// The path as given; `-` for standard output.
    public var path: String
    public var stage: Stage
    /// The `errno` behind it.
    public var code: Int32

    /// The system's words for ``code``.
    public var reason: String { Errno(code).description }

    /// The line to print.
    public var description: String {
        switch stage {
        case .create: "\(path): cannot create the file (\(reason))"
        case .write: path == "-" ? "standard output: cannot write (\(reason))" : "\(path): cannot write the file (\(reason))"
        }
    }
}

/// Every file the toolkit writes goes through this type, so that nothing is ever lost.
///
/// A regular file (or a path that does not exist yet) is written to a new temporary file in the
/// same folder, `.NAME.XXXXXXXX.tmp`, created exclusively under a unique name (so concurrent
/// writers never share one), flushed to the disk with `fsync`, and renamed over the target
/// only by ``commit()``. Until then the old file is untouched; on any error, and when the value
/// is released without a commit, the temporary file is removed. The last writer to commit wins
/// and every reader sees one complete file. A new file gets mode 0644 less the umask; a
/// replaced file keeps its mode (and, when permitted, its owner).
///
/// A program that ends on a signal calls ``removeTemporaryFiles()`` first (the `haptics`
/// command does, on SIGINT and SIGTERM), so that an interrupted write leaves nothing behind.
///
/// Special targets are written in place and never replaced: `-` (standard output),
/// character and block devices such as `/dev/null`, FIFOs and sockets. A symbolic link is
/// followed to the file it names, which is replaced; the link stays a link.
package final class AtomicFile {
    /// The path as given, for messages; `-` for standard output.
    package let path: String
    /// The file that ``commit()`` replaces, symbolic links resolved; `nil` when writing in place.
    package let targetPath: String?
    /// The temporary file being written; `nil` when writing in place.
    package private(set) var temporaryPath: String?
    /// Whether the output is a new file that can be rewritten at any offset (not a stream).
    package var isReplacingFile: Bool { temporaryPath != nil }
    /// Whether the file is written around the page cache (``directMinimumBytes``).
    package var isWrittenDirectly: Bool { writesDirectly }

    private let fd: Int32
    private let ownsDescriptor: Bool
    /// The temporary files of every writer not yet committed or discarded, for cleaning up.
    private static let unfinished = Mutex<Set<String>>([])
    private let io: IO
    private var done = false
    /// The direct writing of a large new file on a disk (see ``directMinimumBytes``), and
    /// whether positional writers write directly too.
    private var direct: DirectStream?
    private let writesDirectly: Bool
    /// Declared sizes from which a new file on a disk is written around the page cache
    /// (``DirectStream``); smaller ones, and files in memory, go through it.
    static let directMinimumBytes = 8 << 20
    /// Bytes appended since writeback was last started, and where they begin.
    private var pendingBytes = 0
    private var pendingOffset = 0
    /// Written bytes after which their writeback to the disk is started, while writing goes on
    /// (`sync_file_range`, which returns at once): the disk works while the writer renders, and
    /// the `fsync` of ``commit()`` finds only the last step and the disk's queue left to wait
    /// for. A megabyte gets the disk going about a millisecond after writing starts.
    static let writebackBytes = 1 << 20

    /// Starts the writeback of `count` bytes from `offset` without waiting for it. Nothing
    /// depends on it: where the file system cannot, ``commit()``'s `fsync` does it all.
    fileprivate static func startWriteback(_ fd: Int32, offset: Int, count: Int) {
        _ = haptics_start_writeback(fd, Int64(offset), Int64(count))
    }

    /// The system calls the writer makes, replaceable in tests to inject failures.
    package struct IO: Sendable {
        /// `write(2)`: bytes written, or -1 with `errno` set.
        package var write: @Sendable (Int32, UnsafeRawPointer, Int) -> Int
        /// `fsync(2)`: 0, or -1 with `errno` set.
        package var sync: @Sendable (Int32) -> Int32
        /// `pwrite(2)` of a large file written directly (``directMinimumBytes``): bytes
        /// written, or -1 with `errno` set.
        package var writeAt: @Sendable (Int32, UnsafeRawPointer, Int, Int) -> Int

        package init(
            write: @escaping @Sendable (Int32, UnsafeRawPointer, Int) -> Int = { Glibc.write($0, $1, $2) },
            sync: @escaping @Sendable (Int32) -> Int32 = { Glibc.fsync($0) },
            writeAt: @escaping @Sendable (Int32, UnsafeRawPointer, Int, Int) -> Int = { Glibc.pwrite($0, $1, $2, off_t($3)) }
        ) {
            self.write = write
            self.sync = sync
            self.writeAt = writeAt
        }

        package static let system = IO()
    }

    /// Opens `path` for writing: standard output for `-`, a special file in place, otherwise a
    /// new temporary file next to the target.
    package convenience init(path: String) throws(FileWriteError) {
        try self.init(path: path, io: .system)
    }

    /// Opens `path` as ``init(path:)`` does; `expectedBytes` is the size the file will have,
    /// when known: a new file of ``directMinimumBytes`` or more on a disk is written around the
    /// page cache.
    package init(path: String, io: IO, expectedBytes: Int = 0) throws(FileWriteError) {
        self.path = path
        self.io = io
        if path == "-" {
            fd = STDOUT_FILENO
            ownsDescriptor = false
            targetPath = nil
            temporaryPath = nil
            writesDirectly = false
            return
        }
        func failure(_ code: Int32) -> FileWriteError {
            FileWriteError(path: path, stage: .create, code: code)
        }
        let target = try Self.resolveLinks(path, failure: failure)
        var info = stat()
        let exists = stat(target, &info) == 0
        if !exists && errno != ENOENT { throw failure(errno) }
        let type = info.st_mode & S_IFMT
        if exists && type == S_IFDIR { throw failure(EISDIR) }
        if exists && type != S_IFREG {
            // A device, FIFO or socket: written in place, never replaced.
            let opened = open(target, O_WRONLY | O_CLOEXEC)
            guard opened >= 0 else { throw failure(errno) }
            fd = opened
            ownsDescriptor = true
            targetPath = nil
            temporaryPath = nil
            writesDirectly = false
            return
        }
        // Replacing is no way around a file's permissions: a file we may not write stays.
        if exists && access(target, W_OK) != 0 { throw failure(errno) }
        let (folder, name) = Self.split(target)
        // Short enough for the 255-byte name limit whatever the target's name.
        let stem = String(decoding: name.utf8.prefix(200), as: UTF8.self)
        var created: (fd: Int32, path: String)?
        for _ in 0..<100 {
            let suffix = String(UInt64.random(in: 0...UInt64.max) & 0xFFFF_FFFF, radix: 16)
            let candidate = (folder == "/" ? "/" : folder + "/") + ".\(stem).\(suffix).tmp"
            // The kernel applies the umask to 0644, as for any new file.
            let opened = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if opened >= 0 {
                created = (opened, candidate)
                break
            }
            if errno != EEXIST { throw failure(errno) }
        }
        guard let created else { throw failure(EEXIST) }
        if exists {
            // Best effort: the replacement keeps the old file's permissions and owner.
            // The owner first: changing it clears set-user-ID bits that the mode then restores.
            _ = fchown(created.fd, info.st_uid, info.st_gid)
            _ = fchmod(created.fd, info.st_mode & 0o7777)
        }
        fd = created.fd
        ownsDescriptor = true
        targetPath = target
        temporaryPath = created.path
        Self.unfinished.withLock { _ = $0.insert(created.path) }
        // Where the file system cannot write directly, the page cache it is.
        if expectedBytes >= Self.directMinimumBytes, haptics_is_in_memory(created.fd) == 0,
            case let directFD = haptics_open_direct(created.path), directFD >= 0
        {
            writesDirectly = true
            direct = DirectStream(directFD: directFD, bufferedFD: created.fd, path: path, offset: 0, writeAt: io.writeAt)
        } else {
            writesDirectly = false
        }
    }

    /// Removes the temporary files of every write in progress, leaving their targets as they
    /// were; for a program about to exit on a signal. Returns how many it removed.
    @discardableResult
    package static func removeTemporaryFiles() -> Int {
        unfinished.withLock { paths in
            let count = paths.reduce(0) { $0 + (unlink($1) == 0 ? 1 : 0) }
            paths.removeAll()
            return count
        }
    }

    deinit { discard() }

    /// Appends bytes.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(FileWriteError) {
        guard !done else { throw message(EBADF) }
        if let direct {
            do {
                try direct.append(bytes)
            } catch {
                throw fail(error.code)
            }
            return
        }
        do {
            try writeWhole(bytes) { start, count, _ in io.write(fd, start, count) }
        } catch {
            throw fail(error.code)
        }
        guard temporaryPath != nil else { return }
        pendingBytes += bytes.count
        if pendingBytes >= Self.writebackBytes {
            Self.startWriteback(fd, offset: pendingOffset, count: pendingBytes)
            pendingOffset += pendingBytes
            pendingBytes = 0
        }
    }

    /// Appends bytes.
    package func write(_ bytes: [UInt8]) throws(FileWriteError) {
        let failure: FileWriteError? = bytes.withUnsafeBytes { raw in
            do throws(FileWriteError) {
                try write(raw)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// A writer of bytes at given offsets of this file, for another thread than the one
    /// appending (the second part of a render written while the first is appended). Only for
    /// a new file (``isReplacingFile``). It writes through its own descriptor, so that this
    /// file closing on an error of its own cannot leave the other thread writing to a reused
    /// descriptor; on its error, the owner discards the output.
    package func positionalWriter() throws(FileWriteError) -> PositionalWriter {
        precondition(temporaryPath != nil && !done, "only a new file being written")
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw fail(errno) }
        var directFD: Int32 = -1
        if writesDirectly, let temporaryPath {
            directFD = haptics_open_direct(temporaryPath)
            guard directFD >= 0 else {
                let code = errno
                _ = Glibc.close(copy)
                throw fail(code)
            }
        }
        return PositionalWriter(fd: copy, directFD: directFD, path: path, writeAt: io.writeAt)
    }

    /// Writes at offsets of an ``AtomicFile`` from another thread (see
    /// ``AtomicFile/positionalWriter()``), starting the disk's writeback as appending does.
    /// Used by one thread at a time; closes its descriptor when released, or at ``close()``.
    package final class PositionalWriter: @unchecked Sendable {
        private var fd: Int32
        let path: String
        private var pendingOffset = -1
        private var pendingBytes = 0
        /// For a file written directly: the `O_DIRECT` descriptor until the first write, then
        /// the stream it went to.
        private var directFD: Int32
        private var stream: DirectStream?
        private let writeAt: @Sendable (Int32, UnsafeRawPointer, Int, Int) -> Int

        fileprivate init(fd: Int32, directFD: Int32, path: String, writeAt: @escaping @Sendable (Int32, UnsafeRawPointer, Int, Int) -> Int) {
            self.fd = fd
            self.directFD = directFD
            self.path = path
            self.writeAt = writeAt
        }

        deinit { close() }

        /// Writes `bytes` at `offset`; writes that follow each other continue where the last
        /// one ended (for a file written directly, they must).
        package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(FileWriteError) {
            guard fd >= 0 else { throw FileWriteError(path: path, stage: .write, code: EBADF) }
            if directFD >= 0 {
                stream = DirectStream(directFD: directFD, bufferedFD: fd, path: path, offset: offset, writeAt: writeAt)
                directFD = -1
            }
            if let stream {
                precondition(offset == stream.position, "direct writes continue where the last one ended")
                try stream.append(bytes)
                return
            }
            do {
                try writeWhole(bytes) { start, count, done in pwrite(fd, start, count, off_t(offset + done)) }
            } catch {
                throw FileWriteError(path: path, stage: .write, code: error.code)
            }
            if pendingOffset < 0 { pendingOffset = offset }
            pendingBytes += bytes.count
            if pendingBytes >= AtomicFile.writebackBytes {
                AtomicFile.startWriteback(fd, offset: pendingOffset, count: pendingBytes)
                pendingOffset += pendingBytes
                pendingBytes = 0
            }
        }

        /// Writes what a direct stream still holds; call it after the last write, before
        /// ``close()``, which otherwise abandons it.
        package func finish() throws(FileWriteError) {
            try stream?.finish()
        }

        /// Closes the descriptor; writing after it fails.
        package func close() {
            guard fd >= 0 else { return }
            stream?.cancel()
            stream = nil
            if directFD >= 0 { _ = Glibc.close(directFD) }
            directFD = -1
            _ = Glibc.close(fd)
            fd = -1
        }
    }

    /// Overwrites bytes at the start of the file (a header whose sizes are known only at the
    /// end). Only for a file being replaced (``isReplacingFile``); the write position is kept.
    package func rewriteStart(with bytes: [UInt8]) throws(FileWriteError) {
        precondition(isReplacingFile, "only a new file can be rewritten")
        guard !done else { throw message(EBADF) }
        try finishDirect()
        let end = lseek(fd, 0, SEEK_CUR)
        guard end >= 0, lseek(fd, 0, SEEK_SET) == 0 else { throw fail(errno) }
        try write(bytes)
        guard lseek(fd, end, SEEK_SET) == end else { throw fail(errno) }
    }

    /// Flushes the file to the disk and, for a replaced file, renames it over the target.
    /// After an error the target is untouched and the temporary file is gone.
    package func commit() throws(FileWriteError) {
        guard !done else { return }
        guard ownsDescriptor else {
            done = true
            return
        }
        if let temporaryPath, let targetPath {
            try finishDirect()
            if io.sync(fd) != 0 { throw fail(errno) }
            done = true
            if close(fd) != 0 {
                let code = errno
                unlink(temporaryPath)
                Self.unfinished.withLock { _ = $0.remove(temporaryPath) }
                throw message(code)
            }
            if rename(temporaryPath, targetPath) != 0 {
                let code = errno
                unlink(temporaryPath)
                Self.unfinished.withLock { _ = $0.remove(temporaryPath) }
                throw message(code)
            }
            Self.unfinished.withLock { _ = $0.remove(temporaryPath) }
            self.temporaryPath = nil
            // Makes the rename itself durable; a failure here loses nothing already visible.
            let folder = open(Self.split(targetPath).folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if folder >= 0 {
                _ = fsync(folder)
                close(folder)
            }
        } else {
            done = true
            if close(fd) != 0 { throw message(errno) }
        }
    }

    /// Ends direct writing: what it holds is written, and appending goes on through the page
    /// cache where it stopped.
    private func finishDirect() throws(FileWriteError) {
        guard let direct else { return }
        self.direct = nil
        do {
            try direct.finish()
        } catch {
            throw fail(error.code)
        }
        guard lseek(fd, off_t(direct.position), SEEK_SET) == off_t(direct.position) else { throw fail(errno) }
    }

    /// Abandons the output: closes it and removes the temporary file. The target is untouched.
    package func discard() {
        guard !done else { return }
        done = true
        direct?.cancel()
        direct = nil
        if ownsDescriptor { close(fd) }
        if let temporaryPath {
            unlink(temporaryPath)
            Self.unfinished.withLock { _ = $0.remove(temporaryPath) }
        }
        temporaryPath = nil
    }

    /// Discards the output and returns the error for `code`.
    private func fail(_ code: Int32) -> FileWriteError {
        discard()
        return message(code)
    }

    private func message(_ code: Int32) -> FileWriteError {
        FileWriteError(path: path, stage: .write, code: code)
    }

    /// Follows symbolic links (relative ones from their own folder) to the path they name,
    /// which may not exist yet.
    private static func resolveLinks(_ path: String, failure: (Int32) -> FileWriteError) throws(FileWriteError) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return current }
                throw failure(errno)
            }
            guard info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length >= 0 else { throw failure(errno) }
            let link = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : (split(current).folder == "/" ? "/" : split(current).folder + "/") + link
        }
        throw failure(ELOOP)
    }

    /// The folder (`.` for a bare name) and the last component of a path.
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
