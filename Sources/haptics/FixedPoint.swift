import CSystem

extension Double {
    /// The number with `decimals` digits after the point, as C's `%.*f` writes it: `0.250`,
    /// `-1.5`, `inf`. The tool uses only FoundationEssentials, which has no `String(format:)`
    /// (anything from Foundation proper links all of it into the binary), and formatting
    /// through `CVarArg` cost a process's first call 0.1 ms of conformance lookups.
    func fixed(_ decimals: Int) -> String {
        let decimals = Int32(clamping: max(0, min(decimals, 40)))
        // 309 digits before the point at most, a sign, a point and 40 decimals.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 360) { buffer in
            let length = buffer.withMemoryRebound(to: CChar.self) { text in
                Int(haptics_format_fixed(text.baseAddress, text.count, decimals, self))
            }
            return String(decoding: buffer[..<min(max(length, 0), buffer.count - 1)], as: UTF8.self)
        }
    }
}
