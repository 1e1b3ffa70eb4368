import ArgumentParser
import Foundation

/// A failure the tool reports as one line on stderr, with its exit code.
struct CLIError: Error {
    var message: String
    var code: ExitCode

    static func invalidInput(_ message: String) -> CLIError { CLIError(message: message, code: .invalidInput) }
    static func deviceUnavailable(_ message: String) -> CLIError { CLIError(message: message, code: .deviceUnavailable) }
}

extension ExitCode {
    /// The input (a pattern, a profile, a settings file) is invalid.
    static let invalidInput = ExitCode(1)
    /// The output device is missing, busy or refused.
    static let deviceUnavailable = ExitCode(69)
    /// Stopped by SIGINT or SIGTERM.
    static let interrupted = ExitCode(130)
}

/// Writes to standard output without buffering surprises.
func writeStandardOutput(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

/// Writes one line to standard error.
func writeStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
