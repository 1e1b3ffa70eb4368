import FoundationEssentials
#if canImport(Glibc)
    import Glibc
#endif

/// Folders only this user can enter, for files the toolkit writes under names of its own
/// choosing (`play`'s render when there is no audio output, a benchmark's scratch files).
///
/// A fixed name in a folder others can write to (`/tmp/haptics/success.wav`) lets another
/// local user make that folder first and plant `success.wav → your notes`, which a writer
/// then replaces. A folder here is used only when it is a real folder (not a link), owned by
/// this user and writable by no one else; it is created mode 0700.
package enum PrivateFolder {
    /// The user's cache folder for the toolkit, `$XDG_CACHE_HOME/haptics` (an absolute
    /// `XDG_CACHE_HOME`) or `~/.cache/haptics`, created when missing; for files the user is
    /// told about and may want again. When it cannot be used (no home, or a folder another
    /// user made or can write to), a new folder from ``makeTemporary(prefix:)`` instead.
    ///
    /// - Parameter environment: the process's environment variables (replaceable in tests).
    package static func cache(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) throws(FileWriteError) -> String {
        var base: String?
        if let value = environment("XDG_CACHE_HOME"), value.hasPrefix("/") {
            base = value
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            base = (home == "/" ? "" : home) + "/.cache"
        }
        if let base {
            // The cache's own folder is made private too when it is new (as XDG asks).
            _ = mkdir(base, 0o700)
            let folder = base + "/haptics"
            if mkdir(folder, 0o700) == 0 || errno == EEXIST, isPrivate(folder) { return folder }
        }
        return try makeTemporary(in: environment("TMPDIR"), prefix: "haptics")
    }

    /// A new folder in `parent` (by default `$TMPDIR`, or `/tmp`), `PREFIX-XXXXXX`, made by
    /// `mkdtemp`: a name no one could have known, mode 0700. The caller removes it when done.
    package static func makeTemporary(in parent: String? = nil, prefix: String) throws(FileWriteError) -> String {
        var root = parent ?? getenv("TMPDIR").map { String(cString: $0) } ?? ""
        if !root.hasPrefix("/") { root = "/tmp" }
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        let path = (root == "/" ? "" : root) + "/\(prefix)-XXXXXX"
        var template = Array(path.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else { throw FileWriteError(path: root, stage: .create, code: errno) }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `path` is a folder, not a link, owned by this user and writable by no other.
    package static func isPrivate(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFDIR && info.st_uid == geteuid() && info.st_mode & 0o022 == 0
    }

    /// Makes `path`, in a private folder, free for a new file: a link or anything but a
    /// regular file found there is removed (not followed), so that writing creates a file.
    package static func clear(_ path: String) {
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG { _ = unlink(path) }
    }

    /// Removes a folder made by ``makeTemporary(prefix:)`` with the files in it (not its
    /// subfolders); what cannot be removed stays.
    package static func remove(_ folder: String) {
        if let names = try? FileManager.default.contentsOfDirectory(atPath: folder) {
            for name in names { _ = unlink(folder + "/" + name) }
        }
        _ = rmdir(folder)
    }
}
