import Foundation
import Testing

/// The settings of one fuzzing run, from the environment so that `scripts/fuzz.sh` can run the
/// suite's fuzz tests for longer, with fresh seeds, and catch the input that crashed:
///
/// - `HAPTICS_FUZZ_SECONDS`: how long each fuzz test runs (default: its own short budget);
/// - `HAPTICS_FUZZ_SEED`: the mutator's seed (default: the test's fixed seed, so CI repeats);
/// - `HAPTICS_FUZZ_CURRENT`: a path prefix; before each input is read it is written to
///   `PREFIX.READER` (ahap, profile, settings), so after a crash the script knows what crashed.
public struct FuzzRun: Sendable {
    public let seconds: Double
    public let seed: UInt64
    private let currentPrefix: String?
    public let reader: String

    public init(reader: String, defaultSeconds: Double, defaultSeed: UInt64) {
        let environment = ProcessInfo.processInfo.environment
        self.reader = reader
        seconds = environment["HAPTICS_FUZZ_SECONDS"].flatMap(Double.init) ?? defaultSeconds
        seed = environment["HAPTICS_FUZZ_SEED"].flatMap { UInt64($0) } ?? defaultSeed
        currentPrefix = environment["HAPTICS_FUZZ_CURRENT"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// When the run ends.
    public var deadline: ContinuousClock.Instant { .now + .milliseconds(Int(seconds * 1000)) }

    /// Notes the input about to be read (only when a crash catcher asked for it).
    public func record(_ bytes: [UInt8]) {
        guard let currentPrefix else { return }
        _ = FileManager.default.createFile(atPath: "\(currentPrefix).\(reader)", contents: Data(bytes))
    }

    /// Where a refusal must say the problem is.
    public enum Place: Sendable {
        /// Anywhere (an API error with no file, such as Core Haptics').
        case anywhere
        /// In the named input or output: the line starts `SOURCE`.
        case source(String)
        /// At a line of the input and a column: the line starts `SOURCE:LINE:COLUMN: `, and the
        /// reader said it located the problem (`isLocated`) on one of the input's `inputLines`.
        case located(source: String, isLocated: Bool, line: Int?, column: Int?, inputLines: Int)
    }

    /// The one check of a refusal, the way every reader must refuse damaged input: one line,
    /// not empty, placed as `place` says. Records what is wrong (labelled `label`) and returns
    /// `.refused`, or `.failed` so that the run stops.
    public static func refusal(
        _ message: String, _ place: Place, label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> FuzzOutcome {
        let oneLine = !message.isEmpty && !message.contains(where: \.isNewline)
        #expect(oneLine, "\(label): not one line: \(message)", sourceLocation: sourceLocation)
        let placed: Bool
        switch place {
        case .anywhere:
            placed = true
        case .source(let source):
            placed = message.hasPrefix(source)
        case .located(let source, let isLocated, let line, let column, let inputLines):
            placed =
                isLocated && (1...max(1, inputLines)).contains(line ?? 0) && (column ?? 0) >= 1
                && message.hasPrefix("\(source):\(line ?? 0):\(column ?? 0): ")
        }
        #expect(placed, "\(label): not placed as \(place): \(message)", sourceLocation: sourceLocation)
        return oneLine && placed ? .refused : .failed
    }

    /// Inputs that once crashed or hung a reader, kept in `Tests/FuzzCorpus/READER/` and read
    /// again by every run of the suite.
    public static func corpus(_ reader: String) -> [(name: String, bytes: [UInt8])] {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        let directory = folder.appendingPathComponent("Tests/FuzzCorpus/\(reader)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().compactMap { name in
            (try? Data(contentsOf: directory.appendingPathComponent(name))).map { (name, Array($0)) }
        }
    }
}

/// What one input did to a reader.
public enum FuzzOutcome: Sendable {
    /// Read as something usable.
    case loaded
    /// Refused with a proper error.
    case refused
    /// Anything else (already recorded as a test issue): the run stops.
    case failed
}

extension FuzzRun {
    /// Feeds mutations of `seeds` to `check` until the run's time is up or an input fails, and
    /// returns how many loaded and how many were refused.
    public func mutate(seeds: [String], words: [String], check: ([UInt8], String) -> FuzzOutcome) -> (loaded: Int, refused: Int) {
        var mutator = JSONMutator(seeds: seeds, words: words, seed: seed)
        let deadline = self.deadline
        var loaded = 0
        var refused = 0
        var iteration = 0
        while ContinuousClock.now < deadline {
            iteration += 1
            let bytes = mutator.next()
            record(bytes)
            switch check(bytes, "iteration \(iteration)") {
            case .loaded: loaded += 1
            case .refused: refused += 1
            case .failed: return (loaded, refused)
            }
        }
        return (loaded, refused)
    }
}
