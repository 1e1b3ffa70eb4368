import BenchmarkSupport
import Foundation

/// Runs `command` with `/bin/sh -c` (the environment plus `environment`) and waits for it:
/// its exit status and everything it wrote, both streams together (through a file: a pipe
/// would need a reader while the command runs).
public func shell(_ command: String, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let folder = try TemporaryFolder(prefix: "haptics-shell")
    let output = folder.file("output")
    let process = try ChildProcess(
        ["/bin/sh", "-c", command], environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, standardOutput: .file(output),
        standardError: .descriptor(1))
    let status = process.wait().status
    return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
}
