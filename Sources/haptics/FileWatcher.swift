import Haptics
import FoundationEssentials
import HapticsSystem
#if canImport(Glibc)
    import Glibc
#endif

/// `--watch`: run a command again whenever one of its files changes, for the edit–look–listen
/// loop of authoring a pattern. Problems are printed each time; a bad edit never ends it.
/// Ctrl-C ends it.
struct WatchOptions {
    static let arguments: [ArgumentSpec] = [.flag("watch", help: "Run again whenever the pattern file changes (stop with Ctrl-C: exit 130).")]

    var watch: Bool

    init(_ arguments: ParsedArguments) {
        watch = arguments.flag("watch")
    }

    /// Runs `body` once, or under `--watch` again at each change of `input`'s file.
    func run(_ input: PatternInput, _ body: () throws -> Void) throws {
        guard watch else { return try body() }
        try FileWatcher.repeatedly(watching: [input.watchedFile()], body)
    }
}

/// Waits for files to change through inotify.
///
/// It watches the files' folders rather than the files themselves: editors save by writing a
/// new file and renaming it over the old one, which a watch on the old file would not see.
/// Changes that arrive within ``settle`` of each other count as one.
///
/// A folder renamed away or deleted (a checkout switching branches, a build tool replacing
/// it) is followed by its path, not by the folder: its watch is dropped, the folder's parent
/// is watched until a folder of that name is back (or, without a parent to watch, the path is
/// tried every ``retry``), and the new folder is watched from then on; its file counts as
/// changed if it is there.
final class FileWatcher: @unchecked Sendable {
    /// One watched file and where its folder's watch stands.
    private struct Watched {
        let folder: String
        let name: String
        /// The folder's parent and the folder's name in it.
        let parent: String
        let folderName: String
        /// The folder's watch; -1 while the folder is gone.
        var folderWatch: Int32 = -1
        /// The parent's watch while the folder is gone; -1 when there is none.
        var parentWatch: Int32 = -1
    }

