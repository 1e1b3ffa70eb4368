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
}
