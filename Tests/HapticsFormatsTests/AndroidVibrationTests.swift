import Foundation
import HapticsCore
import HapticsTestSupport
import Testing

@testable import HapticsFormats

/// Android's three effects (`.android.json`, `.kt`): what the writer makes of layers, what the
/// reader makes of each form, the notes of what either approximated, and located refusals.
@Suite("AndroidVibration")
struct AndroidVibrationTests {
    static func read(_ text: String, notes: inout ConversionNotes) throws(FormatError) -> HapticLayers {
        try AndroidVibration.layers(fromJSON: Data(text.utf8), source: "in.json", notes: &notes)
    }

    @Test("the envelope and composition read back as the continuous layer and taps, primitives as their sharpness")
    func readsEnvelopeAndComposition() throws {
        let text = """
            {"format": "haptics-android", "version": 1,
             "envelope": {"initialSharpness": 0.3, "controlPoints": [
               {"intensity": 0.5, "sharpness": 0.2, "durationMillis": 100},
               {"intensity": 0, "sharpness": 0.2, "durationMillis": 50}]},
             "composition": [{"primitive": "CLICK", "scale": 0.7, "delayMillis": 30}, {"primitive": "THUD", "scale": 1, "delayMillis": 20}]}
            """
        var notes = ConversionNotes()
        let layers = try Self.read(text, notes: &notes)
        #expect(close(layers.intensity, [.init(0, 0), .init(0.1, 0.5), .init(0.15, 0)]), "\(layers.intensity)")
        #expect(close(layers.sharpness, [.init(0, 0.3), .init(0.1, 0.2), .init(0.15, 0.2)]), "\(layers.sharpness)")
        #expect(layers.transients.count == 2)
        #expect(close(layers.transients[0].time, 0.03) && layers.transients[0].intensity == 0.7 && layers.transients[0].sharpness == 0.625)
        #expect(close(layers.transients[1].time, 0.05) && layers.transients[1].intensity == 1 && layers.transients[1].sharpness == 0)
        #expect(notes.notes.map(\.kind) == ["primitives"])
        #expect(notes.notes.first?.count == 2)
    }

    @Test("a waveform alone reads as steps of intensity √(amplitude/255), with the note that it has no sharpness")
    func readsWaveform() throws {
        let text = #"{"format": "haptics-android", "waveform": {"timings": [100, 50, 40], "amplitudes": [255, 0, 64], "repeat": -1}}"#
        var notes = ConversionNotes()
        let layers = try Self.read(text, notes: &notes)
        #expect(HapticLayers.value(of: layers.intensity, at: 0.05) == 1)
        #expect(HapticLayers.value(of: layers.intensity, at: 0.12) == 0)
        #expect(close(HapticLayers.value(of: layers.intensity, at: 0.17), (64.0 / 255).squareRoot()))
        #expect(close(layers.intensity.suffix(1), [.init(0.19, 0)]))
        #expect(layers.sharpness.isEmpty && layers.transients.isEmpty)
        #expect(notes.notes.map(\.kind) == ["waveform-read"])
    }

    @Test("values outside 0…1 are clamped, and said so")
    func clampsAndNotes() throws {
        let text = #"{"format": "haptics-android", "envelope": {"controlPoints": [{"intensity": 1.5, "sharpness": -2, "durationMillis": 10}]}}"#
        var notes = ConversionNotes()
        let layers = try Self.read(text, notes: &notes)
        #expect(close(layers.intensity.suffix(1), [.init(0.01, 1)]))
        #expect(close(layers.sharpness.suffix(1), [.init(0.01, 0)]))
        #expect(notes.notes.map(\.kind) == ["range"])
    }

    @Test("layers become a waveform, an envelope ending at 0 with its note, and primitives chosen by sharpness")
    func writesThreeForms() {
        let layers = HapticLayers(
            intensity: [.init(0, 0), .init(0.1, 0.8), .init(0.2, 0.8)], sharpness: [.init(0, 0.4)],
            transients: [.init(time: 0.05, intensity: 0.9, sharpness: 0.8)])
        var notes = ConversionNotes()
        let android = AndroidVibration(layers, notes: &notes)
        #expect(android.timings.allSatisfy { $0 > 0 && $0 % 5 == 0 })
        #expect(android.timings.count == android.amplitudes.count)
        #expect(android.amplitudes.allSatisfy { (0...255).contains($0) })
        #expect(android.amplitudes.max() == 207, "the tap's and the layer's 0.9² and 0.8² at 255 levels")
        #expect(android.repeatIndex == -1)
        #expect(android.initialSharpness == 0.4)
        #expect(android.envelope.map(\.intensity) == [0.8, 0.8, 0])
        #expect(android.envelope.map(\.durationMillis) == [100, 100, 5])
        #expect(android.envelope.allSatisfy { $0.sharpness == 0.4 })
        #expect(android.composition.map(\.primitive) == [.tick])
        #expect(android.composition.map(\.scale) == [0.9])
        #expect(android.composition.map(\.delayMillis) == [50])
        #expect(notes.notes.map(\.kind) == ["waveform", "envelope-end", "primitives"])
    }

