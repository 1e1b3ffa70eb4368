import Foundation

/// A new folder only this user can enter, with a name no one can guess (`mkdtemp`), under the
/// system's temporary directory: the benchmarks' scratch space. A name made from the process
/// id could be made first, or linked elsewhere, by another local user (issue #24).
package func makePrivateFolder(prefix: String) throws -> URL {
    var template = Array((FileManager.default.temporaryDirectory.path + "/\(prefix)-XXXXXX").utf8CString)
    guard mkdtemp(&template) != nil else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mkdtemp: \(String(cString: strerror(errno)))"])
    }
    return URL(fileURLWithPath: template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, isDirectory: true)
}
