import Foundation

/// A fresh folder under the system's temporary directory, removed with everything in it when
/// the value is released: hold it in a local and the folder lives exactly as long as the test.
///
/// The one place tests make scratch folders, so that none is left behind and none is shared:
/// every instance gets its own UUID-named folder.
public final class TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Creates the folder; `prefix` starts its name, to tell whose files a stray folder holds.
    public init(prefix: String = "haptics-tests") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The folder's path.
    public var path: String { url.path }

    /// The URL of `name` (which may contain `/`) inside the folder; nothing is created.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The path of `name` inside the folder; nothing is created.
    public func path(_ name: String) -> String { file(name).path }

    /// Writes `text` as UTF-8 to `name`, creating the folders on its path, and returns its URL.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> URL {
        try write(name, Data(text.utf8))
    }

    /// Writes `data` to `name`, creating the folders on its path, and returns its URL.
    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> URL {
        let file = file(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }
}
