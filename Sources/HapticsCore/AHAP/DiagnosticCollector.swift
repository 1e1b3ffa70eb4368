/// Collects the diagnostics of one decoding run: turns warnings into errors in strict mode,
/// attaches the source and the line and column, and keeps the list bounded.
///
/// Messages, locations and suggestions are autoclosures: a hostile file can hold millions of
/// problems, and those beyond the limit are only counted, never formatted.
struct DiagnosticCollector {
    /// Errors, and separately warnings, beyond this many are counted and summarised in one
    /// line each, so that a flood of warnings cannot hide the errors.
    static let maxKeptPerSeverity = 100

    let mode: ValidationMode
    let source: String?
    private var locator: SourceLocator
    private var errors: [AHAPDiagnostic] = []
    private var warnings: [AHAPDiagnostic] = []
    /// Every error found, listed or not.
    private(set) var errorCount = 0
    /// Every warning found, listed or not.
    private(set) var warningCount = 0

    init(mode: ValidationMode, source: String?, bytes: [UInt8]) {
        self.mode = mode
        self.source = source
        self.locator = SourceLocator(bytes: bytes)
    }

    /// Whether anything so far stops the file from loading.
    var hasErrors: Bool { errorCount > 0 }

    /// Records a problem that stops the file from loading.
    mutating func error(
        _ message: @autoclosure () -> String,
        at location: @autoclosure () -> String,
        offset: Int? = nil,
        suggestion: @autoclosure () -> String? = nil
    ) {
        add(.error, message(), at: location(), offset: offset, suggestion: suggestion())
    }

    /// Records a questionable thing the decoder accepted; an error in strict mode.
    /// `consequence` says what lenient reading does about it (`; clamped to 1`, ` is ignored`)
    /// and is left out in strict mode, where nothing is clamped or ignored: the file is refused.
    mutating func warning(
        _ message: @autoclosure () -> String,
        consequence: @autoclosure () -> String = "",
        at location: @autoclosure () -> String,
        offset: Int? = nil,
        suggestion: @autoclosure () -> String? = nil
    ) {
        let strict = mode == .strict
        add(strict ? .error : .warning, strict ? message() : message() + consequence(), at: location(), offset: offset, suggestion: suggestion())
    }

    /// Records a problem found while reading the JSON text itself, at its offset (the JSON
    /// path alone may not pinpoint it).
    mutating func syntaxProblem(_ severity: AHAPDiagnostic.Severity, _ message: String, at location: String, offset: Int) {
        let effective: AHAPDiagnostic.Severity = mode == .strict ? .error : severity
        guard !isFull(effective) else {
            count(effective)
            return
        }
        // The parser's own wording, shared with the profile and settings readers (a duplicate
        // key keeps its "; the last value is used" in strict mode too).
        add(effective, message, at: location, offset: offset, suggestion: nil)
    }

    /// Notes warnings that happened but were not recorded one by one.
    mutating func warningsNotShown(_ count: Int) {
        guard count > 0 else { return }
        if mode == .strict { errorCount += count } else { warningCount += count }
    }

    private func isFull(_ severity: AHAPDiagnostic.Severity) -> Bool {
        (severity == .error ? errors.count : warnings.count) >= Self.maxKeptPerSeverity
    }

    private mutating func count(_ severity: AHAPDiagnostic.Severity) {
        if severity == .error { errorCount += 1 } else { warningCount += 1 }
    }

    private mutating func add(
        _ severity: AHAPDiagnostic.Severity,
        _ message: @autoclosure () -> String,
        at location: @autoclosure () -> String,
        offset: Int?,
        suggestion: @autoclosure () -> String?
    ) {
        defer { count(severity) }
        guard !isFull(severity) else { return }
        var diagnostic = AHAPDiagnostic(severity, at: location(), message(), suggestion: suggestion(), source: source)
        if let offset {
            let position = locator.position(of: offset)
            diagnostic.line = position.line
            diagnostic.column = position.column
        }
        if severity == .error { errors.append(diagnostic) } else { warnings.append(diagnostic) }
    }

    /// Everything recorded, errors first (each group in the order found), each group followed
    /// by a line counting what was not listed.
    func diagnostics() -> [AHAPDiagnostic] {
        var result = errors
        if errorCount > errors.count {
            result.append(AHAPDiagnostic(.error, at: "", "\(errorCount - errors.count) more errors not shown", source: source))
        }
        result += warnings
        if warningCount > warnings.count {
            result.append(AHAPDiagnostic(.warning, at: "", "\(warningCount - warnings.count) more warnings not shown", source: source))
        }
        return result
    }
}
