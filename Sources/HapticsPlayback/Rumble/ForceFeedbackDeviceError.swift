import Glibc
import HapticsSystem

/// A failed kernel call on a force-feedback device: which call, and the `errno` it set.
///
/// A plain value so that throwing it (typed) allocates nothing: the control thread may hit
/// one mid-play. ``RumbleOutputError`` turns it into the message a user reads.
package struct ForceFeedbackDeviceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call that failed.
    package enum Operation: String, Sendable, Hashable {
        /// `open(2)` of the device node.
        case open
        /// `EVIOCGVERSION`, which tells an evdev node from any other file.
        case identify
        /// `EVIOCGNAME`.
        case queryName
        /// `EVIOCGBIT` or `EVIOCGEFFECTS`.
        case queryCapabilities
        /// `EVIOCSFF`.
        case upload
        /// `EVIOCRMFF`.
        case erase
        /// `write(2)` of an `input_event`.
        case write
    }

    /// The call that failed.
    package var operation: Operation
    /// The `errno` value (`ENODEV`, `EACCES`, …).
    package var code: Int32

    /// Creates an error for `operation` failing with `errno` value `code`.
    package init(_ operation: Operation, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// The system's text for ``code``, e.g. "No such device".
    package var systemMessage: String { Errno(code).description }

    package var description: String { "\(operation.rawValue) failed: \(systemMessage) (errno \(code))" }
}
