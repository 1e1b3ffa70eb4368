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

extension JSONFileError {
    /// The line the tool prints for a problem in a profile or settings file. A problem at a
    /// place in the text begins with that place, as compilers print theirs, so editors and
    /// terminals can jump to it: `file:line:column: [severity: ]path: message[; consequence]`.
    /// A problem with the file as a whole names the tool first:
    /// `haptics: [severity: ]file: message[; consequence]`.
    func cliLine(severity: AHAPDiagnostic.Severity? = nil, consequence: String = "") -> String {
        let label = severity.map { ["\($0.rawValue)"] } ?? []
        guard isLocated else {
            return (["haptics"] + label + [description]).joined(separator: ": ") + consequence
        }
        return ([location] + label + (path.isEmpty ? [] : [path]) + [problem.message]).joined(separator: ": ") + consequence
    }
}

extension HapticSettingsError {
    /// The warning line for a settings problem; `consequence` (such as `; using default
    /// settings`) ends it.
    func cliWarningLine(consequence: String = "") -> String {
        switch self {
        case .file(let error): error.cliLine(severity: .warning, consequence: consequence)
        case .variable: "haptics: warning: \(description)\(consequence)"
        }
    }
}
