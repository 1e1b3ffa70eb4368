import COptionalLibraries
import Foundation
import HapticsCore
import HapticsFormats
import HapticsTestSupport
import Testing

/// `haptics convert` and `haptics analyze` fed damaged files, each run under an address-space
/// cap and a timeout: a crash, a trap, a hang, a run past the cap, more than one line on
/// standard error, or an exit-0 output its reader refuses is a failure. Seeded, so CI repeats;
/// `HAPTICS_FUZZ_SECONDS` and `HAPTICS_FUZZ_SEED` run them longer or afresh, and what is found
/// goes to `Tests/FuzzCorpus/audio` (replayed below) or the JSON readers' folders.
@Suite("convert and analyze fed damaged files stay within their memory cap")
struct CappedFuzzTests {
    /// The address space a run may use: the debug binary runs these in under 48 MiB; every
    /// attack of issue #24 needed gigabytes.
    static let capMiB = 80

    /// One run: exit 0 with an output that reads back, or exit 1 with one line; nothing else.
    static func check(_ arguments: [String], output: String, in folder: TemporaryFolder, label: String) throws -> FuzzOutcome {
        try? FileManager.default.removeItem(atPath: folder.path(output))
        let run = try CappedHaptics.run(arguments, in: folder.url, addressSpaceMiB: capMiB, timeout: .seconds(60))
        guard !run.signalled, !run.timedOut else {
            Issue.record("\(label): haptics \(arguments.joined(separator: " ")) ended with status \(run.status) (a crash, a trap or the cap): \(run.stderr)")
            return .failed
        }
        switch run.status {
        case 0:
            let data = try Data(contentsOf: folder.file(output))
            do throws(AHAPError) {
                _ = try AHAPDecoder().decode(data, source: output)
            } catch {
                Issue.record("\(label): exit 0, but the output does not read back: \(error)")
                return .failed
            }
            return .loaded
        case 1:
            // One line, ended by its newline.
            return FuzzRun.refusal(String(run.stderr.dropLast(run.stderr.hasSuffix("\n") ? 1 : 0)), .anywhere, label: label)
        default:
            Issue.record("\(label): exit \(run.status): \(run.stderr)")
            return .failed
        }
    }

    @Test("convert: damaged .haptic, Android and web JSON inputs", .timeLimit(.minutes(3)), arguments: FormatFuzzTests.readers)
    func convert(reader: FormatFuzzTests.Reader) throws {
        let folder = try TemporaryFolder()
        let run = FuzzRun(reader: reader.corpus, defaultSeconds: 2, defaultSeed: 0xCA99_ED00 + UInt64(reader.corpus.count))
        let name = "fuzz." + (reader.format == .haptic ? "haptic" : reader.format == .androidJSON ? "android.json" : "web.json")
        var outcomes: [FuzzOutcome] = []
        _ = run.mutate(seeds: reader.seeds, words: reader.words + JSONMutator.hostileNumbers) { bytes, label in
            let outcome =
                (try? Data(bytes).write(to: folder.file(name))).flatMap { _ in
                    try? Self.check(["convert", name, "-o", "out.ahap"], output: "out.ahap", in: folder, label: label)
                } ?? .failed
            outcomes.append(outcome)
            return outcome
        }
        #expect(outcomes.count >= 5 && !outcomes.contains(.failed), "\(outcomes.count) runs")
    }

    // MARK: Sounds

