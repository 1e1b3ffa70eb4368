import CLinuxInput
import Glibc
import Synchronization

/// A force-feedback device on an evdev node (`/dev/input/eventN`).
///
/// Opened read-write (playing an effect is a `write(2)`) and close-on-exec (a child process
/// must not keep the effects alive). Opening checks that the file is an input device
/// (`EVIOCGVERSION`), so `/dev/null` or a regular file fails at once with `ENOTTY` instead of
/// at the first upload.
///
/// The descriptor is atomic so ``close()`` may race a call in flight on another thread (the
/// SIGINT path): that call then fails with `EBADF` rather than touching a closed descriptor.
package final class LinuxForceFeedbackDevice: ForceFeedbackDevice, @unchecked Sendable {
    /// How to open the node.
    package enum Access: Sendable {
        /// Read-write: what playing needs.
        case readWrite
        /// Read-only: enough to query the name and capabilities.
        case readOnly
    }

    /// The event device, e.g. `/dev/input/event17`.
    package let path: String
    private let descriptor: Atomic<Int32>

    /// Opens `path`; throws with `.open` (`ENOENT`, `EACCES`, …) or `.identify` (`ENOTTY`: not
    /// an input device).
    package init(path: String, access: Access = .readWrite) throws(ForceFeedbackDeviceError) {
        self.path = path
        let flags = (access == .readWrite ? O_RDWR : O_RDONLY) | O_CLOEXEC
        let fd = Glibc.open(path, flags)
        guard fd >= 0 else { throw ForceFeedbackDeviceError(.open, code: errno) }
        var version: Int32 = 0
        let result = haptics_get_version(fd, &version)
        guard result >= 0 else {
            _ = Glibc.close(fd)
            throw ForceFeedbackDeviceError(.identify, code: -result)
        }
        descriptor = Atomic(fd)
    }

    deinit { close() }

    private var fd: Int32 { descriptor.load(ordering: .acquiring) }

    package func name() throws(ForceFeedbackDeviceError) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let result = buffer.withUnsafeMutableBufferPointer { haptics_get_name(fd, $0.baseAddress, UInt32($0.count)) }
        guard result >= 0 else { throw ForceFeedbackDeviceError(.queryName, code: -result) }
        let bytes = buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    package func supportedEffects() throws(ForceFeedbackDeviceError) -> ForceFeedbackCapabilities {
        let eventTypes = try bitmap(type: 0, bitCount: Int(EV_CNT))
        let hasForceFeedback = eventTypes[Int(EV_FF) / UInt.bitWidth] & (1 << (UInt(EV_FF) % UInt(UInt.bitWidth))) != 0
        guard hasForceFeedback else { return ForceFeedbackCapabilities(bits: 0, simultaneousEffects: 0) }
        let effects = try bitmap(type: UInt32(EV_FF), bitCount: Int(FF_CNT))
        var count: Int32 = 0
        let result = haptics_get_effect_count(fd, &count)
        guard result >= 0 else { throw ForceFeedbackDeviceError(.queryCapabilities, code: -result) }
        return ForceFeedbackCapabilities(bitmapWords: effects, simultaneousEffects: Int(count))
    }

    /// `EVIOCGBIT(type, …)` as the kernel's `unsigned long` words, lowest first.
    private func bitmap(type: UInt32, bitCount: Int) throws(ForceFeedbackDeviceError) -> [UInt] {
        var words = [UInt](repeating: 0, count: (bitCount + UInt.bitWidth - 1) / UInt.bitWidth)
        let byteCount = UInt32(words.count * MemoryLayout<UInt>.size)
        let result = words.withUnsafeMutableBytes { haptics_get_bits(fd, type, $0.baseAddress, byteCount) }
        guard result >= 0 else { throw ForceFeedbackDeviceError(.queryCapabilities, code: -result) }
        return words
    }

    package func upload(_ effect: inout ff_effect) throws(ForceFeedbackDeviceError) {
        let result = haptics_upload_effect(fd, &effect)
        guard result >= 0 else { throw ForceFeedbackDeviceError(.upload, code: -result) }
    }

    package func erase(effectID: Int16) throws(ForceFeedbackDeviceError) {
        let result = haptics_erase_effect(fd, Int32(effectID))
        guard result >= 0 else { throw ForceFeedbackDeviceError(.erase, code: -result) }
    }

    package func write(_ event: input_event) throws(ForceFeedbackDeviceError) {
        var event = event
        let result = haptics_write_event(fd, &event)
        guard result >= 0 else { throw ForceFeedbackDeviceError(.write, code: -result) }
        // evdev takes whole events or fails; a short count means something else is there.
        guard result == haptics_event_size() else { throw ForceFeedbackDeviceError(.write, code: EIO) }
    }

    package func close() {
        let fd = descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { _ = Glibc.close(fd) }
    }
}
