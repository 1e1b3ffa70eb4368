import Foundation
import HapticsTestSupport
import Testing
@testable import HapticsCore

/// Decodes JSON text as the file `test.ahap`.
func decode(_ json: String, mode: ValidationMode = .lenient, baseDirectory: URL? = nil) throws(AHAPError) -> AHAPDocument {
    try AHAPDecoder(mode: mode).decode(Data(json.utf8), source: "test.ahap", baseDirectory: baseDirectory)
}

/// Every diagnostic of decoding JSON text, whether decoding succeeded or failed.
func diagnostics(of json: String, mode: ValidationMode = .lenient, baseDirectory: URL? = nil) -> [AHAPDiagnostic] {
    do {
        return try decode(json, mode: mode, baseDirectory: baseDirectory).diagnostics
    } catch {
        return error.diagnostics
    }
}

/// The errors of decoding JSON text; empty when it decodes.
func errors(of json: String, mode: ValidationMode = .lenient) -> [AHAPDiagnostic] {
    diagnostics(of: json, mode: mode).filter { $0.severity == .error }
}

/// A document whose `Pattern` holds the given elements (JSON text, comma-separated).
func document(_ elements: String) -> String {
    "{ \"Version\": 1.0, \"Pattern\": [ \(elements) ] }"
}

/// A transient event element at a time.
func transient(at time: String = "0", extra: String = "") -> String {
    "{ \"Event\": { \"Time\": \(time), \"EventType\": \"HapticTransient\"\(extra.isEmpty ? "" : ", " + extra) } }"
}
