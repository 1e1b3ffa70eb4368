#if canImport(Glibc)
    import Glibc
#endif

/// Reads a whole file or descriptor into memory, never holding more than a limit: the one
/// reader of AHAP input, JSON files and standard input. A regular file's size is checked
/// before reading and its bytes come in one allocation of that size; anything else (a pipe, a
/// device) is read until the limit is passed. Callers turn a ``Failure`` into their own
/// one-line error.
package enum BoundedFile {
    /// Why a file was not read.
    package enum Failure: Error, Equatable, Sendable {
        /// The path does not exist (`ENOENT`, or a component is not a folder: `ENOTDIR`).
        case noSuchFile
        /// Not something this read accepts: a folder always, anything but a regular file when
        /// streams are refused. `kind` is a phrase (`a directory`, `a pipe`), nil for a type
        /// without one.
        case notAFile(kind: String?)
        /// More bytes than the limit: `size` for a regular file whose size said so before
        /// reading, nil when the bytes read passed it.
        case tooLarge(size: Int?)
        /// The system refused to open or inspect the file.
        case cannotOpen(Errno)
        /// A read failed.
        case cannotRead(Errno)
    }

    /// The contents of the file at `path`, at most `limit` bytes.
    ///
    /// With `streams`, pipes and devices are read too (`/dev/stdin`, a shell's `<(…)`); without,
    /// only a regular file is opened, checked before opening and again on the open descriptor
    /// (opened non-blocking, so a pipe swapped in between cannot hang it).
    package static func read(path: String, limit: Int, streams: Bool) throws(Failure) -> [UInt8] {
        var status = stat()
        if !streams {
            guard stat(path, &status) == 0 else { throw openFailure(Errno.current) }
            try check(status, limit: limit, streams: false)
        }
        let descriptor: Int32
        do {
            descriptor = try systemCall { open(path, O_RDONLY | O_CLOEXEC | (streams ? 0 : O_NONBLOCK)) }
        } catch {
            throw openFailure(error)
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw .cannotOpen(Errno.current) }
        try check(status, limit: limit, streams: streams)
        let expected = status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : 0
        return try read(descriptor: descriptor, limit: limit, expectedSize: expected)
    }

    /// Everything a descriptor delivers until its end, refusing more than `limit` bytes.
    /// `expectedSize` (a regular file's size) sizes the buffer so that the bytes arrive in one
    /// allocation.
    package static func read(descriptor: Int32, limit: Int, expectedSize: Int = 0) throws(Failure) -> [UInt8] {
        // One byte more than expected, so the end is seen without growing.
        var bytes = [UInt8](repeating: 0, count: min(expectedSize > 0 ? expectedSize : 1 << 16, limit) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard bytes.count <= limit else { throw .tooLarge(size: nil) }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count)))
            }
            let received: Int
            do {
                received = try systemCall {
                    bytes.withUnsafeMutableBytes { raw in Glibc.read(descriptor, raw.baseAddress! + count, raw.count - count) }
                }
            } catch {
                throw .cannotRead(error)
            }
            if received == 0 { break }
            count += received
        }
        guard count <= limit else { throw .tooLarge(size: nil) }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// What a file mode says the path is: empty for a regular file, else a phrase; nil for a
    /// type without a name.
    package static func kind(of mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return ""
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a pipe"
        case S_IFSOCK: return "a socket"
        default: return nil
        }
    }

    private static func check(_ status: stat, limit: Int, streams: Bool) throws(Failure) {
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR || (!streams && type != S_IFREG) { throw .notAFile(kind: kind(of: status.st_mode)) }
        if type == S_IFREG, Int(status.st_size) > limit { throw .tooLarge(size: Int(status.st_size)) }
    }

    private static func openFailure(_ error: Errno) -> Failure {
        error.code == ENOENT || error.code == ENOTDIR ? .noSuchFile : .cannotOpen(error)
    }
}
