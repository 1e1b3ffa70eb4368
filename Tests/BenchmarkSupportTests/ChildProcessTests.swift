import BenchmarkSupport
import Foundation
import HapticsTestSupport
import Testing

@Suite("ChildProcess: working directory, pipes and inherited descriptors")
struct ChildProcessTests {
    @Test("a child runs in the working directory it is given; one that does not exist is a spawn error, not a child elsewhere")
    func workingDirectory() throws {
        let folder = try TemporaryFolder(prefix: "haptics-child")
        let pwd = try ChildProcess(["/bin/sh", "-c", "pwd -P"], environment: nil, standardOutput: .pipe, workingDirectory: folder.url)
        let printed = String(decoding: try #require(pwd.outputPipe).readDataToEndOfFile(), as: UTF8.self)
        #expect(pwd.wait().status == 0)
        #expect(printed == folder.url.resolvingSymlinksInPath().path + "\n")

        let missing = folder.file("missing")
        #expect(throws: ChildProcess.SpawnError.self) {
            try ChildProcess(["/bin/sh", "-c", "exit 0"], environment: nil, workingDirectory: missing)
        }
    }

    @Test("standard input and output as pipes: what is written comes back, and closing the input ends the child")
    func inputAndOutputPipes() throws {
        let cat = try ChildProcess(["/bin/cat"], environment: nil, standardInput: .pipe, standardOutput: .pipe)
        let input = try #require(cat.inputPipe)
        let output = try #require(cat.outputPipe)
        #expect(cat.errorPipe == nil, "standard error was not asked for as a pipe")
        try input.write(contentsOf: Data("one line\n".utf8))
        // An interactive exchange: the line comes back while the input is still open.
        var descriptor = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 30_000) == 1, "cat did not echo within 30 s")
        #expect(String(decoding: output.availableData, as: UTF8.self) == "one line\n")
        try input.close()
        #expect(output.readDataToEndOfFile().isEmpty)
        #expect(cat.wait(timeout: .seconds(30)) == 0, "end of file on its input did not end cat")
    }

    /// A client process that died while a test wrote to it killed the whole suite with SIGPIPE
    /// (exit by signal 13 in CI, every other result lost).
    @Test("writing to a child that has ended throws EPIPE; this process goes on")
    func writingToAnEndedChild() throws {
        let child = try ChildProcess(["/bin/sh", "-c", "exit 0"], environment: nil, standardInput: .pipe)
        let input = try #require(child.inputPipe)
        #expect(child.wait(timeout: .seconds(30)) == 0)
        #expect(throws: (any Error).self) { try input.write(contentsOf: Data("after the end\n".utf8)) }
    }

    @Test("standard output and error as two pipes keep apart what the child wrote to each")
    func outputAndErrorPipes() throws {
        let child = try ChildProcess(
            ["/bin/sh", "-c", "echo out; echo err >&2; exit 3"], environment: nil, standardOutput: .pipe, standardError: .pipe)
        #expect(String(decoding: try #require(child.outputPipe).readDataToEndOfFile(), as: UTF8.self) == "out\n")
        #expect(String(decoding: try #require(child.errorPipe).readDataToEndOfFile(), as: UTF8.self) == "err\n")
        #expect(child.wait().status == 3)
    }

    @Test("a child inherits only its standard streams: it cannot hold another pipe of this process open")
    func onlyStandardStreamsInherited() throws {
        // A pipe made without close-on-exec, as any library may make one.
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let sleeper = try ChildProcess(["/bin/sleep", "60"], environment: nil)
        close(ends[1])
        // With the write end only here, closing it is the reader's end of file at once; had the
        // child inherited it, the reader would wait as long as the child lives.
        var descriptor = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 10_000) == 1, "the child holds the pipe open")
        #expect(descriptor.revents & Int16(POLLHUP) != 0)
        sleeper.stop(signal: SIGKILL)
    }
}
