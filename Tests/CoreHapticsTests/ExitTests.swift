import Foundation
import HapticsTestSupport
import Testing

/// Runs one of the README's snippets (built by `swift build` next to the `haptics` binary) with
/// its engines on a WAV file, and reads the file it left.
private func runSnippet(_ name: String) throws -> (status: Int32, output: String, file: WAVFile) {
    let folder = try TemporaryFolder(prefix: "corehaptics-exit")
    let program = try #require(
        HapticsProcess.executable?.deletingLastPathComponent().appendingPathComponent(name),
        "the haptics binary is not built")
    try #require(FileManager.default.isExecutableFile(atPath: program.path), "\(program.path) is not built (swift build builds Snippets/)")
    let wav = folder.file("out.wav")
    // timeout(1): a program that does not exit fails the test instead of hanging it.
    let (status, output) = try shell("timeout 60 '\(program.path)'", environment: ["HAPTICS_DEVICE": "file:'\(wav.path)',wav"])
    return (status, output, try WAVFile(contentsOf: wav))
}

@Suite("CoreHaptics and Haptics close their outputs when the program exits")
struct ExitTests {
    @Test("the README's CoreHaptics example, which exits right after starting a player, leaves a WAV whose header counts its tap")
    func coreHapticsExampleLeavesValidFile() throws {
        let (status, output, file) = try runSnippet("PortingFromIOS")
        #expect(status == 0, "\(output)")
        // Before, the header said 0 bytes of data (the file plugin had never been closed).
        #expect(file.dataSize > 0)
        #expect(file.dataSize == file.dataBytesInFile, "header \(file.dataSize) bytes, file \(file.dataBytesInFile)")
        let samples = file.bitsPerSample == 32 ? file.float32Samples : file.int16Samples.map { Float($0) / 32768 }
        let haptic = WAVFile.channel(0, of: samples, channels: file.channelCount)
        #expect(Signal.onsets(haptic, gap: 240).count == 1, "the tap was heard before the output closed")
    }

    @Test("a program ending with fire-and-forget Haptics.play leaves a WAV whose header counts every sample, the last feedback included")
    func hapticsPlayLeavesValidFile() throws {
        let (status, output, file) = try runSnippet("PlayAndExit")
        #expect(status == 0, "\(output)")
        #expect(file.dataSize > 0)
        #expect(file.dataSize == file.dataBytesInFile, "header \(file.dataSize) bytes, file \(file.dataBytesInFile)")
    }

    @Test("the README's Haptics example on a machine without a device prints one line naming the problem and exits 1, not Swift's crash report")
    func hapticsExampleWithoutDeviceFailsInOneLine() throws {
        let program = try #require(
            HapticsProcess.executable?.deletingLastPathComponent().appendingPathComponent("PlayAndExit"),
            "the haptics binary is not built")
        try #require(FileManager.default.isExecutableFile(atPath: program.path), "\(program.path) is not built (swift build builds Snippets/)")
        // An evdev node that does not exist: the output the environment names cannot be opened.
        let (status, output) = try shell("timeout 60 '\(program.path)'", environment: ["HAPTICS_DEVICE": "/dev/input/event-missing"])
        let lines = output.split(separator: "\n")
        #expect(status == 1, "\(output)")
        #expect(lines.count == 1, "one line, not a crash report: \(output)")
        #expect(lines.first?.hasPrefix("no haptic feedback: ") == true && output.contains("event-missing"), "\(output)")
    }

    @Test("the DocC article's pattern dictionary snippet runs: a Key-keyed literal, JSONSerialization both ways, String-keyed JSON, the same pattern each time")
    func patternDictionarySnippetRuns() throws {
        let program = try #require(
            HapticsProcess.executable?.deletingLastPathComponent().appendingPathComponent("PatternDictionaries"),
            "the haptics binary is not built")
        try #require(FileManager.default.isExecutableFile(atPath: program.path), "\(program.path) is not built (swift build builds Snippets/)")
        let (status, output) = try shell("timeout 60 '\(program.path)'")
        #expect(status == 0, "\(output)")
        #expect(output == "true\n", "\(output)")
    }
}
