import Foundation
import HapticsTestSupport
import Testing

/// Issue #24's attacks on `convert`, `analyze` and `plot`: each ends with one line of ours and
/// exit 1 (or a file its reader reads back), in bounded memory, never a trap or a hang.
@Suite("convert, analyze and plot hold the guarantees under hostile input")
struct ConvertAnalyzeSafetyTests {
    /// The address space each run may use: the debug binary's convert, analyze and plot run
    /// in 48 MiB; the attacks took gigabytes, and the old plot and analyze of the sounds below
    /// failed under 100 MiB.
    static let memoryBoundMiB = 80

    /// Runs haptics with `arguments` and checks the refusal: exit 1, one line, no trap, peak
    /// memory within the bound. Returns the line.
    static func refusal(_ arguments: [String], in folder: TemporaryFolder, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let run = try CappedHaptics.run(arguments, in: folder.url, addressSpaceMiB: memoryBoundMiB, timeout: .seconds(60), sourceLocation: sourceLocation)
        #expect(!run.signalled && run.status == 1, "\(arguments): exit \(run.status): \(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.errorLines.count == 1, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
        return run.errorLines.first ?? ""
    }

    @Test(
        "convert: huge times in .haptic, Android and web JSON are refused at their place in bounded memory (they grew to 5.6 GB or trapped)",
        arguments: [
            (
                "big.haptic",
                #"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 1}, {"time": 1e9, "amplitude": 0}]}}}}"#
            ),
            ("huge.haptic", #"{"version": {"major": 1e300}, "signals": {"continuous": {"envelopes": {"amplitude": []}}}}"#),
            (
                "freq.haptic",
                #"{"signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 1}], "frequency": [{"time": 1e15, "frequency": 1}]}}}}"#
            ),
            ("env.android.json", #"{"format": "haptics-android", "envelope": {"controlPoints": [{"intensity": 1, "sharpness": 1, "durationMillis": 1e12}]}}"#),
            ("wave.android.json", #"{"format": "haptics-android", "waveform": {"timings": [1e15], "amplitudes": [255]}}"#),
            ("delay.android.json", #"{"format": "haptics-android", "composition": [{"primitive": "TICK", "scale": 1, "delayMillis": 1e13}]}"#),
            ("far.android.json", #"{"format": "haptics-android", "composition": [{"primitive": "TICK", "scale": 1, "delayMillis": 1e308}]}"#),
            ("long.web.json", #"{"format": "haptics-web", "vibrate": [1e13]}"#),
        ])
    func convertHugeTimes(name: String, text: String) throws {
        let folder = try TemporaryFolder()
        try folder.write(name, text)
        for output in ["out.ahap", "out.haptic", "out.android.json", "out.kt", "out.web.json", "out.js", "out.feedbackd.json", "out.csv"] {
            let line = try Self.refusal(["convert", name, "-o", output], in: folder)
            #expect(line.hasPrefix("\(name):1:"), "\(line)")
            #expect(!FileManager.default.fileExists(atPath: folder.path(output)))
        }
    }

    @Test("convert: a syntax error in any input format is one line with its line and column")
    func convertLocatedErrors() throws {
        let folder = try TemporaryFolder()
        for name in ["bad.haptic", "bad.android.json", "bad.web.json"] {
            try folder.write(name, "{\n  \"format\": \"haptics-android\",\n  \"waveform\": {\"timings\": [1,, 2]}\n}\n")
            let line = try Self.refusal(["convert", name, "-o", "out.ahap"], in: folder)
            #expect(line.hasPrefix("\(name):3:"), "\(line)")
        }
        try folder.write("deep.haptic", String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000))
        let deep = try Self.refusal(["convert", "deep.haptic", "-o", "out.ahap"], in: folder)
        #expect(deep.contains("64") && !deep.contains("not valid JSON"), "\(deep)")
    }

    @Test("convert: what it writes, it reads back, and its AHAP validates")
    func convertReadsBack() async throws {
        let folder = try TemporaryFolder()
        // Unsorted frequency breakpoints and a first breakpoint after 0 once made AHAP that
        // validate refused; now the first is refused and the rest converts.
        try folder.write(
            "clip.haptic",
            #"{"signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0.1, "amplitude": 0.5, "emphasis": {"amplitude": 1, "frequency": 0.5}}, {"time": 0.4, "amplitude": 0}], "frequency": [{"time": 0, "frequency": 0.2}, {"time": 0.4, "frequency": 0.9}]}}}}"#
        )
        for output in ["a.ahap", "b.haptic", "c.android.json", "d.web.json"] {
            let run = try await HapticsProcess.run(["convert", "clip.haptic", "-o", output], in: folder.url)
            #expect(run.status == 0, "\(output): \(run.errorOutput)")
            let back = try await HapticsProcess.run(["convert", output, "-o", "back-\(output).ahap"], in: folder.url)
            #expect(back.status == 0, "\(output): \(back.errorOutput)")
            let validated = try await HapticsProcess.run(["validate", "back-\(output).ahap"], in: folder.url)
            #expect(validated.status == 0, "\(output): \(validated.output) \(validated.errorOutput)")
        }
    }

    /// A WAV file's bytes: a canonical header stating `rate`, `channels` and `dataBytes`, then
    /// `body`.
    static func wav(rate: UInt32, channels: UInt16 = 1, bits: UInt16 = 16, float: Bool = false, dataBytes: UInt32? = nil, body: [UInt8]) -> Data {
        var bytes: [UInt8] = []
        func u32(_ v: UInt32) { bytes += withUnsafeBytes(of: v.littleEndian, Array.init) }
        func u16(_ v: UInt16) { bytes += withUnsafeBytes(of: v.littleEndian, Array.init) }
        let data = dataBytes ?? UInt32(body.count)
        bytes += Array("RIFF".utf8)
        u32(36 &+ data)
        bytes += Array("WAVEfmt ".utf8)
        u32(16)
        u16(float ? 3 : 1)
        u16(channels)
        u32(rate)
        u32(rate &* UInt32(channels) &* UInt32(bits / 8))
        u16(channels * bits / 8)
        u16(bits)
        bytes += Array("data".utf8)
        u32(data)
        return Data(bytes + body)
    }

    /// The peak resident memory of `haptics ARGUMENTS`, in MiB, measured by the package's
    /// `peak-rss` tool (forked from it, so the figure is haptics' own).
    static func peakMiB(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Double {
        let haptics = try #require(HapticsProcess.executable, sourceLocation: sourceLocation)
        let tool = haptics.deletingLastPathComponent().appendingPathComponent("peak-rss")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "peak-rss is built with the tests", sourceLocation: sourceLocation)
        let text = try HapticsProcess.runProgramSynchronously(tool, [haptics.path] + arguments, sourceLocation: sourceLocation).output
        let kilobytes = try #require(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), "peak-rss said '\(text)'", sourceLocation: sourceLocation)
        return kilobytes / 1024
    }

    static func floats(_ values: [Float]) -> [UInt8] {
        values.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
    }

    @Test("analyze: a header stating 2.1 GHz, 1 Hz or two hours is refused at once in bounded memory (it took 1.7 GB)")
    func analyzeHostileHeaders() throws {
        let folder = try TemporaryFolder()
        try Self.wav(rate: 2_100_000_000, body: [UInt8](repeating: 0, count: 20)).write(to: folder.file("ghz.wav"))
        #expect(
            try Self.refusal(["analyze", "ghz.wav", "-o", "o.ahap"], in: folder)
                == "haptics: ghz.wav: the header states a sample rate of 2100000000 Hz; analyze reads 1000 to 384000 Hz")
        try Self.wav(rate: 1, body: [UInt8](repeating: 1, count: 10_000)).write(to: folder.file("slow.wav"))
        #expect(try Self.refusal(["analyze", "slow.wav", "-o", "o.ahap"], in: folder).contains("1 Hz"))
        // Two hours of 48 kHz stereo, stated and present (a sparse file: zeros cost no disk).
        let bytes = 2 * 3600 * 48_000 * 4
        let header = Self.wav(rate: 48_000, channels: 2, dataBytes: UInt32(bytes), body: [])
        try header.write(to: folder.file("long.wav"))
        #expect(truncate(folder.path("long.wav"), off_t(header.count + bytes)) == 0)
        #expect(
            try Self.refusal(["analyze", "long.wav", "-o", "o.ahap"], in: folder)
                == "haptics: long.wav: the sound lasts 7200 s; analyze reads sounds of up to 3600 s")
        #expect(!FileManager.default.fileExists(atPath: folder.path("o.ahap")))
    }

    @Test("analyze: NaN, infinite or absurdly large samples are named as damage, not called silence")
    func analyzeDamagedSamples() throws {
        let folder = try TemporaryFolder()
        let tone = (0..<4800).map { Float(sin(Double($0) * 0.2)) * 0.5 }
        var nan = tone
        for k in stride(from: 0, to: nan.count, by: 100) { nan[k] = .nan }  // 1 %
        let cases: [(String, [Float], String)] = [
            ("nan.wav", nan, "not a number (NaN)"),
            ("inf.wav", tone.map { $0 > 0.4 ? .infinity : $0 }, "infinite"),
            ("huge.wav", tone.map { $0 * 2e30 }, "beyond ±1000"),
        ]
        for (name, samples, phrase) in cases {
            try Self.wav(rate: 48_000, bits: 32, float: true, body: Self.floats(samples)).write(to: folder.file(name))
            let line = try Self.refusal(["analyze", name, "-o", "o.ahap"], in: folder)
            #expect(line.hasPrefix("haptics: \(name): the sample at ") && line.contains(phrase) && line.hasSuffix("the file is damaged"), "\(line)")
            #expect(!line.contains("silent"))
        }
    }

    @Test("analyze: empty, garbage, directories and corrupt MP3 get one line of ours; the decoder's own lines never reach stderr")
    func analyzeUnreadable() throws {
        let folder = try TemporaryFolder()
        try Data().write(to: folder.file("empty.mp3"))
        var generator = JSONMutator.SeededGenerator(seed: 24)
        try Data((0..<3000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: folder.file("garbage.mp3"))
        try FileManager.default.createDirectory(at: folder.file("folder.wav"), withIntermediateDirectories: false)
        #expect(
            try Self.refusal(["analyze", "empty.mp3", "-o", "o.ahap"], in: folder)
                == "haptics: empty.mp3: the file is empty; expected a sound (WAV, FLAC, Ogg or MP3)")
        #expect(try Self.refusal(["analyze", "garbage.mp3", "-o", "o.ahap"], in: folder).hasPrefix("haptics: garbage.mp3: not a sound that can be read"))
        #expect(try Self.refusal(["analyze", "folder.wav", "-o", "o.ahap"], in: folder) == "haptics: folder.wav: not a sound file but a directory")
        #expect(try Self.refusal(["analyze", "missing.wav", "-o", "o.ahap"], in: folder) == "haptics: missing.wav: no such file")
        #expect(!FileManager.default.fileExists(atPath: folder.path("o.ahap")))
    }

    @Test("analyze streams: a ten-minute stereo sound is analysed within 80 MiB of address space (it was read whole: 128 MiB resident)")
    func analyzeStreams() async throws {
        let folder = try TemporaryFolder()
        // Ten minutes of 48 kHz stereo with a 100 ms burst every second, as a sparse file.
        let rate = 48_000
        let seconds = 600
        let dataBytes = rate * seconds * 4
        let header = Self.wav(rate: UInt32(rate), channels: 2, dataBytes: UInt32(dataBytes), body: [])
        try header.write(to: folder.file("long.wav"))
        let handle = try FileHandle(forWritingTo: folder.file("long.wav"))
        let burst = (0..<4800).flatMap { k -> [UInt8] in
            let value = Int16(k % 4 < 2 ? 20_000 : -20_000)
            return withUnsafeBytes(of: value.littleEndian, Array.init) + withUnsafeBytes(of: value.littleEndian, Array.init)
        }
        for second in 0..<seconds {
            try handle.seek(toOffset: UInt64(header.count + second * rate * 4))
            try handle.write(contentsOf: burst)
        }
        try handle.truncate(atOffset: UInt64(header.count + dataBytes))
        try handle.close()
        // Coarse settings keep the analysis itself quick; the reading is what is measured.
        let run = try CappedHaptics.run(
            ["analyze", "long.wav", "-o", "long.ahap", "--no-continuous", "--hop-ms", "100", "--window-ms", "2"], in: folder.url,
            addressSpaceMiB: Self.memoryBoundMiB, timeout: .seconds(300))
        #expect(!run.signalled && run.status == 0, "\(run.status): \(run.stderr)")
        // Measured: 19.8 MiB (the whole sound in memory: 128 MiB).
        let peak = try Self.peakMiB([
            "analyze", folder.path("long.wav"), "-o", folder.path("again.ahap"), "--no-continuous", "--hop-ms", "100", "--window-ms", "2",
        ])
        #expect(peak < 40, "\(peak) MiB")
        let validated = try await HapticsProcess.run(["validate", "long.ahap"], in: folder.url)
        #expect(validated.status == 0, "\(validated.errorOutput)")
    }

    @Test("analyze: a sound of the full 3,600 s gives a pattern that writes and reads back (its AHAP was refused as 3,600.0005 s)")
    func analyzeFullHour() async throws {
        let folder = try TemporaryFolder()
        // An hour at 1 kHz with three bursts, the last in its final second (a sparse file).
        let seconds = 3600
        let header = Self.wav(rate: 1000, dataBytes: UInt32(seconds * 2000), body: [])
        try header.write(to: folder.file("hour.wav"))
        let handle = try FileHandle(forWritingTo: folder.file("hour.wav"))
        let burst = (0..<100).flatMap { k in withUnsafeBytes(of: Int16(k % 2 == 0 ? 20_000 : -20_000).littleEndian, Array.init) }
        for second in [0, 1800, 3599] {
            try handle.seek(toOffset: UInt64(header.count + (second * 1000 + 900) * 2))
            try handle.write(contentsOf: burst)
        }
        try handle.truncate(atOffset: UInt64(header.count + seconds * 2000))
        try handle.close()
        // AHAP and .haptic: each other format goes through the same layers (and costs seconds).
        for output in ["hour.ahap", "hour.haptic"] {
            let run = try await HapticsProcess.run(["analyze", "hour.wav", "-o", output, "--hop-ms", "100"], in: folder.url)
            #expect(run.status == 0, "\(output): \(run.errorOutput)")
            let back = try await HapticsProcess.run(["convert", output, "-o", "back.ahap"], in: folder.url)
            #expect(back.status == 0, "\(output): \(back.errorOutput)")
            let validated = try await HapticsProcess.run(["validate", "back.ahap"], in: folder.url)
            #expect(validated.status == 0, "\(output): \(validated.output)")
        }
    }

    @Test("plot draws from a summary per pixel column: two minutes on the dualsense profile fit in 80 MiB (the whole signal took 128 MiB)")
    func plotBoundedMemory() async throws {
        let folder = try TemporaryFolder()
        let events = (0..<4).map {
            #"{"Event": {"Time": \#(Double($0) * 30.5), "EventType": "HapticContinuous", "EventDuration": 30, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}]}}"#
        }
        try folder.write("two.ahap", #"{"Pattern": [\#(events.joined(separator: ", "))]}"#)
        let run = try CappedHaptics.run(["plot", "two.ahap", "-o", "two.svg", "--profile", "dualsense"], in: folder.url, addressSpaceMiB: Self.memoryBoundMiB)
        #expect(!run.signalled && run.status == 0, "\(run.status): \(run.stderr)")
        // Measured: 17.2 MiB (the whole signal in memory: 128 MiB).
        let peak = try Self.peakMiB(["plot", folder.path("two.ahap"), "-o", folder.path("again.svg"), "--profile", "dualsense"])
        #expect(peak < 40, "\(peak) MiB")
        let svg = try String(contentsOf: folder.file("two.svg"), encoding: .utf8)
        // The drive lane: one vertical stroke per pixel column where the signal sounds.
        let path = try #require(svg.split(separator: "\n").first { $0.contains("stroke=\"#1b7f3b\"") })
        #expect(path.components(separatedBy: "M").count - 1 > 800)
    }

    @Test("SIGINT or SIGTERM during convert and analyze: exit 130 or 143, one line, the old file intact, no temporary file", arguments: [SIGINT, SIGTERM])
    func interrupted(signal: Int32) async throws {
        let folder = try TemporaryFolder()
        // Work that lasts seconds: a minute of sound to analyse, 20 minutes of pattern to convert.
        let tone = (0..<(48_000 * 60)).map { Float(sin(Double($0) * 0.05)) * 0.5 }
        try Self.wav(rate: 48_000, bits: 32, float: true, body: Self.floats(tone)).write(to: folder.file("tone.wav"))
        let events = (0..<40).map { #"{"Event": {"Time": \#($0 * 30), "EventType": "HapticContinuous", "EventDuration": 30}}"# }
        try folder.write("long.ahap", #"{"Pattern": [\#(events.joined(separator: ", "))]}"#)
        for (arguments, output) in [
            (["analyze", "tone.wav", "-o", "out.ahap"], "out.ahap"), (["convert", "long.ahap", "-o", "out.android.json"], "out.android.json"),
        ] {
            try Data("old".utf8).write(to: folder.file(output))
            let running = try BackgroundHaptics(arguments, in: folder.url)
            // Waits until the command has its handlers (the signal's bit in SigCgt), so the
            // signal tests them rather than the default action.
            let mask = UInt64(1) << UInt64(signal - 1)
            Wait.until(timeout: .seconds(30), interval: .milliseconds(1)) {
                guard let status = try? String(contentsOfFile: "/proc/\(running.process.pid)/status", encoding: .utf8),
                    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
                    let bits = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16)
                else { return false }
                return bits & mask != 0
            }
            running.send(signal)
            let outcome = try await running.wait(timeout: .seconds(30))
            #expect(outcome.exited && outcome.status == 128 + signal, "\(arguments): \(outcome.status) \(outcome.stderr)")
            #expect(outcome.errorLines.last == (signal == SIGINT ? "haptics: interrupted" : "haptics: terminated"), "\(outcome.stderr)")
            #expect(try Data(contentsOf: folder.file(output)) == Data("old".utf8))
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
            #expect(left.isEmpty, "\(left)")
        }
    }
}
