import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// A 16 KiB tmpfs mounted on a fresh folder, for running writers out of disk space (ENOSPC).
/// Needs the right to mount (root, or a user namespace that grants it); tests that use it are
/// skipped with ``unavailableMessage`` otherwise.
public final class SmallFileSystem {
    /// The mount point; files written here fail with ENOSPC beyond 16 KiB.
    public let url: URL
    private let parent: URL

    /// Whether this process may mount a tmpfs (checked once, by mounting one).
    public static let isAvailable: Bool = (try? SmallFileSystem()) != nil
    public static let unavailableMessage: Comment = "mounting a tmpfs is not permitted here (needs root); the out-of-space tests are skipped"

    /// Mounts a tmpfs of `kilobytes` KiB on a new folder under the temporary directory.
    public init(kilobytes: Int = 16) throws {
        parent = FileManager.default.temporaryDirectory.appendingPathComponent("haptics-small-fs-\(UUID().uuidString)")
        url = parent.appendingPathComponent("mnt")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard mount("tmpfs", url.path, "tmpfs", 0, "size=\(kilobytes)k,mode=0777") == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: parent)
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSLocalizedDescriptionKey: "mount: \(reason)"])
        }
    }

    deinit {
        umount2(url.path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(at: parent)
    }

    /// A path inside the file system.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The names in the file system's root, sorted (to check that no temporary file is left).
    public func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}
