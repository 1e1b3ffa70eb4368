import FoundationEssentials
import Glibc
import Haptics
import HapticsFormats

/// The PATTERN argument shared by play, render, export and show, with the preset options.
struct PatternInput {
    static let arguments: [ArgumentSpec] =
        [
            .positional(
                "pattern", help: "A preset name (see `haptics list`), an .ahap/.json file (or .haptic, .android.json), or - for standard input.",
                completion: Completions.pattern)
        ] + PresetOptions.arguments

    var pattern: String
    var preset: PresetOptions

    init(_ arguments: ParsedArguments) throws {
        pattern = arguments.required("pattern")
        preset = try PresetOptions(arguments)
    }

    init(pattern: String, preset: PresetOptions) {
        self.pattern = pattern
        self.preset = preset
    }

    func watchedFile() throws -> String {
        let looksLikeFile = pattern.contains("/") || pattern.hasSuffix(".ahap") || pattern.hasSuffix(".json")
        guard pattern != "-", looksLikeFile || (PresetLibrary.info(named: pattern) == nil && Self.exists(pattern)) else {
            throw CLIError(
                message: "--watch follows a pattern file; '\(pattern)' is \(pattern == "-" ? "standard input" : "a preset")", code: .validationFailure)
        }
        return pattern
    }

    /// Whether loading is quick enough to run at real-time priority (`play`'s start boost):
    /// a preset or a file of at most 256 KiB (parsed and compiled in a few milliseconds), not
    /// standard input, a pipe or a larger file, which could hold a core ahead of every normal
    /// process for as long as they take.
    var isSmall: Bool {
        guard pattern != "-" else { return false }
        var status = stat()
        guard stat(pattern, &status) == 0 else { return true }  // a preset, or an error
        return status.st_mode & S_IFMT == S_IFREG && status.st_size <= 256 * 1024
    }

    /// Loads the pattern. A name with a `/` or a known extension (`.ahap`, `.json`) is a file,
    /// `-` is standard input, and a bare name is a preset, so a file that happens to be called
    /// `success` never silently replaces the preset: when both exist the preset plays and a
    /// note says how to pick the file (`./success`). A bare name that is no preset but an
    /// existing file is that file.
    /// Whether something is at `path` (`stat`, without FileManager's first-use cost).
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    func load(mode: ValidationMode = .lenient) throws -> LoadedPattern {
        if pattern == "-" {
            // Standard input has no folder, so sound files of AudioCustom events are not looked for.
            do {
                let document = try AHAPDecoder(mode: mode).decode(fileDescriptor: STDIN_FILENO, source: "-")
                return LoadedPattern(pattern: document.pattern, diagnostics: document.diagnostics, name: "-", isFile: false)
            } catch {
                throw CLIError.invalidInput(error)
            }
        }
        if let other = try Self.loadOtherFormat(pattern) { return other }
        let looksLikeFile = pattern.contains("/") || pattern.hasSuffix(".ahap") || pattern.hasSuffix(".json")
        let isPreset = !looksLikeFile && PresetLibrary.info(named: pattern) != nil
        if isPreset && Self.exists(pattern) {
            writeStandardError("haptics: note: '\(pattern)' is the preset; a file of that name is here too: give ./\(pattern) to use the file")
        }
        if looksLikeFile || (!isPreset && Self.exists(pattern)) {
            do {
                let document = try AHAPDecoder(mode: mode).decode(contentsOfFile: pattern)
                return LoadedPattern(pattern: document.pattern, diagnostics: document.diagnostics, name: pattern, isFile: true)
            } catch {
                throw CLIError.invalidInput(error)
            }
        }
        guard let resolved = try preset.resolve(name: pattern) else {
            if let suggestion = PresetLibrary.suggestion(for: pattern) {
                throw CLIError.invalidInput("\(pattern): no such file or preset (did you mean '\(suggestion)'? see `haptics list`)")
            }
            throw CLIError.invalidInput("\(pattern): no such file or preset (see `haptics list`)")
        }
        return LoadedPattern(pattern: resolved, diagnostics: [], name: pattern, isFile: false)
    }
}

extension PatternInput {
    /// Sound files' extensions: `haptics analyze` makes a pattern of them.
    static let soundExtensions = [".wav", ".flac", ".ogg", ".oga", ".mp3", ".aif", ".aiff"]

    /// A file in another format `convert` reads (Meta's `.haptic`, `.android.json`) as a
    /// pattern, with what the reading approximated as notes; nil for any other name. A sound
    /// file is refused with the command that makes a pattern of it.
    static func loadOtherFormat(_ path: String) throws(CLIError) -> LoadedPattern? {
        let name = path.lowercased()
        if soundExtensions.contains(where: { name.hasSuffix($0) }) {
            throw CLIError.invalidInput("\(path): a sound, not a haptic pattern; make a pattern of it with: haptics analyze \(path) -o PATTERN.ahap")
        }
        guard name.hasSuffix(".haptic") || name.hasSuffix(".android.json"), let format = HapticFormat(path: path) else { return nil }
        let data = try ConvertCommand.readFile(path)
        var notes = ConversionNotes()
        do {
            let pattern = try format.read(data, source: path, notes: &notes)
            for note in notes.notes { writeStandardError("\(path): note: \(note.description)") }
            return LoadedPattern(pattern: pattern, diagnostics: [], name: path, isFile: true)
        } catch {
            throw CLIError(message: error.description, code: .invalidInput, isWholeLine: error.description.hasPrefix(path))
        }
    }
}

/// A pattern ready to use, with where it came from and what the decoder had to say.
struct LoadedPattern {
    var pattern: HapticPattern
    var diagnostics: [AHAPDiagnostic]
    /// The file path, `-`, or the preset name.
    var name: String
    /// Whether it came from a file (whose folder sound files resolve against).
    var isFile: Bool
}

/// Reads all of standard input, refusing more than the decoder would accept anyway.
func readStandardInput(limit: Int = AHAPLimits.default.maxInputBytes) throws -> Data {
    do {
        return Data(try BoundedFile.read(descriptor: STDIN_FILENO, limit: limit))
    } catch .tooLarge {
        throw CLIError.invalidInput("-: the input is larger than the \(limit >> 20) MiB input limit")
    } catch {
        throw CLIError.invalidInput("-: cannot read: \(error)")
    }
}
