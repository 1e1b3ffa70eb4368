import Foundation
import HapticsTestSupport
import Testing

/// `--no-clobber` (`-n`): the README's sequences (convert there and back, analyze beside a
/// render) cannot replace their own inputs when asked not to.
@Suite("--no-clobber")
struct NoClobberTests {
    @Test(
        "every command that writes a file refuses an existing one with -n, leaves it as it was, and writes a new one",
        arguments: [
            ["render", "success", "-o", "out.wav"], ["export", "success", "-o", "out.ahap"], ["convert", "success", "-o", "out.haptic"],
            ["plot", "success", "-o", "out.svg"],
        ])
    func refusesExistingFile(arguments: [String]) async throws {
        let folder = try TemporaryFolder()
        let output = arguments[3]
        _ = try folder.write(output, "precious")
        for flag in ["-n", "--no-clobber"] {
            let refused = try await HapticsProcess.run(arguments + [flag], in: folder.url, timeout: .seconds(60))
            #expect(refused.status == 1, "\(arguments) \(flag)")
            #expect(refused.errorLines == ["haptics: \(output): the file exists; not replaced (--no-clobber)"])
            #expect(try String(contentsOf: folder.file(output), encoding: .utf8) == "precious")
        }
        let fresh = try await HapticsProcess.run(Array(arguments.dropLast()) + ["new-" + output, "-n"], in: folder.url, timeout: .seconds(60))
        #expect(fresh.status == 0, "\(fresh.errorLines)")
        #expect(FileManager.default.fileExists(atPath: folder.path("new-" + output)))
    }

    @Test("the README's sequences write beside their inputs, not over them")
    func readmeSequences() throws {
        let readme = try String(contentsOf: DistributionTests.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(!readme.contains("haptics convert Boing.haptic -o Boing.ahap"))
        #expect(!readme.contains("haptics analyze explosion.wav -o explosion.ahap"))
    }
}
