extension StringProtocol {
    /// The text without the given characters at either end. Foundation's CharacterSet
    /// version links Foundation proper into the tool, and what is trimmed here (device
    /// names, /proc lines) only ever has ASCII blanks.
    func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
