import Foundation
import HapticsCore
import HapticsTestSupport
import Testing

@testable import HapticsFormats

/// `haptics convert`'s formats: which a path names, which can be read, what each writer notes
/// it approximated, and the refusals.
@Suite("HapticFormat")
struct HapticFormatTests {
    static let pattern = HapticPattern(events: [
        .transient(at: 0, intensity: 1, sharpness: 0.8), .continuous(at: 0.05, duration: 0.2, intensity: 0.6, sharpness: 0.3),
    ])

    @Test("every format from its extension, in any case, after any folders; .json alone is AHAP; others none")
    func detection() {
        let cases: [(String, HapticFormat?)] = [
            ("tap.ahap", .ahap), ("TAP.AHAP", .ahap), ("dir.v2/tap.json", .ahap), ("tap.haptic", .haptic), ("tap.android.json", .androidJSON),
            ("tap.kt", .androidKotlin), ("tap.web.json", .webJSON), ("tap.js", .webJavaScript), ("tap.mjs", .webJavaScript),
            ("tap.feedbackd.json", .feedbackd), ("tap.csv", .rumbleCSV), ("tap.wav", nil), ("tap", nil), ("dir.ahap/tap", nil),
        ]
        for (path, format) in cases { #expect(HapticFormat(path: path) == format, "\(path)") }
        #expect(Set(HapticFormat.allCases.map(\.rawValue)).count == HapticFormat.allCases.count)
    }

    @Test("four formats are readable; reading an output-only format is one line naming the source and the readable ones")
    func readable() {
        #expect(HapticFormat.allCases.filter(\.isReadable) == [.ahap, .haptic, .androidJSON, .webJSON])
        for format in HapticFormat.allCases where !format.isReadable {
            var notes = ConversionNotes()
            do throws(FormatError) {
                _ = try format.read(Data("{}".utf8), source: "in.x", notes: &notes)
                Issue.record("\(format) was read")
            } catch {
                #expect(FuzzRun.refusal(error.description, .source("in.x: \(format.rawValue) is an output format only"), label: "\(format)") == .refused)
                #expect(error.description.contains("ahap, haptic, android-json, web-json"))
            }
        }
    }

    @Test("AHAP is written as it is, with no note; every other format notes what it approximated, and what it writes reads back")
    func writesEveryFormat() throws {
        for format in HapticFormat.allCases {
            var notes = ConversionNotes()
            let data = try format.write(Self.pattern, name: "tap", notes: &notes)
            #expect(!data.isEmpty, "\(format)")
            #expect(notes.isEmpty == (format == .ahap), "\(format): \(notes)")
            guard format.isReadable else { continue }
            var readNotes = ConversionNotes()
            let back = try format.read(data, source: "back", notes: &readNotes)
            #expect(back.events.contains { $0.kind == .transient } || format == .webJSON, "\(format): the tap read back")
            #expect(back.duration >= 0.2, "\(format): \(back.duration) s")
        }
    }

    @Test("the rumble CSV: a header, then time_ms,strong,weak every 10 ms, the motors 0…65535, and its note")
    func rumbleCSV() throws {
        var notes = ConversionNotes()
        let text = String(decoding: try HapticFormat.rumbleCSV.write(Self.pattern, name: "tap", notes: &notes), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.first == "time_ms,strong,weak")
        let rows = lines.dropFirst().map { $0.split(separator: ",").compactMap { Int($0) } }
        #expect(rows.count >= 25 && rows.allSatisfy { $0.count == 3 })
        #expect(rows.map { $0[0] } == Array(stride(from: 0, to: rows.count * 10, by: 10)))
        #expect(rows.allSatisfy { (0...65535).contains($0[1]) && (0...65535).contains($0[2]) })
        #expect(rows.contains { $0[1] > 0 || $0[2] > 0 })
        #expect(notes.notes.map(\.kind) == ["rumble"])
    }

    @Test("AHAP keeps continuous events longer than 30 s, and notes that Core Haptics refuses them")
    func longAHAP() throws {
        var notes = ConversionNotes()
        let data = try HapticFormat.ahap.write(HapticPattern(events: [.continuous(at: 0, duration: 31)]), name: "long", notes: &notes)
        #expect(notes.notes.map(\.kind) == ["ahap-30s"])
        var readNotes = ConversionNotes()
        #expect(try HapticFormat.ahap.read(data, source: "back", notes: &readNotes).events.map(\.duration) == [31])
    }

    @Test("broken input in each readable format is one located line")
    func malformed() {
        for format in HapticFormat.allCases where format.isReadable {
            locatedRefusal("{\n  \"Pattern\": [,]\n}") { (data, source) throws(FormatError) in
                var notes = ConversionNotes()
                return try format.read(data, source: source, notes: &notes)
            }
        }
    }
}
