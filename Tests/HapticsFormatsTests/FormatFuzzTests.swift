import Foundation
import HapticsCore
import HapticsTestSupport
import Testing

@testable import HapticsFormats

/// The `.haptic`, Android JSON and web JSON readers under seeded mutational fuzzing
/// (time-bounded; `scripts/fuzz.sh` runs them for longer with fresh seeds), and the inputs that
/// once broke them, replayed from `Tests/FuzzCorpus/READER/` on every run. Whatever a reader
/// accepts is a pattern within the limits, and whatever a writer then writes reads back.
@Suite("Damaged .haptic, Android and web JSON files never crash their readers")
struct FormatFuzzTests {
    /// The readers fuzzed: the format, its corpus folder, its seeds and the words spliced in.
    struct Reader: Sendable, CustomStringConvertible {
        var format: HapticFormat
        var corpus: String
        var seeds: [String]
        var words: [String]
        var description: String { corpus }
    }

    static let readers = [
        Reader(
            format: .haptic, corpus: "haptic",
            seeds: [
                #"{"version": {"major": 1, "minor": 0, "patch": 0}, "metadata": {"project": "p", "description": "d", "author": "", "tags": []}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 0.2}, {"time": 0.1, "amplitude": 0.5, "emphasis": {"amplitude": 0.9, "frequency": 0.7}}, {"time": 0.3, "amplitude": 0}], "frequency": [{"time": 0, "frequency": 0.4}, {"time": 0.3, "frequency": 0.8}]}}}}"#,
                #"{"signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0.5, "amplitude": 1, "emphasis": {"amplitude": 1, "frequency": 0}}]}}}}"#,
            ],
            words: [
                "\"time\": ", "\"amplitude\": ", "\"frequency\": ", "\"emphasis\": ", "\"version\": ", "\"major\": ", ", ", "[", "]", "{", "}", "1e9", "1e300",
            ]),
        Reader(
            format: .androidJSON, corpus: "android-json",
            seeds: [
                #"{"format": "haptics-android", "version": 1, "waveform": {"timings": [20, 5, 100], "amplitudes": [255, 0, 128], "repeat": -1}, "envelope": {"initialSharpness": 0.5, "controlPoints": [{"intensity": 0.8, "sharpness": 0.4, "durationMillis": 20}, {"intensity": 0, "sharpness": 0.4, "durationMillis": 100}]}, "composition": [{"primitive": "CLICK", "scale": 0.8, "delayMillis": 0, "delayType": "RELATIVE_START_OFFSET"}, {"primitive": "THUD", "scale": 1, "delayMillis": 130}]}"#,
                #"{"format": "haptics-android", "waveform": {"timings": [50, 50, 50], "amplitudes": [10, 0, 255]}}"#,
            ],
            words: [
                "\"timings\": ", "\"amplitudes\": ", "\"durationMillis\": ", "\"delayMillis\": ", "\"primitive\": ", "\"TICK\"", ", ", "[", "]", "{", "}",
                "1e13", "1e308",
            ]),
        Reader(
            format: .webJSON, corpus: "web-json",
            seeds: [
                #"{"format": "haptics-web", "version": 1, "vibrate": [20, 110, 20], "dualRumble": [{"startDelay": 0, "duration": 20, "strongMagnitude": 0.5, "weakMagnitude": 0.2}]}"#,
                #"{"format": "haptics-web", "vibrate": [], "dualRumble": [{"startDelay": 100, "duration": 5000, "strongMagnitude": 1, "weakMagnitude": 0}, {"startDelay": 0, "duration": 10, "strongMagnitude": 0, "weakMagnitude": 1}]}"#,
            ],
            words: ["\"vibrate\": ", "\"dualRumble\": ", "\"startDelay\": ", "\"duration\": ", "\"strongMagnitude\": ", ", ", "[", "]", "{", "}", "1e13"]),
    ]

    /// The formats each accepted pattern is written to and read back from.
    static let readBack: [HapticFormat] = [.ahap, .haptic, .androidJSON, .webJSON]

    /// One input: it reads as a pattern within the limits whose every readable output reads
    /// back, or it is refused with one line located in the input.
    static func check(_ reader: Reader, _ bytes: [UInt8], label: String) -> FuzzOutcome {
        var notes = ConversionNotes()
        let pattern: HapticPattern
        do throws(FormatError) {
            pattern = try reader.format.read(Data(bytes), source: "fuzz.json", notes: &notes)
        } catch {
            let place = error.description.split(separator: ":", maxSplits: 3).dropFirst().prefix(2).compactMap { Int($0) }
            return FuzzRun.refusal(
                error.description,
                .located(source: "fuzz.json", isLocated: error.isLocated, line: place.first, column: place.last, inputLines: bytes.count { $0 == 0x0A } + 1),
                label: "\(label) \(reader)")
        }
        let bounded =
            pattern.duration.isFinite && pattern.duration <= AHAPLimits.default.maxDuration + 1
            && pattern.events.allSatisfy { $0.relativeTime.isFinite && $0.relativeTime >= 0 && $0.duration.isFinite }
        #expect(bounded, "\(label) \(reader): \(String(decoding: bytes, as: UTF8.self)) read as a pattern of \(pattern.duration) s")
        if !bounded { return .failed }
        for format in readBack {
            var writeNotes = ConversionNotes()
            let data: Data
            do throws(FormatError) {
                data = try format.write(pattern, name: "fuzz", notes: &writeNotes)
            } catch {
                // A refusal names the limit in one line; nothing is written.
                if FuzzRun.refusal(error.description, .source("fuzz: "), label: "\(label) \(reader) → \(format)") == .failed { return .failed }
                continue
            }
            var readNotes = ConversionNotes()
            do throws(FormatError) {
                _ = try format.read(data, source: "back", notes: &readNotes)
            } catch {
                Issue.record("\(label) \(reader) → \(format) does not read back: \(error)\n\(String(decoding: bytes, as: UTF8.self))")
                return .failed
            }
        }
        return .loaded
    }

    @Test("every damaged input reads as a bounded pattern whose outputs read back, or fails with one located line", .timeLimit(.minutes(2)), arguments: readers)
    func damagedInputs(reader: Reader) {
        let run = FuzzRun(reader: reader.corpus, defaultSeconds: 3, defaultSeed: 0x5EED_24F0_0000 + UInt64(reader.corpus.count))
        let (loaded, refused) = run.mutate(seeds: reader.seeds, words: reader.words + JSONMutator.hostileNumbers) { bytes, label in
            Self.check(reader, bytes, label: label)
        }
        #expect(loaded > 0 && refused > 20, "the mutations both keep and break \(reader) files (\(loaded) loaded, \(refused) refused)")
    }

    @Test("inputs that once broke a reader (Tests/FuzzCorpus/haptic, android-json, web-json) load or fail with one located line", arguments: readers)
    func corpus(reader: Reader) {
        let inputs = FuzzRun.corpus(reader.corpus)
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            #expect(Self.check(reader, bytes, label: name) != FuzzOutcome.failed, "\(name)")
        }
    }
}
