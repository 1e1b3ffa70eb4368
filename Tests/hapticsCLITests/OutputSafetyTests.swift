import Foundation
import HapticsCore
import HapticsRender
import HapticsTestSupport
import Testing

/// Nothing is lost: every file the command writes replaces its target only when complete. On
/// a full disk the old file is intact, no temporary file is left, the exit status is 1 and the
/// message is one line; concurrent writers to one path each produce a complete file.
@Suite("Output files are written atomically")
struct OutputSafetyTests {
    /// A 20-second pattern whose WAV, rumble timeline and AHAP export are all well over 16 KiB.
    static let longPattern: String = {
        var events = (0..<200).map { i in
            "{ \"Event\": { \"Time\": \(Double(i) / 10), \"EventType\": \"HapticTransient\", \"EventParameters\": [ { \"ParameterID\": \"HapticIntensity\", \"ParameterValue\": 0.\(i % 9 + 1) } ] } }"
        }
        events.append(
            "{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticContinuous\", \"EventDuration\": 20, \"EventParameters\": [ { \"ParameterID\": \"HapticIntensity\", \"ParameterValue\": 0.3 } ] } }"
        )
        return "{ \"Pattern\": [\n" + events.joined(separator: ",\n") + "\n] }"
    }()

    static let oldContents = Data("the old file, which must survive\n".utf8)

    @Test(
        "out of space: render -o x.wav, --rumble -o x.csv, --rumble --json, export -o, plot -o x.svg: exit 1, one line, the old file intact, no temporary file",
        .enabled(if: SmallFileSystem.isAvailable, SmallFileSystem.unavailableMessage),
        arguments: [
            (["render", "long.ahap"], "out.wav"),
            (["render", "long.ahap", "--rumble"], "out.csv"),
            (["render", "long.ahap", "--rumble", "--json"], "out.json"),
            (["export", "long.ahap"], "out.ahap"),
            (["plot", "long.ahap"], "out.svg"),
        ])
    func outOfSpace(command: [String], name: String) async throws {
        let folder = try TemporaryFolder()
        try folder.write("long.ahap", Self.longPattern)
        let small = try SmallFileSystem()
        let path = small.path(name)
        try Self.oldContents.write(to: URL(fileURLWithPath: path))
        let result = try await HapticsProcess.run(command + ["-o", path], in: folder.url, timeout: .seconds(60))
        #expect(result.status == 1)
        #expect(result.errorLines == ["haptics: \(path): cannot write the file (No space left on device)"])
        #expect(result.output.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.oldContents)
        #expect(try small.names() == [name])
    }

    @Test(
        "a new file on a full disk: exit 1 and no file at all, not a truncated one",
        .enabled(if: SmallFileSystem.isAvailable, SmallFileSystem.unavailableMessage))
    func outOfSpaceNewFile() async throws {
        let folder = try TemporaryFolder()
        try folder.write("long.ahap", Self.longPattern)
        let small = try SmallFileSystem()
        let path = small.path("new.wav")
        let result = try await HapticsProcess.run(["render", "long.ahap", "-o", path], in: folder.url, timeout: .seconds(60))
        #expect(result.status == 1)
        #expect(result.errorLines == ["haptics: \(path): cannot write the file (No space left on device)"])
        #expect(try small.names().isEmpty)
    }

    /// A continuous event whose length tells the twenty patterns apart.
    static func pattern(_ index: Int) -> String {
        """
        { "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticContinuous", "EventDuration": \(0.05 + Double(index) * 0.01),
          "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": \(0.3 + Double(index) * 0.03) },
                               { "ParameterID": "HapticSharpness", "ParameterValue": \(Double(index) * 0.05) } ] } } ] }
        """
    }

