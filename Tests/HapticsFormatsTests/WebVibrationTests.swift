import Foundation
import HapticsCore
import HapticsTestSupport
import Testing

@testable import HapticsFormats

/// `navigator.vibrate` and gamepad dual-rumble (`.web.json`, `.js`): the on/off entries the
/// writer makes, the notes of what it drops, the reader's steps, and located refusals.
@Suite("WebVibration")
struct WebVibrationTests {
    static func read(_ text: String, notes: inout ConversionNotes) throws(FormatError) -> HapticLayers {
        try WebVibration.layers(fromJSON: Data(text.utf8), source: "in.json", notes: &notes)
    }

    @Test("a tap after silence is a zero-length vibration, the pause, then the tap's 20 ms; strength dropped, and said so")
    func tapAfterSilence() {
        var notes = ConversionNotes()
        let web = WebVibration(HapticPattern(events: [.transient(at: 0.5, intensity: 1, sharpness: 0.5)]), notes: &notes)
        #expect(web.vibrate == [0, 500, 20])
        #expect(!web.rumble.isEmpty, "the tap rumbles too")
        #expect(
            web.rumble.allSatisfy { $0.duration > 0 && $0.duration % 10 == 0 && (0...1).contains($0.strongMagnitude) && (0...1).contains($0.weakMagnitude) })
        #expect(web.rumble.first.map { $0.startDelay >= 490 && $0.startDelay <= 510 } == true, "\(web.rumble)")
        #expect(notes.notes.map(\.kind) == ["on-off", "rumble"])
    }

    @Test("vibration weaker than intensity 0.2 is left out of navigator.vibrate, and said so")
    func weakLeftOut() {
        var notes = ConversionNotes()
        let web = WebVibration(HapticPattern(events: [.transient(at: 0.5, intensity: 0.1, sharpness: 0.5)]), notes: &notes)
        #expect(web.vibrate == [0])
        #expect(notes.notes.contains { $0.kind == "weak" })
    }

    @Test("navigator.vibrate entries read as full-strength steps of their length; pauses as silence")
    func readsVibrate() throws {
        var notes = ConversionNotes()
        let layers = try Self.read(#"{"format": "haptics-web", "version": 1, "vibrate": [100, 50, 200]}"#, notes: &notes)
        #expect(
            close(layers.intensity, [.init(0, 1), .init(0.0999, 1), .init(0.1, 0), .init(0.15, 1), .init(0.3499, 1), .init(0.35, 0)]), "\(layers.intensity)")
        #expect(layers.sharpness.isEmpty && layers.transients.isEmpty)
        #expect(notes.notes.map(\.kind) == ["on-off-read"])
    }

    @Test("dual-rumble effects read as steps: intensity √(the stronger motor), sharpness the weak motor's share")
    func readsRumble() throws {
        var notes = ConversionNotes()
        let text = #"{"format": "haptics-web", "dualRumble": [{"startDelay": 100, "duration": 200, "strongMagnitude": 0.25, "weakMagnitude": 0.75}]}"#
        let layers = try Self.read(text, notes: &notes)
        let level = 0.75.squareRoot()
        #expect(close(layers.intensity, [.init(0.1, level), .init(0.2999, level), .init(0.3, 0)]), "\(layers.intensity)")
        #expect(close(layers.sharpness, [.init(0.1, 0.75), .init(0.2999, 0.75)]), "\(layers.sharpness)")
        #expect(notes.notes.map(\.kind) == ["rumble-read"])
    }

    @Test("what the writer writes as JSON reads back: the tap's 20 ms at its time")
    func jsonReadsBack() throws {
        var notes = ConversionNotes()
        let json = WebVibration(HapticPattern(events: [.transient(at: 0.5, intensity: 1, sharpness: 0.5)]), notes: &notes).json()
        var readNotes = ConversionNotes()
        let layers = try WebVibration.layers(fromJSON: json, notes: &readNotes)
        #expect(close(layers.intensity, [.init(0.5, 1), .init(0.5199, 1), .init(0.52, 0)]), "\(layers.intensity)")
    }

    @Test("the ES module exports the pattern, the effects and two functions named after the pattern")
    func javaScript() {
        var notes = ConversionNotes()
        let web = WebVibration(HapticPattern(events: [.transient(at: 0.5, intensity: 1, sharpness: 0.5)]), notes: &notes)
        let code = web.javaScript(name: "my-tap.ahap")
        #expect(code.contains("export const myTapPattern = [0, 500, 20];"))
        #expect(code.contains("export const myTapRumble = ["))
        #expect(code.contains("export function vibrateMyTap()"))
        #expect(code.contains("export async function rumbleMyTap(gamepad)"))
    }

    @Test("not a web file, negative milliseconds, a magnitude above 1, a pattern past 3,600 s: one located line each")
    func malformed() {
        func read(_ data: Data, _ source: String) throws(FormatError) -> HapticLayers {
            var notes = ConversionNotes()
            return try WebVibration.layers(fromJSON: data, source: source, notes: &notes)
        }
        #expect(locatedRefusal(#"{"format": "haptics-android", "vibrate": [100]}"#, read).contains("not a web vibration file"))
        locatedRefusal(#"{"format": "haptics-web", "vibrate": [100, -5]}"#, read)
        locatedRefusal("{\"format\": \"haptics-web\",\n \"dualRumble\": [{\"duration\": 10, \"strongMagnitude\": 2, \"weakMagnitude\": 0}]}", read)
        #expect(locatedRefusal(#"{"format": "haptics-web", "vibrate": [3600000, 0, 1]}"#, read).contains("pattern limit"))
    }
}
