import FoundationEssentials

/// Reads AHAP JSON into a ``HapticPattern``.
///
/// ```swift
/// let document = try AHAPDecoder().decode(contentsOf: url)
/// for warning in document.diagnostics { print(warning) }
/// play(document.pattern)
/// ```
///
/// In ``ValidationMode/lenient`` mode (the default) the decoder accepts what Core Haptics
/// accepts — trailing commas, unknown keys, out-of-range values (clamped), a missing
/// `Version`, unsorted events — and reports the questionable parts as warnings. In
/// ``ValidationMode/strict`` mode every warning is an error. Either way, decoding throws an
/// ``AHAPError`` holding every problem found (errors first), each with its JSON location,
/// such as `Pattern[3].Event.Time`.
///
/// Input beyond ``AHAPLimits`` is refused early and cheaply, whatever the mode.
public struct AHAPDecoder: Sendable {
    /// How forgiving decoding is.
    public var mode: ValidationMode
    /// The limits that protect the machine from hostile input.
    public var limits: AHAPLimits

    /// Creates a decoder.
    public init(mode: ValidationMode = .lenient, limits: AHAPLimits = .default) {
        self.mode = mode
        self.limits = limits
    }

    /// Decodes AHAP JSON.
    ///
    /// - Parameters:
    ///   - data: the JSON text, UTF-8.
    ///   - source: the name diagnostics give for the input, such as a file path or `-`.
    ///   - baseDirectory: the folder `EventWaveformPath` is relative to (the AHAP file's
    ///     folder). When given, missing sound files are reported as warnings; when `nil`,
    ///     sound files are not looked for.
    /// - Returns: the pattern and the warnings found.
    /// - Throws: ``AHAPError`` with every problem found, errors first.
    public func decode(_ data: Data, source: String? = nil, baseDirectory: URL? = nil) throws(AHAPError) -> AHAPDocument {
        guard data.count <= limits.maxInputBytes else {
            throw AHAPError([
                AHAPDiagnostic(
                    .error, at: "",
                    "the input is \(data.count) bytes, more than the \(AHAPInputReader.describe(limits.maxInputBytes)) input limit",
                    source: source)
            ])
        }
        return try decode(bytes: [UInt8](data), source: source, baseDirectory: baseDirectory.map(SoundFolder.url))
    }

    /// Decodes bytes read from a file or descriptor (see ``decode(_:source:baseDirectory:)``),
    /// without the copy a `Data` needs.
    private func decode(bytes: [UInt8], source: String?, baseDirectory: SoundFolder?) throws(AHAPError) -> AHAPDocument {
        var report = DiagnosticCollector(mode: mode, source: source, bytes: bytes)
        let parsed = JSONParser.parse(bytes, limits: JSONParser.Limits(limits))
        for issue in parsed.issues {
            report.syntaxProblem(.warning, issue.message, at: issue.path, offset: issue.offset)
        }
        report.warningsNotShown(parsed.issueCount - parsed.issues.count)

        let root: JSONValue
        switch parsed.result {
        case .failure(let failure):
            report.syntaxProblem(.error, failure.message, at: failure.path, offset: failure.offset)
            throw AHAPError(report.diagnostics(), errorCount: report.errorCount, warningCount: report.warningCount)
        case .success(let value):
            root = value
        }
        var reader = AHAPPatternReader(report: report, limits: limits, baseDirectory: baseDirectory, bytes: bytes)
        let pattern = reader.read(root)
        let final = reader.report
        guard let pattern, !final.hasErrors else {
            throw AHAPError(final.diagnostics(), errorCount: final.errorCount, warningCount: final.warningCount)
        }
        return AHAPDocument(pattern: pattern, diagnostics: final.diagnostics(), warningCount: final.warningCount)
    }

    /// Decodes an AHAP file. Sound files of AudioCustom events are looked for next to it.
    ///
    /// Diagnostics name the file by its path as given (`url.relativePath`). A file larger
    /// than ``AHAPLimits/maxInputBytes`` is refused before it is read.
    public func decode(contentsOf url: URL) throws(AHAPError) -> AHAPDocument {
        let source = url.isFileURL ? url.relativePath : url.absoluteString
        let bytes = try AHAPInputReader.read(contentsOf: url, source: source, limit: limits.maxInputBytes)
        return try decode(bytes: bytes, source: source, baseDirectory: .url(url.deletingLastPathComponent()))
    }

    /// Decodes the AHAP file at a path, as ``decode(contentsOf:)`` does: diagnostics name it as
    /// given, sound files are looked for next to it. (Paths are accepted as `URL` and as
    /// `String` wherever the toolkit reads or writes a file.) No `URL` is made unless a sound
    /// file needs one, which the command-line tool's start-up notices.
    public func decode(contentsOfFile path: String) throws(AHAPError) -> AHAPDocument {
        let bytes = try AHAPInputReader.read(path: path, source: path, limit: limits.maxInputBytes)
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        return try decode(bytes: bytes, source: path, baseDirectory: .path(folder))
    }

    /// Decodes everything a file descriptor delivers, such as standard input
    /// (`STDIN_FILENO`), reading no more than ``AHAPLimits/maxInputBytes``.
    ///
    /// - Parameters:
    ///   - fileDescriptor: where to read from, until its end; left open.
    ///   - source: the name diagnostics give for the input, such as `-`.
    ///   - baseDirectory: the folder sound files are relative to; `nil` (the default) does not
    ///     look for them.
    public func decode(fileDescriptor: Int32, source: String, baseDirectory: URL? = nil) throws(AHAPError) -> AHAPDocument {
        let bytes = try AHAPInputReader.read(fileDescriptor: fileDescriptor, source: source, limit: limits.maxInputBytes)
        return try decode(bytes: bytes, source: source, baseDirectory: baseDirectory.map(SoundFolder.url))
    }
}
