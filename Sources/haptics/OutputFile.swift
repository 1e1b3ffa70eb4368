import FoundationEssentials
import Haptics
import HapticsSystem

/// Writes a command's text output to a file, or to standard output for `-`, through
/// ``AtomicFile``: the target is replaced only by a complete, flushed file, and a failure is
/// one line naming the path and the system's reason, `PATH: cannot write the file (No space
/// left on device)`, with exit status 1.
enum OutputFile {
    static func write(_ data: Data, to path: String) throws(CLIError) {
        do {
            let file = try AtomicFile(path: path)
            try file.write([UInt8](data))
            try file.commit()
        } catch {
            throw CLIError.invalidInput(error.description)
        }
    }
}