    /// The seeds: a second of sound in each container analyze reads (those this libsndfile
    /// can write).
    static func soundSeeds(in folder: TemporaryFolder) -> [(ext: String, bytes: [UInt8])] {
        let tone = (0..<12_000).map { Float(sin(Double($0) * 0.08)) * ($0 % 3000 < 300 ? 0.9 : 0.1) }
        var seeds: [(String, [UInt8])] = [
            ("wav", TestWAV.bytes(tone, channels: 1, sampleRate: 12_000, encoding: .s16)),
            ("wav", TestWAV.bytes(tone + tone, channels: 2, sampleRate: 24_000, encoding: .f32, extensible: true)),
        ]
        let formats: [(String, Int32)] = [
            ("flac", Int32(SF_FORMAT_FLAC) | Int32(SF_FORMAT_PCM_16)),
            ("ogg", Int32(SF_FORMAT_OGG) | Int32(SF_FORMAT_VORBIS)),
            ("mp3", Int32(SF_FORMAT_MPEG) | Int32(SF_FORMAT_MPEG_LAYER_III)),
        ]
        for (ext, format) in formats {
            let path = folder.path("seed.\(ext)")
            var info = SF_INFO()
            info.samplerate = 12_000
            info.channels = 1
            info.format = format
            guard sf_format_check(&info) != 0, let file = sf_open(path, Int32(SFM_WRITE), &info) else { continue }
            _ = tone.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t($0.count)) }
            sf_close(file)
            if let data = FileManager.default.contents(atPath: path) { seeds.append((ext, Array(data))) }
        }
        return seeds
    }

    /// Header fields worth writing over a sound's bytes: zero, one, the largest, the sign bit,
    /// 2.1 GHz, and a plausible rate.
    static let hostileWords: [UInt32] = [0, 1, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 2_100_000_000, 48_000, 0xFFFF]

    /// A damaged copy of a sound: header fields overwritten, bytes flipped, cut or repeated.
    static func mutate(_ seed: [UInt8], using random: inout JSONMutator.SeededGenerator) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
            switch Int.random(in: 0...4, using: &random) {
            case 0, 1:
                // A header field: within the first 96 bytes, where every container keeps its own.
                let position = Int.random(in: 0..<min(bytes.count, 96), using: &random)
                let word = hostileWords.randomElement(using: &random) ?? 0
                for k in 0..<4 where position + k < bytes.count { bytes[position + k] = UInt8(truncatingIfNeeded: word >> (8 * UInt32(k))) }
            case 2:
                for _ in 0..<Int.random(in: 1...16, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            case 3:
                bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &random)...)
            default:
                let start = Int.random(in: 0..<bytes.count, using: &random)
                let end = min(bytes.count, start + Int.random(in: 1...512, using: &random))
                bytes.insert(contentsOf: bytes[start..<end], at: Int.random(in: 0..<bytes.count, using: &random))
            }
        }
        return bytes
    }

    @Test("analyze: damaged WAV, FLAC, Ogg and MP3 headers and bodies", .timeLimit(.minutes(3)))
    func analyze() throws {
        let folder = try TemporaryFolder()
        let seeds = Self.soundSeeds(in: folder)
        #expect(seeds.count >= 2)
        let run = FuzzRun(reader: "audio", defaultSeconds: 6, defaultSeed: 0xA0D1_0024)
        var random = JSONMutator.SeededGenerator(seed: run.seed)
        let deadline = run.deadline
        var outcomes: [FuzzOutcome] = []
        while ContinuousClock.now < deadline {
            let seed = seeds[Int.random(in: 0..<seeds.count, using: &random)]
            let bytes = Self.mutate(seed.bytes, using: &random)
            run.record(bytes)
            let name = "fuzz.\(seed.ext)"
            try Data(bytes).write(to: folder.file(name))
            let outcome = try Self.check(["analyze", name, "-o", "out.ahap"], output: "out.ahap", in: folder, label: "run \(outcomes.count + 1) (\(seed.ext))")
            outcomes.append(outcome)
            if outcome == .failed { break }
        }
        #expect(outcomes.count >= 5 && !outcomes.contains(.failed), "\(outcomes.count) runs")
        #expect(outcomes.contains(.loaded) && outcomes.contains(.refused), "the mutations both keep and break sounds")
    }

    @Test("sounds that once broke analyze (Tests/FuzzCorpus/audio) are analysed or refused in one line, within the cap")
    func audioCorpus() throws {
        let folder = try TemporaryFolder()
        let inputs = FuzzRun.corpus("audio")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            try Data(bytes).write(to: folder.file(name))
            #expect(try Self.check(["analyze", name, "-o", "out.ahap"], output: "out.ahap", in: folder, label: name) != .failed, "\(name)")
        }
    }
}
