import Foundation
import HapticsCore
import HapticsTestSupport
import Testing

@testable import HapticsFormats

/// Meta's `.haptic` v1 clips: Meta's rules read (√amplitude, ducking, emphasis taps,
/// √frequency) and written (their inverse), the notes of each approximation, located refusals.
@Suite("LofeltHaptic")
struct LofeltHapticTests {
    static let clip = """
        {"version": {"major": 1, "minor": 0, "patch": 0},
         "metadata": {"project": "P", "description": "D", "author": "A", "editor": "E", "source": "S", "tags": []},
         "signals": {"continuous": {"envelopes": {
           "amplitude": [{"time": 0, "amplitude": 0.25},
                         {"time": 0.1, "amplitude": 0.64, "emphasis": {"amplitude": 0.81, "frequency": 0.7}},
                         {"time": 0.2, "amplitude": 0}],
           "frequency": [{"time": 0, "frequency": 0.36}, {"time": 0.2, "frequency": 1}]}}}}
        """

    static func read(_ data: Data, _ source: String) throws(FormatError) -> (HapticLayers, HapticPattern.Metadata) {
        var notes = ConversionNotes()
        return try LofeltHaptic.layers(from: data, source: source, notes: &notes)
    }

    @Test("intensity √amplitude ducked by 20% at an emphasis, the emphasis a tap, sharpness √frequency, the metadata kept")
    func readsClip() throws {
        var notes = ConversionNotes()
        let (layers, metadata) = try LofeltHaptic.layers(from: Data(Self.clip.utf8), source: "in.json", notes: &notes)
        #expect(close(layers.intensity, [.init(0, 0.5), .init(0.1, 0.8 * (1 - LofeltHaptic.ducking)), .init(0.2, 0)]), "\(layers.intensity)")
        #expect(close(layers.sharpness, [.init(0, 0.6), .init(0.2, 1)]), "\(layers.sharpness)")
        #expect(layers.transients.count == 1)
        #expect(layers.transients.first.map { close($0.time, 0.1) && close($0.intensity, 0.9) && close($0.sharpness, 0.7) } == true)
        #expect(metadata.project == "P" && metadata.description == "D")
        #expect(metadata.other == ["Author": "A", "Editor": "E", "Source": "S"])
        #expect(notes.notes.map(\.kind) == ["ducking"])
    }

    @Test("as a pattern: the emphasis is a transient at its time, the continuous layer continuous events")
    func readsPattern() throws {
        var notes = ConversionNotes()
        let pattern = try LofeltHaptic.pattern(from: Data(Self.clip.utf8), notes: &notes)
        let transients = pattern.events.filter { $0.kind == .transient }
        #expect(transients.count == 1)
        #expect(transients.first.map { close($0.relativeTime, 0.1) } == true)
        #expect(pattern.events.contains { $0.kind == .continuous })
        #expect(pattern.metadata.project == "P")
    }

    @Test("values outside 0…1 are clamped, and said so")
    func clamps() throws {
        var notes = ConversionNotes()
        let text = #"{"signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 1.5}, {"time": 0.1, "amplitude": -1}]}}}}"#
        let (layers, _) = try LofeltHaptic.layers(from: Data(text.utf8), notes: &notes)
        #expect(close(layers.intensity, [.init(0, 1), .init(0.1, 0)]))
        #expect(notes.notes.map(\.kind) == ["range"])
    }

    @Test("writing: amplitude intensity², a tap an emphasis with breakpoints 2 ms either side, an end at 0; it reads back")
    func writesAndReadsBack() throws {
        let layers = HapticLayers(
            intensity: [.init(0, 0.5), .init(0.2, 0.5)], sharpness: [.init(0, 0.6)], transients: [.init(time: 0.1, intensity: 0.9, sharpness: 0.7)])
        var notes = ConversionNotes()
        let data = LofeltHaptic.encode(layers, notes: &notes)
        #expect(notes.notes.map(\.kind) == ["ducking"])
        var readNotes = ConversionNotes()
        let (back, _) = try LofeltHaptic.layers(from: data, notes: &readNotes)
        #expect(back.intensity.map(\.time).map { ($0 * 1000).rounded() } == [0, 98, 100, 102, 200, 201])
        #expect(close(back.intensity.map(\.value), [0.5, 0.5, 0.5 * (1 - LofeltHaptic.ducking), 0.5, 0.5, 0], within: 1e-4))
        #expect(back.transients.count == 1)
        #expect(back.transients.first.map { close($0.time, 0.1) && close($0.intensity, 0.9, within: 1e-4) && close($0.sharpness, 0.7) } == true)
        #expect(close(back.sharpness, [.init(0, 0.6)], within: 1e-4))
    }

    @Test("taps less than 1 ms apart are merged into the stronger emphasis, and counted")
    func mergesTaps() throws {
        let layers = HapticLayers(transients: [.init(time: 0.1, intensity: 0.5, sharpness: 0.2), .init(time: 0.1005, intensity: 1, sharpness: 0.9)])
        var notes = ConversionNotes()
        let data = LofeltHaptic.encode(layers, notes: &notes)
        #expect(notes.notes.map(\.kind) == ["merged-taps"])
        #expect(notes.notes.first?.count == 1)
        var readNotes = ConversionNotes()
        let (back, _) = try LofeltHaptic.layers(from: data, notes: &readNotes)
        #expect(back.transients.map(\.intensity) == [1])
        #expect(back.transients.map(\.sharpness) == [0.9])
    }

    @Test("version 2, a breakpoint back in time, no signals, a string amplitude: one located line each")
    func malformed() {
        #expect(
            locatedRefusal(#"{"version": {"major": 2}, "signals": {"continuous": {"envelopes": {"amplitude": []}}}}"#, Self.read).contains("not supported"))
        let backwards =
            "{\"signals\": {\"continuous\": {\"envelopes\": {\"amplitude\": [\n{\"time\": 0.2, \"amplitude\": 0},\n{\"time\": 0.1, \"amplitude\": 0}]}}}}"
        let message = locatedRefusal(backwards, Self.read)
        #expect(message.hasPrefix("in.json:3:") && message.contains("goes back in time"), "\(message)")
        locatedRefusal(#"{"version": {"major": 1}}"#, Self.read)
        locatedRefusal(#"{"signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": "loud"}]}}}}"#, Self.read)
    }
}
