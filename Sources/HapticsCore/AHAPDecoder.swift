import Foundation

// API CONTRACT STUB — replaced by the real decoder. Signatures here are what other layers use.

/// How forgiving decoding is.
public enum ValidationMode: String, Sendable, CaseIterable {
    /// Accepts what Core Haptics accepts; questionable input becomes warnings.
    case lenient
    /// Every warning is an error.
    case strict
}

/// One problem found in an AHAP file.
public struct AHAPDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable { case warning, error }
    public var severity: Severity
    /// Where in the JSON, e.g. `Pattern[3].Event.EventParameters[1].ParameterValue`; empty for the whole file.
    public var location: String
    public var message: String
    /// The intended key, for near-misses.
    public var suggestion: String?
    /// The file (or `-`) the diagnostic is about.
    public var source: String?

    public init(_ severity: Severity, at location: String, _ message: String, suggestion: String? = nil, source: String? = nil) {
        self.severity = severity
        self.location = location
        self.message = message
        self.suggestion = suggestion
        self.source = source
    }

    public var description: String {
        var parts: [String] = []
        if let source { parts.append(source) }
        if !location.isEmpty { parts.append(location) }
        var text = (parts + [message]).joined(separator: ": ")
        if let suggestion { text += " (did you mean '\(suggestion)'?)" }
        return text
    }
}

/// Decoding failed; `diagnostics` holds every problem found, errors first.
public struct AHAPError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [AHAPDiagnostic]
    public init(_ diagnostics: [AHAPDiagnostic]) { self.diagnostics = diagnostics }
    public var description: String {
        (diagnostics.first(where: { $0.severity == .error }) ?? diagnostics.first)?.description ?? "invalid AHAP"
    }
}

/// A decoded pattern and the warnings found on the way.
public struct AHAPDocument: Sendable {
    public var pattern: HapticPattern
    public var diagnostics: [AHAPDiagnostic]
}

/// Reads AHAP JSON into a ``HapticPattern``.
public struct AHAPDecoder: Sendable {
    public var mode: ValidationMode
    public init(mode: ValidationMode = .lenient) { self.mode = mode }

    public func decode(_ data: Data, source: String? = nil, baseDirectory: URL? = nil) throws(AHAPError) -> AHAPDocument {
        throw AHAPError([AHAPDiagnostic(.error, at: "", "decoder not implemented", source: source)])
    }

    public func decode(contentsOf url: URL) throws(AHAPError) -> AHAPDocument {
        throw AHAPError([AHAPDiagnostic(.error, at: "", "decoder not implemented", source: url.path)])
    }
}

/// Writes a ``HapticPattern`` as canonical AHAP JSON.
public struct AHAPEncoder: Sendable {
    public init() {}
    public func encode(_ pattern: HapticPattern) -> Data { Data() }
}
