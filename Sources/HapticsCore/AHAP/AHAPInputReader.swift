import Foundation

/// Reads AHAP input from files and file handles without ever holding more than the input
/// limit in memory: a regular file's size is checked before reading, and anything else
/// (pipes, devices) is read in chunks until the limit is passed.
enum AHAPInputReader {
    private static let chunkSize = 1 << 16

    /// The contents of a file.
    static func read(contentsOf url: URL, source: String, limit: Int) throws(AHAPError) -> Data {
        guard url.isFileURL else {
            throw failure("only local files can be read, not \(url.absoluteString)", source: source)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw failure("no such file", source: source)
        }
        guard !isDirectory.boolValue else {
            throw failure("is a directory, not an AHAP file", source: source)
        }
        if let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
           attributes[.type] as? FileAttributeType == .typeRegular,
           let size = (attributes[.size] as? NSNumber)?.intValue,
           size > limit {
            throw failure("the file is \(size) bytes, more than the \(describe(limit)) input limit", source: source)
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw failure("cannot open the file: \(reason(error))", source: source)
        }
        defer { try? handle.close() }
        return try read(from: handle, source: source, limit: limit)
    }

    /// Everything a file handle delivers until its end, refusing more than `limit` bytes.
    static func read(from handle: FileHandle, source: String, limit: Int) throws(AHAPError) -> Data {
        var data = Data()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: chunkSize)
            } catch {
                throw failure("cannot read: \(reason(error))", source: source)
            }
            guard let chunk, !chunk.isEmpty else { return data }
            data.append(chunk)
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

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? error.localizedDescription
    }

    private static func failure(_ message: String, source: String) -> AHAPError {
        AHAPError([AHAPDiagnostic(.error, at: "", message, source: source)])
    }
}
