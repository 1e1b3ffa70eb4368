import Haptics

extension AHAPDiagnostic {
    /// The line the tool prints: `file: location: severity: message (did you mean 'X'?)`.
    var cliLine: String {
        var parts: [String] = []
        if let source { parts.append(source) }
        if !location.isEmpty { parts.append(location) }
        parts.append("\(severity.rawValue): \(message)")
        var text = parts.joined(separator: ": ")
        if let suggestion { text += " (did you mean '\(suggestion)'?)" }
        return text
    }
}

/// Prints a loaded pattern's warnings on standard error, one line each.
func reportWarnings(_ diagnostics: [AHAPDiagnostic]) {
    for diagnostic in diagnostics {
        writeStandardError(diagnostic.cliLine)
    }
}
