extension String {
    /// The string cut or filled with spaces to `width` characters, for aligned columns.
    ///
    /// Foundation's `padding(toLength:withPad:startingAt:)` does the same through NSString on
    /// Linux, and that bridging was about 7% of `haptics list`'s CPU time.
    func padded(to width: Int) -> String {
        let count = self.count
        if count > width { return String(prefix(width)) }
        return self + String(repeating: " ", count: width - count)
    }

    /// The text right-aligned in `width` columns (`%10.3f`'s padding); longer text stays whole.
    func rightAligned(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

extension Array where Element == String {
    /// The elements with `separator` between them, as the standard library's
    /// `joined(separator:)` (which this shadows in the tool): that one is generic over
    /// collections, and its first call in a process looks up the collection's associated types,
    /// about 0.05 ms of every command's start-up.
    func joined(separator: String) -> String {
        var text = ""
        for index in indices {
            if index > 0 { text += separator }
            text += self[index]
        }
        return text
    }
}
