import FoundationEssentials
import Glibc

/// Reads AHAP input from files and descriptors without ever holding more than the input
/// limit in memory: a regular file's size is checked before reading, and anything else
/// (pipes, devices) is read in chunks until the limit is passed.
enum AHAPInputReader {
    private static let chunkSize = 1 << 16

    /// The contents of a file.
    static func read(contentsOf url: URL, source: String, limit: Int) throws(AHAPError) -> [UInt8] {
        guard url.isFileURL else {
            throw failure("only local files can be read, not \(url.absoluteString)", source: source)
        }
        return try read(path: url.path, source: source, limit: limit)
    }

    /// The contents of the file at `path`.
    static func read(path: String, source: String, limit: Int) throws(AHAPError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { throw failure("no such file", source: source) }
            throw failure("cannot open the file: \(reason(errno))", source: source)
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFDIR {
                throw failure("is a directory, not an AHAP file", source: source)
            }
            if status.st_mode & S_IFMT == S_IFREG, status.st_size > limit {
                throw failure("the file is \(status.st_size) bytes, more than the \(describe(limit)) input limit", source: source)
            }
        }
        // A regular file's size is known: the bytes then come in one allocation of that size.
        let expected = status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size) : 0
        return try read(fileDescriptor: descriptor, source: source, limit: limit, expectedSize: expected)
    }

    /// Everything a file descriptor delivers until its end, refusing more than `limit` bytes.
    /// `expectedSize` reserves room for that many bytes first (the size of a regular file).
    static func read(fileDescriptor descriptor: Int32, source: String, limit: Int, expectedSize: Int = 0) throws(AHAPError) -> [UInt8] {
        var data: [UInt8] = []
        // One byte more than expected, so reaching the end needs no reallocation.
        data.reserveCapacity(min(max(expectedSize, 0), limit) + 1)
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read: \(reason(errno))", source: source)
            }
            guard count > 0 else { return data }
            data.append(contentsOf: chunk[0..<count])
            if data.count > limit {
                throw failure("the input is larger than the \(describe(limit)) input limit", source: source)
            }
        }
    }

    /// A byte count as people write limits: `16 MiB`, or bytes when not a whole number of MiB.
    static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes)-byte"
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static func failure(_ message: String, source: String) -> AHAPError {
        AHAPError([AHAPDiagnostic(.error, at: "", message, source: source)])
    }
}
