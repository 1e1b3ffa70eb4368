/// Turns byte offsets into the 1-based line and column (in characters) editors show.
struct SourceLocator {
    private let bytes: [UInt8]
    /// Offsets where each line starts; built on the first lookup, since most inputs never need it.
    private var lineStarts: [Int]?

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The line and column of an offset (clamped to the input).
    mutating func position(of offset: Int) -> (line: Int, column: Int) {
        let starts = lineStarts ?? buildLineStarts()
        lineStarts = starts
        let offset = min(max(offset, 0), bytes.count)
        // The last line start at or before the offset.
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let column = bytes.withUnsafeBufferPointer { buffer in
            Self.characterCount(buffer, from: starts[low], to: offset)
        }
        return (low + 1, column + 1)
    }

    private func buildLineStarts() -> [Int] {
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            for index in buffer.indices where buffer[index] == 0x0A {
                starts.append(index + 1)
            }
        }
        return starts
    }

    /// The line and column of an offset, by scanning from the start: for a single lookup.
    static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        let offset = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return (line, characterCount(bytes, from: lineStart, to: offset) + 1)
    }

    /// Characters (UTF-8 lead bytes) in a range, so columns match what an editor shows.
    private static func characterCount(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var count = 0
        for index in start..<end where bytes[index] & 0xC0 != 0x80 {
            count += 1
        }
        return count
    }
}
