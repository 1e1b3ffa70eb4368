import Dispatch
import FoundationEssentials
import Glibc
import HapticsRender
import Synchronization

/// Watches a folder of evdev nodes (`/dev/input`, or a folder tests give) for devices coming
/// and going, through inotify, and reports each `eventN` created or removed on a thread of
/// its own (`haptics-hotplug`).
///
/// A node udev creates is reported when it appears and again when its permissions change
/// (udev grants access just after), so a consumer treats ``Change/added(_:)`` as "look again".
package final class HapticOutputWatcher: @unchecked Sendable {
    /// What changed.
    package enum Change: Sendable, Equatable {
        /// A node appeared (or its permissions changed): its path.
        case added(String)
        /// A node went away (the device was unplugged): its path.
        case removed(String)
    }

    private let inotify: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)

    /// Starts watching `directory`; nil when inotify cannot watch it (no such folder).
    package init?(directory: String, onChange: @escaping @Sendable (Change) -> Void) {
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { return nil }
        let mask = UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM) | UInt32(IN_ATTRIB)
        var pipeEnds: [Int32] = [-1, -1]
        guard inotify_add_watch(inotify, directory, mask) >= 0, pipe(&pipeEnds) == 0 else {
            close(inotify)
            return nil
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.inotify = inotify
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        let (wake, done) = (pipeEnds[0], finished)
        let thread = SystemThread {
            Self.run(inotify: inotify, wake: wake, directory: directory, onChange: onChange)
            done.signal()
        }
        thread.name = "haptics-hotplug"
        thread.start()
    }

    deinit { stop() }

    /// Stops watching and waits for the thread to end. Idempotent; not from `onChange`.
    package func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        finished.wait()
        close(inotify)
        close(wakeRead)
        close(wakeWrite)
    }

    private static func run(inotify: Int32, wake: Int32, directory: String, onChange: @Sendable (Change) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let header = MemoryLayout<inotify_event>.size
        while true {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            var offset = 0
            while offset + header <= count {
                let (mask, length) = buffer.withUnsafeBytes { raw -> (UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset += header + length
                guard RumbleDevices.eventNumber(name) != nil else { continue }
                let path = directory + "/" + name
                if mask & (UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)) != 0 {
                    onChange(.removed(path))
                } else {
                    onChange(.added(path))
                }
            }
        }
    }
}
