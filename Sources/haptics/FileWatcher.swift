import Haptics
import FoundationEssentials
#if canImport(Glibc)
    import Glibc
#endif

/// `--watch`: run a command again whenever one of its files changes, for the edit–look–listen
/// loop of authoring a pattern. Problems are printed each time; a bad edit never ends it.
/// Ctrl-C ends it.
struct WatchOptions {
    static let arguments: [ArgumentSpec] = [.flag("watch", help: "Run again whenever the pattern file changes (stop with Ctrl-C).")]

    var watch: Bool

    init(_ arguments: ParsedArguments) {
        watch = arguments.flag("watch")
    }
}

/// Waits for files to change through inotify.
///
/// It watches the files' folders rather than the files themselves: editors save by writing a
/// new file and renaming it over the old one, which a watch on the old file would not see.
/// Changes that arrive within ``settle`` of each other count as one.
final class FileWatcher: @unchecked Sendable {
    private let descriptor: Int32
    private let names: [Int32: Set<String>]
    static let settle: Duration = .milliseconds(80)

    /// Watches `paths` (files that exist, or will).
    init(paths: [String]) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw CLIError.invalidInput("--watch: inotify is not available (\(String(cString: strerror(errno))))") }
        var names: [Int32: Set<String>] = [:]
        for path in paths {
            let url = URL(fileURLWithPath: path)
            let folder = url.deletingLastPathComponent().path
            let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE)
            let watch = inotify_add_watch(descriptor, folder, mask)
            guard watch >= 0 else {
                close(descriptor)
                throw CLIError.invalidInput("--watch: cannot watch \(folder) (\(String(cString: strerror(errno))))")
            }
            names[watch, default: []].insert(url.lastPathComponent)
        }
        self.names = names
    }

    deinit { close(descriptor) }

    /// Blocks until one of the files changes, then lets the burst of events of one save pass.
    func waitForChange() {
        while !readEvents(timeout: -1) {}
        // An editor's save is several events (create, write, rename): wait until they stop.
        let c = Self.settle.components
        while readEvents(timeout: Int32(c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000)) {}
    }

    /// Reads what is pending within `timeout` ms (-1: forever); true when a watched file changed.
    private func readEvents(timeout: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, timeout)
        guard ready > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        var changed = false
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let (watch, length) = buffer.withUnsafeBytes { raw -> (Int32, Int) in
                let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                return (event.wd, Int(event.len))
            }
            let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if names[watch]?.contains(name) == true { changed = true }
            offset += header + length
        }
        return changed
    }

    /// Runs `body` now and again after every change of `paths`, printing what it throws
    /// instead of ending; never returns (Ctrl-C ends the process).
    static func repeatedly(watching paths: [String], _ body: () throws -> Void) throws -> Never {
        let watcher = try FileWatcher(paths: paths)
        // Ctrl-C or SIGTERM ends the watch, also when the signals arrived blocked (a child of a
        // process that blocks them, as test runners and libdispatch threads do).
        let interruption = SignalWatcher(signals: [SIGINT, SIGTERM])
        interruption.onSignal {
            // A write in progress leaves its target as it was and no temporary file.
            AtomicFile.removeTemporaryFiles()
            exit(128 + (interruption.signal ?? SIGINT))
        }
        while true {
            do {
                try body()
            } catch let error as CLIError {
                writeStandardError(error.line)
            } catch let error as ExitCode where error != .success {
                // The command printed its own report (validate's invalid files).
            } catch {
                writeStandardError("haptics: \(error)")
            }
            writeStandardError("haptics: watching \(paths.joined(separator: ", ")) for changes (Ctrl-C to stop)")
            watcher.waitForChange()
        }
    }
}
