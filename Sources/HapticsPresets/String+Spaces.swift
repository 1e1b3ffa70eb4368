extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: what
    /// `trimmingCharacters(in: .whitespaces)` removes (Unicode space separators and the tab).
    ///
    /// Foundation builds a CharacterSet for that on first use, a measurable part of
    /// `haptics play <preset>`'s start-up; these names are a few characters long.
    package func trimmingSpaces() -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isSpace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.isSpace })!
        return String(Substring(scalars[first...last]))
    }
}

private extension Unicode.Scalar {
    var isSpace: Bool { self == "\t" || properties.generalCategory == .spaceSeparator }
}
