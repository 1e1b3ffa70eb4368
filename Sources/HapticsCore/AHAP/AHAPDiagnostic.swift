/// How forgiving decoding is.
public enum ValidationMode: String, Sendable, CaseIterable {
    /// Accepts what Core Haptics accepts; questionable input becomes warnings.
    case lenient
    /// Every warning is an error.
    case strict
}

/// One problem found in an AHAP file.
public struct AHAPDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Hashable {
        /// The file loads; something in it is questionable or was ignored.
        case warning
        /// The file does not load.
        case error
    }

    /// Whether the problem stops the file from loading.
    public var severity: Severity
    /// Where in the JSON, e.g. `Pattern[3].Event.EventParameters[1].ParameterValue`; empty for the whole file.
    public var location: String
    /// What is wrong, in one sentence.
    public var message: String
    /// The intended key or name, for near-misses.
    public var suggestion: String?
    /// The file (or `-`) the diagnostic is about.
    public var source: String?
    /// The 1-based line of the JSON text the problem is at, when known.
    public var line: Int?
    /// The 1-based column (in characters) of the JSON text the problem is at, when known.
    public var column: Int?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity,
        at location: String,
        _ message: String,
        suggestion: String? = nil,
        source: String? = nil,
        line: Int? = nil,
        column: Int? = nil
    ) {
        self.severity = severity
        self.location = location
        self.message = message
        self.suggestion = suggestion
        self.source = source
        self.line = line
        self.column = column
    }

    /// One line as compilers print theirs, so editors and CI annotate the place:
    /// `file:line:column: severity: message (did you mean 'X'?) [JSON path]`, leaving out
    /// what is unknown (`file: severity: …` without a position).
    public var description: String {
        var place = source ?? ""
        if let line {
            place += (place.isEmpty ? "" : ":") + "\(line)" + (column.map { ":\($0)" } ?? "")
        }
        var text = (place.isEmpty ? "" : place + ": ") + "\(severity.rawValue): \(message)"
        if let suggestion { text += " (did you mean '\(suggestion)'?)" }
        if !location.isEmpty { text += " [\(location)]" }
        return text
    }

    /// Whether the line begins with a position in a file (`file:line:column:`).
    public var isLocated: Bool { source != nil && line != nil }
}

/// Decoding failed; `diagnostics` holds every problem found, errors first.
public struct AHAPError: Error, Sendable, CustomStringConvertible {
    /// The problems found, errors first. When there are very many, the first ones of each
    /// severity are listed, followed by a line counting the rest.
    public var diagnostics: [AHAPDiagnostic]
    /// How many errors were found, including any not listed in ``diagnostics``.
    public var errorCount: Int
    /// How many warnings were found, including any not listed in ``diagnostics``.
    public var warningCount: Int

    /// Creates an error from its diagnostics; the counts default to those listed.
    package init(_ diagnostics: [AHAPDiagnostic], errorCount: Int? = nil, warningCount: Int? = nil) {
        self.diagnostics = diagnostics
        self.errorCount = errorCount ?? diagnostics.count { $0.severity == .error }
        self.warningCount = warningCount ?? diagnostics.count { $0.severity == .warning }
    }

    /// The first error's line.
    public var description: String {
        (diagnostics.first(where: { $0.severity == .error }) ?? diagnostics.first)?.description ?? "invalid AHAP"
    }

    /// The problems that stop the file from loading.
    public var errors: [AHAPDiagnostic] { diagnostics.filter { $0.severity == .error } }
}

/// A decoded pattern and the warnings found on the way.
public struct AHAPDocument: Sendable {
    /// The pattern, with out-of-range values clamped and unknown entries left out.
    public var pattern: HapticPattern
    /// The warnings found while decoding (never errors: those make decoding throw). When there
    /// are very many, the first ones are listed, followed by a line counting the rest.
    public var diagnostics: [AHAPDiagnostic]
    /// How many warnings were found, including any not listed in ``diagnostics``.
    public var warningCount: Int

    /// Creates a document; the count defaults to the warnings listed.
    package init(pattern: HapticPattern, diagnostics: [AHAPDiagnostic] = [], warningCount: Int? = nil) {
        self.pattern = pattern
        self.diagnostics = diagnostics
        self.warningCount = warningCount ?? diagnostics.count
    }
}
