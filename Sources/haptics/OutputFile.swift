import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a command's text output to a file, or to standard output for `-`, failing with the
/// same one-line message as the WAV writer: `PATH: cannot create the file (Is a directory)`.
/// Foundation's own errors on Linux read "The operation could not be completed", which
/// names neither the cause nor a fix.
enum OutputFile {
    static func write(_ data: Data, to path: String) throws(CLIError) {
        if path == "-" {
            FileHandle.standardOutput.write(data)
            return
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CLIError.invalidInput("\(path): cannot create the file (\(reason(errno)))") }
        defer { close(fd) }
        let failure: Int32? = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw CLIError.invalidInput("\(path): cannot write the file (\(reason(failure)))") }
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
