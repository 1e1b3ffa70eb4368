import FoundationEssentials
import HapticsSystem

/// Reads AHAP input from files and descriptors without ever holding more than the input
/// limit in memory: a regular file's size is checked before reading, and anything else
/// (pipes, devices) is read until the limit is passed (`BoundedFile`).
enum AHAPInputReader {
    /// The contents of a file.
    static func read(contentsOf url: URL, source: String, limit: Int) throws(AHAPError) -> [UInt8] {
        guard url.isFileURL else {
            throw failure("only local files can be read, not \(url.absoluteString)", source: source)
        }
        return try read(path: url.path, source: source, limit: limit)
    }

    /// The contents of the file at `path`.
    static func read(path: String, source: String, limit: Int) throws(AHAPError) -> [UInt8] {
        do {
            return try BoundedFile.read(path: path, limit: limit, streams: true)
        } catch {
            throw failure(error, source: source, limit: limit)
        }
    }

    /// Everything a file descriptor delivers until its end, refusing more than `limit` bytes.
    static func read(fileDescriptor descriptor: Int32, source: String, limit: Int) throws(AHAPError) -> [UInt8] {
        do {
            return try BoundedFile.read(descriptor: descriptor, limit: limit)
        } catch {
            throw failure(error, source: source, limit: limit)
        }
    }

    /// A byte count as people write limits: `16 MiB`, or bytes when not a whole number of MiB.
    static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes)-byte"
    }

    private static func failure(_ problem: BoundedFile.Failure, source: String, limit: Int) -> AHAPError {
        switch problem {
        case .noSuchFile: failure("no such file", source: source)
        case .notAFile: failure("is a directory, not an AHAP file", source: source)
        case .tooLarge(let size?): failure("the file is \(size) bytes, more than the \(describe(limit)) input limit", source: source)
        case .tooLarge(nil): failure("the input is larger than the \(describe(limit)) input limit", source: source)
        case .cannotOpen(let error): failure("cannot open the file: \(error)", source: source)
        case .cannotRead(let error): failure("cannot read: \(error)", source: source)
        }
    }

    private static func failure(_ message: String, source: String) -> AHAPError {
        AHAPError([AHAPDiagnostic(.error, at: "", message, source: source)])
    }
}
