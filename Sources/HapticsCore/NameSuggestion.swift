/// Finds the name someone probably meant, for "did you mean …?" hints: the one implementation
/// behind AHAP keys, profile and settings keys, categories and preset names.
package enum NameSuggestion {
    /// The candidate closest to `name`, if it is close enough to be a plausible slip rather
    /// than another word: equal once case, `-` and `_` are ignored, one containing the other
    /// (`ParameterCurves`, `HapticIntensityControl` for `HapticIntensity`), or within an edit
    /// distance of about a third of the shorter name (an adjacent transposition is one edit).
    /// Ties go to the first candidate.
    package static func best(for name: String, among candidates: some Sequence<String>) -> String? {
        let key = normalized(name)
        guard !key.isEmpty, key.count <= 64 else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let other = normalized(candidate)
            if other == key { return candidate }
            guard !other.isEmpty, other.count <= 64 else { continue }
            let distance = editDistance(key, other)
            let contained = other.count >= 4 && key.count >= 4 && (contains(other, key) || contains(key, other))
            let allowed = max(1, min(key.count, other.count) / 3)
            guard contained || distance <= allowed else { continue }
            if let current = best, current.distance <= distance { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// The name as compared: lowercased, without `-` and `_`, as unicode scalars.
    static func normalized(_ name: String) -> [Unicode.Scalar] {
        name.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" }
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit (optimal string
    /// alignment): insertions, deletions, substitutions and swaps each cost one.
    package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// Whether `needle` occurs in `haystack` as a contiguous run.
    private static func contains(_ haystack: [Unicode.Scalar], _ needle: [Unicode.Scalar]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}
