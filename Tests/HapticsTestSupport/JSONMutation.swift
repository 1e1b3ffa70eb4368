/// Seeded mutational fuzzing of small JSON files (profiles, settings): valid documents with
/// bytes deleted, inserted, replaced or cut off, and numbers swapped for hostile ones, from a
/// fixed seed so that a failure reproduces.
public struct JSONMutator {
    /// SplitMix64: tiny, fast, and the same sequence on every machine.
    public struct SeededGenerator: RandomNumberGenerator {
        private var state: UInt64
        public init(seed: UInt64) { state = seed }
        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The valid documents mutations start from.
    public let seeds: [String]
    /// Key names and fragments worth splicing in (the format's own keys, near misses).
    public let words: [String]
    private var random: SeededGenerator

    /// Numbers that probe range checks: negative, zero, one, huge, tiny, fractional, exact
    /// bounds and just past them.
    public static let hostileNumbers = [
        "-1", "0", "-0", "1", "2", "999999999", "1e308", "-1e308", "1e-320", "0.5", "1.5", "4", "4.0000001",
        "8000", "7999", "192000", "192001", "48000", "20000", "20001", "32", "33", "65535", "4294967296",
        "9223372036854775807", "1e19", "NaN", "Infinity", "true", "null", "\"\"", "[]", "{}", "[-1]", "[0]", "[1]",
    ]

    public init(seeds: [String], words: [String], seed: UInt64) {
        self.seeds = seeds
        self.words = words
        random = SeededGenerator(seed: seed)
    }

    /// The next damaged document.
    public mutating func next() -> [UInt8] {
        var bytes = Array(seeds[Int.random(in: 0..<seeds.count, using: &random)].utf8)
        let alphabet = Array("{}[]\",:0123456789.-+eE \n\\tnfu".utf8) + [0x00, 0x80, 0xC3, 0xFF]
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0...6, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes.remove(at: position)
            case 1:
                bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: position)
            case 2 where !bytes.isEmpty:
                bytes[position] = alphabet.randomElement(using: &random) ?? 0
            case 3 where !bytes.isEmpty && Int.random(in: 0..<4, using: &random) == 0:
                bytes.removeSubrange(position...)
            case 4, 5:
                replaceNumber(in: &bytes, with: Self.hostileNumbers.randomElement(using: &random) ?? "0")
            default:
                let word = words.randomElement(using: &random) ?? "x"
                bytes.insert(contentsOf: Array(word.utf8), at: position)
            }
        }
        return bytes
    }

    /// Replaces one run of number characters with `text`.
    private mutating func replaceNumber(in bytes: inout [UInt8], with text: String) {
        let isNumberByte: (UInt8) -> Bool = { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
        let starts = bytes.indices.filter { isNumberByte(bytes[$0]) && ($0 == 0 || !isNumberByte(bytes[$0 - 1])) }
        guard let start = starts.randomElement(using: &random) else { return }
        var end = start
        while end < bytes.count, isNumberByte(bytes[end]) || bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E") { end += 1 }
        bytes.replaceSubrange(start..<end, with: Array(text.utf8))
    }
}

/// The 1-based line and column of the first `^` in `text`, and the text without it: lets a
/// test mark where an error must point.
public func markedLocation(_ text: String) -> (text: String, line: Int, column: Int) {
    var line = 1
    var column = 1
    for character in text {
        if character == "^" { break }
        if character == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }
    var stripped = text
    if let index = stripped.firstIndex(of: "^") { stripped.remove(at: index) }
    return (stripped, line, column)
}