    @Test("20 renders of different patterns to one path at once: the file is one complete WAV, a render of one of them")
    func concurrentWriters() async throws {
        let folder = try TemporaryFolder()
        for index in 0..<20 { try folder.write("p\(index).ahap", Self.pattern(index)) }
        let directory = folder.url
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await HapticsProcess.run(["render", "p\(index).ahap", "-o", "out.wav"], in: directory, timeout: .seconds(120)).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 0, count: 20))
        let wav = try WAVFile(contentsOf: folder.url.appendingPathComponent("out.wav"))
        #expect(wav.riffSize == wav.fileSize - 8)
        #expect(wav.dataSize == wav.dataBytesInFile)
        let matches = try (0..<20).filter { index in
            let pattern = try AHAPDecoder().decode(Data(Self.pattern(index).utf8)).pattern
            let expected = HapticRenderer.render(pattern)
            return expected.frameCount == wav.frameCount && expected.samples.map(int16Sample) == wav.int16Samples
        }
        #expect(matches.count == 1, "the file is not exactly one of the twenty renders")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(names == (["out.wav"] + (0..<20).map { "p\($0).ahap" }).sorted())
    }

    @Test("SIGINT or SIGTERM during a long render: exit 130 or 143, the old file intact, no temporary file", arguments: [SIGINT, SIGTERM])
    func interruptedRender(signal: Int32) async throws {
        let folder = try TemporaryFolder()
        // Ten minutes of continuous events at 96 kHz in floats: 230 MB, many seconds to write.
        let events = (0..<20).map { "{ \"Event\": { \"Time\": \($0 * 30), \"EventType\": \"HapticContinuous\", \"EventDuration\": 30 } }" }
        try folder.write("long.ahap", "{ \"Pattern\": [ " + events.joined(separator: ", ") + " ] }")
        let output = folder.url.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let target = output.appendingPathComponent("long.wav")
        try Self.oldContents.write(to: target)
        let running = try BackgroundHaptics(["render", "long.ahap", "-o", target.path, "--sample-rate", "96000", "--format", "f32"], in: folder.url)
        // Waits for the temporary file to grow, then interrupts.
        func temporarySize() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
            return names.filter { $0 != "long.wav" }.compactMap {
                (try? FileManager.default.attributesOfItem(atPath: output.appendingPathComponent($0).path))?[.size] as? Int
            }.max() ?? 0
        }
        // Polls without suspending: a busy test pool could resume a sleeping task only after
        // the render had finished.
        Wait.until(timeout: .seconds(30), interval: .milliseconds(2)) { temporarySize() >= 1_000_000 }
        #expect(temporarySize() >= 1_000_000, "the render's temporary file did not appear")
        running.send(signal)
        let outcome = try await running.wait(timeout: .seconds(30))
        #expect(outcome.exited)
        #expect(outcome.status == 128 + signal)
        #expect(outcome.errorLines.last == (signal == SIGINT ? "haptics: interrupted" : "haptics: terminated"))
        #expect(try Data(contentsOf: target) == Self.oldContents)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["long.wav"])
    }

    @Test("special targets are written in place: /dev/null stays a device, and the WAV goes through a symlink without replacing it")
    func specialTargets() async throws {
        let folder = try TemporaryFolder()
        try folder.write("p.ahap", Self.pattern(3))
        let toNull = try await HapticsProcess.run(["render", "p.ahap", "-o", "/dev/null"], in: folder.url, timeout: .seconds(30))
        #expect(toNull.status == 0)
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("link.ahap").path, withDestinationPath: "real.ahap")
        try folder.write("real.ahap", "old")
        let export = try await HapticsProcess.run(["export", "p.ahap", "-o", "link.ahap"], in: folder.url, timeout: .seconds(30))
        #expect(export.status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.url.appendingPathComponent("link.ahap").path) == "real.ahap")
        let exported = try String(contentsOf: folder.url.appendingPathComponent("real.ahap"), encoding: .utf8)
        #expect(exported.contains("HapticContinuous"))
    }
}

@Suite("haptics play --device file:")
struct PlayFileHeaderTests {
    @Test("the WAV a file: device gets says what its samples are: IEEE float, 32 bits, with the samples of render --format f32")
    func floatHeader() async throws {
        let folder = try TemporaryFolder()
        try folder.write("sample.ahap", samplePattern)
        let captured = folder.url.appendingPathComponent("captured.wav")
        let play = try await HapticsProcess.run(["play", "sample.ahap", "--device", "file:'\(captured.path)',wav"], in: folder.url, timeout: .seconds(60))
        #expect(play.status == 0, "\(play.errorOutput)")
        let render = try await HapticsProcess.run(["render", "sample.ahap", "-o", "rendered.wav", "--format", "f32"], in: folder.url, timeout: .seconds(60))
        #expect(render.status == 0)
        let wav = try WAVFile(contentsOf: captured)
        #expect(wav.formatTag == 3)
        #expect(wav.bitsPerSample == 32)
        #expect(wav.blockAlign == 4 * wav.channelCount)
        // The capture starts with the engine's lead-in; its signal is the render's, read as floats.
        let rendered = try WAVFile(contentsOf: folder.url.appendingPathComponent("rendered.wav")).float32Samples
        let signal = WAVFile.channel(0, of: wav.float32Samples, channels: wav.channelCount)
        let start = try #require(signal.firstIndex { $0 != 0 })
        let renderedStart = try #require(rendered.firstIndex { $0 != 0 })
        let same = signal.dropFirst(start).prefix(rendered.count - renderedStart).elementsEqual(rendered.dropFirst(renderedStart)) {
            $0.bitPattern == $1.bitPattern
        }
        #expect(same, "the captured floats differ from the render")
    }
}