    private let descriptor: Int32
    private var watched: [Watched]
    static let settle: Duration = .milliseconds(80)
    /// How often a folder whose parent cannot be watched either is looked for.
    static let retry: Duration = .milliseconds(250)
    private static let folderMask =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE)
        | UInt32(IN_MOVE_SELF) | UInt32(IN_DELETE_SELF) | UInt32(IN_MASK_ADD)
    private static let parentMask =
        UInt32(IN_CREATE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVE_SELF) | UInt32(IN_DELETE_SELF) | UInt32(IN_ONLYDIR) | UInt32(IN_MASK_ADD)

    /// Watches `paths` (files that exist, or will, in folders that exist).
    init(paths: [String]) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw CLIError.invalidInput("--watch: inotify is not available (\(Errno.current))") }
        watched = paths.map { path in
            let url = URL(fileURLWithPath: path)
            let folder = url.deletingLastPathComponent()
            return Watched(
                folder: folder.path, name: url.lastPathComponent, parent: folder.deletingLastPathComponent().path,
                folderName: folder.lastPathComponent)
        }
        for index in watched.indices {
            let watch = inotify_add_watch(descriptor, watched[index].folder, Self.folderMask)
            guard watch >= 0 else {
                close(descriptor)
                throw CLIError.invalidInput("--watch: cannot watch \(watched[index].folder) (\(Errno.current))")
            }
            watched[index].folderWatch = watch
        }
    }

    deinit { close(descriptor) }

    /// Blocks until one of the files changes, then lets the burst of events of one save pass.
    func waitForChange() {
        while !readEvents(timeout: -1) {}
        // An editor's save is several events (create, write, rename): wait until they stop.
        while readEvents(timeout: Self.milliseconds(Self.settle)) {}
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let c = duration.components
        return Int32(c.seconds * 1000 + c.attoseconds / 1_000_000_000_000_000)
    }

    /// Reads what is pending within `timeout` ms (-1: forever); true when a watched file changed.
    private func readEvents(timeout: Int32) -> Bool {
        // A folder gone with no parent to watch is looked for now and then.
        let searching = watched.contains { $0.folderWatch < 0 && $0.parentWatch < 0 }
        let wait = searching ? (timeout < 0 ? Self.milliseconds(Self.retry) : min(timeout, Self.milliseconds(Self.retry))) : timeout
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, wait)
        var changed = false
        if searching {
            for index in watched.indices where watched[index].folderWatch < 0 && watched[index].parentWatch < 0 {
                changed = reattach(index) || changed
            }
        }
        guard ready > 0 else { return changed }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return changed }
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        let gone = UInt32(IN_MOVE_SELF) | UInt32(IN_DELETE_SELF) | UInt32(IN_IGNORED) | UInt32(IN_UNMOUNT)
        while offset + header <= count {
            let (watch, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                return (event.wd, event.mask, Int(event.len))
            }
            let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            offset += header + length
            for index in watched.indices {
                if watch == watched[index].folderWatch {
                    if mask & gone != 0 {
                        // The folder went away (or moved elsewhere, where the watch would follow
                        // it): follow its path instead.
                        lose(index)
                        changed = reattach(index) || changed
                    } else if name == watched[index].name {
                        changed = true
                    }
                } else if watch == watched[index].parentWatch, watched[index].folderWatch < 0 {
                    if mask & gone != 0 {
                        // The parent went too: look for the path every `retry` instead.
                        let parentWatch = watched[index].parentWatch
                        watched[index].parentWatch = -1
                        drop(parentWatch)
                        changed = reattach(index, watchingParent: false) || changed
                    } else if name == watched[index].folderName {
                        changed = reattach(index) || changed
                    }
                }
            }
        }
        return changed
    }

    /// Drops the watch of a folder that went away (unless another file's folder shares it).
    private func lose(_ index: Int) {
        let watch = watched[index].folderWatch
        watched[index].folderWatch = -1
        drop(watch)
    }

    /// Removes a watch no watched file uses any more.
    private func drop(_ watch: Int32) {
        guard watch >= 0, !watched.contains(where: { $0.folderWatch == watch || $0.parentWatch == watch }) else { return }
        _ = inotify_rm_watch(descriptor, watch)
    }

    /// Watches the folder at its path again if it is there (true when its file is there too:
    /// it was made or moved in with the folder), or else the folder's parent, for its return.
    private func reattach(_ index: Int, watchingParent: Bool = true) -> Bool {
        let watch = inotify_add_watch(descriptor, watched[index].folder, Self.folderMask | UInt32(IN_ONLYDIR))
        if watch >= 0 {
            let parentWatch = watched[index].parentWatch
            watched[index].folderWatch = watch
            watched[index].parentWatch = -1
            drop(parentWatch)
            return access(watched[index].folder + "/" + watched[index].name, F_OK) == 0
        }
        if watchingParent, watched[index].parentWatch < 0 {
            watched[index].parentWatch = inotify_add_watch(descriptor, watched[index].parent, Self.parentMask)
            // The folder may have come back between the two calls.
            if watched[index].parentWatch >= 0, access(watched[index].folder, F_OK) == 0 { return reattach(index) }
        }
        return false
    }

    /// Runs `body` now and again after every change of `paths`, printing what it throws
    /// instead of ending; never returns (Ctrl-C ends the process).
    static func repeatedly(watching paths: [String], _ body: () throws -> Void) throws -> Never {
        let watcher = try FileWatcher(paths: paths)
        // Ctrl-C or SIGTERM ends the watch, also when the signals arrived blocked (a child of a
        // process that blocks them, as test runners and libdispatch threads do), as it ends
        // every command: a write in progress left undone, 130 or 143 and one line.
        removeUnfinishedFilesOnSignals()
        while true {
            // Every run ends with one line saying when it ran and how it went, so a silent
            // success (render, plot) is told from a run that never happened.
            var outcome = "done"
            do {
                try body()
            } catch let error as CLIError {
                writeStandardError(error.line)
                outcome = "failed"
            } catch let error as ExitCode where error != .success {
                // The command printed its own report (validate's invalid files).
                outcome = "failed"
            } catch {
                writeStandardError("haptics: \(error)")
                outcome = "failed"
            }
            writeStandardError("haptics: \(clockTime()) \(outcome); watching \(paths.joined(separator: ", ")) for changes (Ctrl-C to stop)")
            watcher.waitForChange()
        }
    }

    /// The local time of day, `14:03:27`.
    static func clockTime() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var text = [CChar](repeating: 0, count: 16)
        let length = strftime(&text, text.count, "%H:%M:%S", &parts)
        return String(decoding: text.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
