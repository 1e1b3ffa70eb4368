import HapticsCore

/// What a conversion had to approximate, one entry per kind (not per event), in the order the
/// kinds first happened. `haptics convert` prints each on one line on standard error, and
/// `--strict` turns any of them into an error.
public struct ConversionNotes: Sendable, Hashable, CustomStringConvertible {
    /// One kind of approximation, with how often it happened.
    public struct Note: Sendable, Hashable, CustomStringConvertible {
        /// A short stable identifier, e.g. `audio-events`.
        public var kind: String
        /// What was approximated, and how.
        public var message: String
        /// How many times it happened.
        public var count: Int

        public var description: String { count > 1 ? "\(message) (\(count)×)" : message }
    }

    /// The notes, by first occurrence.
    public private(set) var notes: [Note] = []

    public init() {}

    /// Records one occurrence of an approximation; the first message of a kind is kept.
    public mutating func add(_ kind: String, _ message: @autoclosure () -> String, count: Int = 1) {
        guard count > 0 else { return }
        if let index = notes.firstIndex(where: { $0.kind == kind }) {
            notes[index].count += count
        } else {
            notes.append(Note(kind: kind, message: message(), count: count))
        }
    }

    /// Adds every note of another set.
    public mutating func merge(_ other: ConversionNotes) {
        for note in other.notes { add(note.kind, note.message, count: note.count) }
    }

    /// Whether nothing was approximated.
    public var isEmpty: Bool { notes.isEmpty }

    public var description: String { notes.map(\.description).joined(separator: "\n") }
}

/// A problem that stops a conversion: the input cannot be read, or the output cannot hold it.
public struct FormatError: Error, Sendable, CustomStringConvertible {
    /// One line: `source:line:column: path: message` for a problem at a place in a file (see
    /// ``isLocated``), otherwise `source: message`.
    public var description: String
    /// Whether ``description`` starts with the problem's `file:line:column:`, as compilers
    /// print theirs, so editors and terminals jump to it.
    public var isLocated: Bool

    /// A problem described in one line.
    public init(_ description: String) {
        self.description = description
        isLocated = false
    }

    /// A problem in a JSON input, at its place when it has one.
    package init(_ error: JSONFileError) {
        description = error.description
        isLocated = error.isLocated
    }
}
