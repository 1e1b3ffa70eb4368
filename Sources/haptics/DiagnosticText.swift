import Haptics

extension AHAPDiagnostic {
    /// The line the tool prints: `file:line:column: severity: message [JSON path]` (see
    /// ``AHAPDiagnostic/description``); `haptics:` first when it has no place in a file.
    var cliLine: String { isLocated ? description : "haptics: \(description)" }
}

extension [AHAPDiagnostic] {
    /// As a reader of the file meets them: problems with the file as a whole first, then by
    /// line and column (errors and warnings mixed, as compilers print theirs), and last the
    /// lines counting those not shown. Equal places keep the decoder's order.
    var inLineOrder: [AHAPDiagnostic] {
        func rank(_ d: AHAPDiagnostic, _ offset: Int) -> (Int, Int, Int, Int) {
            if d.line == nil { return (d.location.isEmpty && d.message.hasSuffix(" not shown") ? 2 : 0, 0, 0, offset) }
            return (1, d.line ?? 0, d.column ?? 0, offset)
        }
        return enumerated().sorted { rank($0.element, $0.offset) < rank($1.element, $1.offset) }.map(\.element)
    }
}

extension CLIError {
    /// A pattern that cannot be used: its first error, printed at its place.
    static func invalidInput(_ error: AHAPError) -> CLIError {
        guard let first = error.errors.first ?? error.diagnostics.first else { return invalidInput(error.description) }
        return CLIError(message: first.cliLine, code: .invalidInput, isWholeLine: true)
    }
}

/// Prints a loaded pattern's warnings on standard error, one line each, in line order.
func reportWarnings(_ diagnostics: [AHAPDiagnostic]) {
    for diagnostic in diagnostics.inLineOrder {
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
