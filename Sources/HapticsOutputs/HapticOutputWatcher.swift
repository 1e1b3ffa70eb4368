import FoundationEssentials
import Glibc
import HapticsRender
import Synchronization
import HapticsSystem

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

    private let wakeWrite: Int32
    private let finished = SystemSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)
    /// The watching thread's `pthread_self()`, so that a stop from inside `onChange` (an
    /// engine released there) does not wait for itself.
    private let thread = ThreadMark()

    /// Which thread watches, readable from any.
    private final class ThreadMark: Sendable {
        let id = Atomic<UInt>(0)
    }

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
        wakeWrite = pipeEnds[1]
        let (wake, wakeWrite, done, mark) = (pipeEnds[0], pipeEnds[1], finished, thread)
        let watching = SystemThread {
            mark.id.store(UInt(pthread_self()), ordering: .releasing)
            Self.run(inotify: inotify, wake: wake, directory: directory, onChange: onChange)
            // The thread owns the descriptors: it closes them once told to stop.
            close(inotify)
            close(wake)
            close(wakeWrite)
            done.signal()
        }
        watching.name = "haptics-hotplug"
        watching.start()
    }

    deinit { stop() }

    /// Stops watching and waits for the thread to end (from `onChange` itself, it only asks).
    /// Idempotent.
    package func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        if thread.id.load(ordering: .acquiring) != UInt(pthread_self()) { finished.wait() }
    }

    private static func run(inotify: Int32, wake: Int32, directory: String, onChange: @Sendable (Change) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let header = MemoryLayout<inotify_event>.size
        while true {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            guard (try? systemCall { poll(&fds, 2, -1) }) != nil else {
                // Nothing more can be watched; the descriptors stay open until stop() says so.
                var byte: UInt8 = 0
                _ = read(wake, &byte, 1)
                return
            }
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
