/// Finds the name a writer probably meant, for "did you mean …?" hints.
enum KeySuggestion {
    /// The candidate closest to `name`, if it is close enough to be a plausible typo: equal
    /// ignoring case, one containing the other (`ParameterCurves`, `HapticIntensityControl`
    /// for `HapticIntensity`), or within an edit distance of about a third of its length.
    static func best(for name: String, among candidates: some Sequence<String>) -> String? {
        let lowered = name.lowercased()
        guard !lowered.isEmpty, lowered.count <= 64 else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let other = candidate.lowercased()
            if other == lowered { return candidate }
            let distance = editDistance(Array(lowered.unicodeScalars), Array(other.unicodeScalars))
            let contained = other.count >= 4 && lowered.count >= 4 && (other.contains(lowered) || lowered.contains(other))
            let allowed = max(1, min(lowered.count, other.count) / 3)
            guard contained || distance <= allowed else { continue }
            if let current = best, current.distance <= distance { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// Levenshtein distance: insertions, deletions and substitutions each cost one.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
