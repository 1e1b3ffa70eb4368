import FoundationEssentials
import Glibc
import Haptics
import HapticsSystem

/// A failure the tool reports as one line on stderr, with its exit code.
struct CLIError: Error {
    var message: String
    var code: ExitCode
    /// Whether ``message`` is already the whole line, such as a problem in a file beginning
    /// with its own `file:line:column:` (see ``JSONFileError/cliLine(severity:consequence:)``);
    /// otherwise the line is `haptics: message`.
    var isWholeLine = false

    /// The line printed on standard error.
    var line: String { isWholeLine ? message : "haptics: \(message)" }

    static func invalidInput(_ message: String) -> CLIError { CLIError(message: message, code: .invalidInput) }
    static func deviceUnavailable(_ message: String) -> CLIError { CLIError(message: message, code: .deviceUnavailable) }

    /// A profile that cannot be used: a problem in a profile file is printed at its place.
    static func invalidInput(_ error: ProfileError) -> CLIError {
        switch error {
        case .file(let failure):
            CLIError(message: failure.cliLine(), code: .invalidInput, isWholeLine: true)
        case .unknownProfile:
            invalidInput(error.description)
        }
    }
}

/// Writes to standard output without buffering surprises.
func writeStandardOutput(_ text: String) {
    writeAll(text, to: STDOUT_FILENO)
}

/// Writes one line to standard error: left out under `--quiet` when it is a warning or a note,
/// coloured when colours are on (``Diagnostics``).
func writeStandardError(_ line: String) {
    guard !Diagnostics.isSilenced(line) else { return }
    StandardError.write(Diagnostics.styled(line) + "\n")
}

/// Under `--verbose` (`-v`), one note on standard error saying what the command chose:
/// `haptics: note: TEXT`. Nothing otherwise, and nothing under `--quiet`.
func writeVerboseNote(_ text: @autoclosure () -> String) {
    guard Diagnostics.isVerbose else { return }
    writeStandardError("haptics: note: " + text())
}

/// Writes the line a failing command ends with: never left out, its tool name red when
/// colours are on, as clang's `error:`.
func writeErrorLine(_ line: String) {
    StandardError.write(Diagnostics.styled(line, isError: true) + "\n")
}

/// Straight to the descriptor, whole (short writes and EINTR are retried), without
/// Foundation's FileHandle (see `Double.fixed(_:)` for why the tool avoids Foundation proper).
func writeAll(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
        try? writeWhole(UnsafeRawBufferPointer(bytes)) { start, count, _ in Glibc.write(descriptor, start, count) }
    }
}