    @Test("instant steps become 1 ms ramps, counted in their note; times between milliseconds are rounded, and said so")
    func stepsAndRounding() {
        let steps = HapticLayers(intensity: [.init(0, 0), .init(0.1, 0), .init(0.1, 1), .init(0.2, 1), .init(0.2, 0)])
        var notes = ConversionNotes()
        let android = AndroidVibration(steps, notes: &notes)
        #expect(android.envelope.map(\.durationMillis) == [100, 1, 99, 1])
        #expect(android.envelope.map(\.intensity) == [0, 1, 1, 0])
        #expect(notes.notes.first { $0.kind == "steps" }?.count == 2)
        #expect(!notes.notes.contains { $0.kind == "milliseconds" || $0.kind == "envelope-end" })

        var roundedNotes = ConversionNotes()
        let rounded = AndroidVibration(HapticLayers(intensity: [.init(0, 0), .init(0.0504, 1), .init(0.1, 0)]), notes: &roundedNotes)
        #expect(rounded.envelope.map(\.durationMillis) == [50, 50])
        #expect(roundedNotes.notes.contains { $0.kind == "milliseconds" })
    }

    @Test("primitives by sharpness: THUD below 0.25, LOW_TICK below 0.5, CLICK below 0.75, TICK above")
    func primitiveBuckets() {
        #expect(
            [0.0, 0.24, 0.25, 0.49, 0.5, 0.74, 0.75, 1].map(AndroidVibration.Primitive.init(sharpness:)) == [
                .thud, .thud, .lowTick, .lowTick, .click, .click, .tick, .tick,
            ])
        #expect(AndroidVibration.Primitive.allCases.map(\.sharpness) == AndroidVibration.Primitive.allCases.map(\.sharpness).sorted())
    }

    @Test("what the writer writes as JSON, the reader reads back: the envelope's points and the taps")
    func jsonReadsBack() throws {
        let layers = HapticLayers(
            intensity: [.init(0, 0), .init(0.1, 0.6), .init(0.3, 0)], sharpness: [.init(0, 0.5)],
            transients: [.init(time: 0.2, intensity: 0.5, sharpness: 0.1)])
        var notes = ConversionNotes()
        let json = AndroidVibration(layers, notes: &notes).json()
        var readNotes = ConversionNotes()
        let back = try AndroidVibration.layers(fromJSON: json, notes: &readNotes)
        #expect(close(back.intensity, [.init(0, 0), .init(0.1, 0.6), .init(0.3, 0)]), "\(back.intensity)")
        #expect(back.transients.map(\.intensity) == [0.5])
        #expect(back.transients.map(\.sharpness) == [AndroidVibration.Primitive.thud.sharpness])
        #expect(close(back.transients[0].time, 0.2))
    }

    @Test("the Kotlin object is named after the pattern and holds the waveform, envelope and primitives")
    func kotlin() {
        let layers = HapticLayers(intensity: [.init(0, 0), .init(0.1, 1), .init(0.2, 0)], transients: [.init(time: 0.05, intensity: 1, sharpness: 1)])
        var notes = ConversionNotes()
        let android = AndroidVibration(layers, notes: &notes)
        let code = android.kotlin(name: "my-tap.ahap")
        #expect(code.contains("object MyTapHaptics {"))
        #expect(code.contains("val timings = longArrayOf(\(android.timings.map(String.init).joined(separator: ", ")))"))
        #expect(code.contains(".addControlPoint(1f, 0.5f, 100L)"))
        #expect(code.contains("PRIMITIVE_TICK, 1f, 50,"))
        #expect(AndroidVibration(layers, notes: &notes).kotlin(name: "3d").contains("object P3dHaptics {"), "a type name never starts with a digit")
    }

    @Test("not an Android file, amplitudes without their timings, an unknown primitive, a wrong type: one located line each")
    func malformed() {
        func read(_ data: Data, _ source: String) throws(FormatError) -> HapticLayers {
            var notes = ConversionNotes()
            return try AndroidVibration.layers(fromJSON: data, source: source, notes: &notes)
        }
        #expect(locatedRefusal(#"{"format": "haptics-web", "vibrate": [100]}"#, read).contains("not an Android vibration file"))
        #expect(locatedRefusal("{\"format\": \"haptics-android\",\n \"waveform\": {\"timings\": [10, 20], \"amplitudes\": [255]}}", read).contains("in pairs"))
        #expect(
            locatedRefusal(#"{"format": "haptics-android", "composition": [{"primitive": "BOOM", "scale": 1}]}"#, read).contains(
                "THUD, LOW_TICK, CLICK or TICK"))
        #expect(locatedRefusal(#"{"format": "haptics-android", "waveform": {"timings": ["10"], "amplitudes": [255]}}"#, read).hasPrefix("in.json:1:"))
        #expect(locatedRefusal(#"{"format": "haptics-android", "waveform": {"timings": [10], "amplitudes": [256]}}"#, read).contains("amplitudes"))
    }
}
