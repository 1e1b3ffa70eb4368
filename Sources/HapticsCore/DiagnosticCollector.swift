/// Collects the diagnostics of one decoding run: turns warnings into errors in strict mode,
/// attaches the source and the line and column, and keeps the list bounded.
struct DiagnosticCollector {
    /// Diagnostics beyond this many are counted and summarised in one final line.
    static let maxKept = 200

    let mode: ValidationMode
    let source: String?
    private var locator: SourceLocator
    private var kept: [AHAPDiagnostic] = []
    private var droppedErrors = 0
    private var droppedWarnings = 0
    private(set) var errorCount = 0

    init(mode: ValidationMode, source: String?, bytes: [UInt8]) {
        self.mode = mode
        self.source = source
        self.locator = SourceLocator(bytes: bytes)
    }

    /// Whether anything so far stops the file from loading.
    var hasErrors: Bool { errorCount > 0 }

    /// Records a problem that stops the file from loading.
    mutating func error(_ message: String, at location: String, offset: Int? = nil, suggestion: String? = nil) {
        add(.error, message, at: location, offset: offset, suggestion: suggestion)
    }

    /// Records a questionable thing the decoder accepted; an error in strict mode.
    mutating func warning(_ message: String, at location: String, offset: Int? = nil, suggestion: String? = nil) {
        add(mode == .strict ? .error : .warning, message, at: location, offset: offset, suggestion: suggestion)
    }

    /// Records a problem found while reading the JSON text itself; the message starts with
    /// its line and column, since the JSON path alone may not pinpoint it.
    mutating func syntaxProblem(_ severity: AHAPDiagnostic.Severity, _ message: String, at location: String, offset: Int) {
        let position = locator.position(of: offset)
        let text = "line \(position.line), column \(position.column): \(message)"
        if severity == .error {
            error(text, at: location, offset: offset)
        } else {
            warning(text, at: location, offset: offset)
        }
    }

    /// Notes warnings that happened but were not recorded one by one.
    mutating func warningsNotShown(_ count: Int) {
        guard count > 0 else { return }
        if mode == .strict {
            errorCount += count
            droppedErrors += count
        } else {
            droppedWarnings += count
        }
    }

    private mutating func add(_ severity: AHAPDiagnostic.Severity, _ message: String, at location: String, offset: Int?, suggestion: String?) {
        if severity == .error { errorCount += 1 }
        guard kept.count < Self.maxKept else {
            if severity == .error { droppedErrors += 1 } else { droppedWarnings += 1 }
            return
        }
        var diagnostic = AHAPDiagnostic(severity, at: location, message, suggestion: suggestion, source: source)
        if let offset {
            let position = locator.position(of: offset)
            diagnostic.line = position.line
            diagnostic.column = position.column
        }
        kept.append(diagnostic)
    }

    /// Everything recorded, errors first (each group in the order found), then a line for
    /// what was not kept.
    func diagnostics() -> [AHAPDiagnostic] {
        var result = kept.filter { $0.severity == .error }
        if droppedErrors > 0 {
            result.append(AHAPDiagnostic(.error, at: "", "\(droppedErrors) more errors not shown", source: source))
        }
        result += kept.filter { $0.severity == .warning }
        if droppedWarnings > 0 {
            result.append(AHAPDiagnostic(.warning, at: "", "\(droppedWarnings) more warnings not shown", source: source))
        }
        return result
    }
}
