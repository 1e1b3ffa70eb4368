import Foundation
import HapticsTestSupport
import Testing

@testable import HapticsFormats

/// What a conversion approximated: one note per kind, counted, in the order kinds first happened.
@Suite("ConversionNotes")
struct ConversionNotesTests {
    @Test("one note per kind: the first message kept, the occurrences counted and shown as (N×)")
    func countsByKind() {
        var notes = ConversionNotes()
        #expect(notes.isEmpty && notes.description.isEmpty)
        notes.add("steps", "first message")
        notes.add("range", "values clamped")
        notes.add("steps", "second message", count: 3)
        #expect(notes.notes.map(\.kind) == ["steps", "range"])
        #expect(notes.notes.map(\.message) == ["first message", "values clamped"])
        #expect(notes.notes.map(\.count) == [4, 1])
        #expect(notes.description == "first message (4×)\nvalues clamped")
        #expect(!notes.isEmpty)
    }

    @Test("a count of 0 (or less) is no note, and its message is never made")
    func zeroCount() {
        var notes = ConversionNotes()
        notes.add(
            "audio-events",
            { () -> String in
                Issue.record("the message was made")
                return ""
            }(), count: 0)
        #expect(notes.isEmpty)
    }

    @Test("merging adds the counts of known kinds and appends new ones in order")
    func merges() {
        var a = ConversionNotes()
        a.add("steps", "steps", count: 2)
        var b = ConversionNotes()
        b.add("range", "range")
        b.add("steps", "other steps")
        a.merge(b)
        #expect(a.notes.map(\.kind) == ["steps", "range"])
        #expect(a.notes.map(\.count) == [3, 1])
        #expect(a.notes.first?.message == "steps")
    }

    @Test("a FormatError made from a line is that line, not located; from a located JSON error, located")
    func formatError() throws {
        let plain = FormatError("in.json: not readable")
        #expect(plain.description == "in.json: not readable" && !plain.isLocated)
        var notes = ConversionNotes()
        do throws(FormatError) {
            _ = try HapticFormat.haptic.read(Data("{\n  \"signals\": 1\n}".utf8), source: "in.json", notes: &notes)
            Issue.record("read")
        } catch {
            #expect(error.isLocated && error.description.hasPrefix("in.json:2:"), "\(error)")
        }
    }
}
