import Foundation
import HapticsCore
import HapticsTestSupport
import Testing

@testable import HapticsFormats

/// The inputs of issue #24 against the format readers and writers: huge times, huge versions,
/// wrong types, nesting, located messages, and output that must read back.
@Suite("Format readers under hostile input")
struct HostileInputTests {
    static func read(_ format: HapticFormat, _ text: String, source: String = "in.json") -> Result<HapticPattern, FormatError> {
        var notes = ConversionNotes()
        do throws(FormatError) {
            return .success(try format.read(Data(text.utf8), source: source, notes: &notes))
        } catch {
            return .failure(error)
        }
    }

    /// The refusal of `text`, which must be one located line `source:line:column: …`.
    static func refusal(_ format: HapticFormat, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        locatedRefusal(text, sourceLocation: sourceLocation) { (data, source) throws(FormatError) in
            var notes = ConversionNotes()
            return try format.read(data, source: source, notes: &notes)
        }
    }

    static func clip(_ amplitude: String, frequency: String? = nil, version: String = #"{"major": 1, "minor": 0, "patch": 0}"#) -> String {
        let envelopes = #""amplitude": [\#(amplitude)]"# + (frequency.map { #", "frequency": [\#($0)]"# } ?? "")
        return #"{"version": \#(version), "signals": {"continuous": {"envelopes": {\#(envelopes)}}}}"#
    }

    @Test(".haptic times past 3,600 s are refused at their place, before anything is built from them")
    func hapticHugeTime() {
        let message = Self.refusal(.haptic, Self.clip(#"{"time": 0, "amplitude": 0.5}, {"time": 1e9, "amplitude": 0.5}"#))
        #expect(message.contains("signals.continuous.envelopes.amplitude[1].time"))
        #expect(message.contains("3600"))
        let frequency = Self.refusal(.haptic, Self.clip(#"{"time": 0, "amplitude": 0.5}"#, frequency: #"{"time": 1e15, "frequency": 0.5}"#))
        #expect(frequency.contains("frequency[0].time"))
    }

    @Test(".haptic version 1e300 is a located refusal, not a trap converting it to Int")
    func hapticHugeVersion() {
        let message = Self.refusal(.haptic, Self.clip(#"{"time": 0, "amplitude": 0.5}"#, version: #"{"major": 1e300}"#))
        #expect(message.contains("version.major") && message.contains("1e+300") && message.contains("not supported"))
    }

    @Test(".haptic: wrong types, missing values, negative and backward times are refused, never read as 0")
    func hapticWrongValues() {
        #expect(Self.refusal(.haptic, Self.clip(#"{"time": 0, "amplitude": "loud"}"#)).contains("amplitude[0].amplitude: expected a number"))
        #expect(Self.refusal(.haptic, Self.clip(#"{"time": 0}"#)).contains("amplitude[0].amplitude: missing"))
        #expect(Self.refusal(.haptic, Self.clip(#"{"time": -1, "amplitude": 0.5}"#)).contains("amplitude[0].time"))
        #expect(Self.refusal(.haptic, Self.clip(#"{"time": 2, "amplitude": 0.5}, {"time": 1, "amplitude": 0.5}"#)).contains("goes back in time"))
        // Unsorted frequency envelopes were accepted and written as unsorted curves.
        let unsorted = Self.clip(
            #"{"time": 0, "amplitude": 0.5}, {"time": 3, "amplitude": 0}"#, frequency: #"{"time": 2, "frequency": 0.5}, {"time": 1, "frequency": 0.2}"#)
        #expect(Self.refusal(.haptic, unsorted).contains("frequency[1].time: goes back in time"))
        #expect(
            Self.refusal(.haptic, Self.clip(#"{"time": 0, "amplitude": 0.5, "emphasis": {"amplitude": true, "frequency": 1}}"#)).contains("emphasis.amplitude"))
    }

    @Test("Android JSON: huge durations and delays are refused at their place (they allocated terabytes)")
    func androidHugeTimes() {
        let composition = Self.refusal(
            .androidJSON, #"{"format": "haptics-android", "composition": [{"primitive": "CLICK", "scale": 1, "delayMillis": 1e308}]}"#)
        #expect(composition.contains("composition[0].delayMillis"))
        let envelope = Self.refusal(
            .androidJSON,
            #"{"format": "haptics-android", "envelope": {"initialSharpness": 0.5, "controlPoints": [{"intensity": 1, "sharpness": 0.5, "durationMillis": 1e12}]}}"#
        )
        #expect(envelope.contains("envelope.controlPoints[0].durationMillis"))
        let waveform = Self.refusal(.androidJSON, #"{"format": "haptics-android", "waveform": {"timings": [1e15], "amplitudes": [255], "repeat": -1}}"#)
        #expect(waveform.contains("waveform.timings[0]"))
        // Each within the limit, together past it.
        let sum = Self.refusal(
            .androidJSON,
            #"{"format": "haptics-android", "composition": [{"primitive": "TICK", "scale": 1, "delayMillis": 3000000}, {"primitive": "TICK", "scale": 1, "delayMillis": 3000000}]}"#
        )
        #expect(sum.contains("composition[1].delayMillis: reaches 6000 s, past the 3600 s pattern limit"))
    }

    @Test("Android JSON: wrongly typed values are refused, never read as 0")
    func androidWrongTypes() {
        #expect(
            Self.refusal(.androidJSON, #"{"format": "haptics-android", "waveform": {"timings": ["100"], "amplitudes": [255]}}"#).contains(
                "timings[0]: expected a number"))
        #expect(Self.refusal(.androidJSON, #"{"format": "haptics-android", "waveform": {"timings": [100], "amplitudes": [null]}}"#).contains("amplitudes[0]"))
        #expect(Self.refusal(.androidJSON, #"{"format": "haptics-android", "waveform": {"timings": [100, 5], "amplitudes": [255]}}"#).contains("go in pairs"))
        #expect(
            Self.refusal(.androidJSON, #"{"format": "haptics-android", "composition": [{"primitive": "BOOM", "scale": 1}]}"#).contains(
                "composition[0].primitive"))
        #expect(Self.refusal(.androidJSON, #"{"format": "haptics-vibrate"}"#).contains("format: not an Android vibration file"))
    }

    @Test("Web JSON reads back under the same limits")
    func webJSON() throws {
        let pattern = try Self.read(.webJSON, #"{"format": "haptics-web", "version": 1, "vibrate": [100, 50, 200], "dualRumble": []}"#).get()
        #expect(abs(pattern.duration - 0.35) < 0.01)
        #expect(Self.refusal(.webJSON, #"{"format": "haptics-web", "vibrate": [1e13]}"#).contains("vibrate[0]"))
        #expect(
            Self.refusal(.webJSON, #"{"format": "haptics-web", "dualRumble": [{"startDelay": 0, "duration": 100, "strongMagnitude": 2, "weakMagnitude": 0}]}"#)
                .contains("dualRumble[0].strongMagnitude"))
    }

    @Test("JSON errors in every format have a line and column; deep nesting names the limit, not 'not valid JSON'")
    func locatedSyntaxErrors() {
        for format in [HapticFormat.haptic, .androidJSON, .webJSON] {
            let message = Self.refusal(format, "{\n  \"format\": \"x\",\n  \"signals\": [1, 2,, 3]\n}")
            #expect(message.hasPrefix("in.json:3:"), "\(message)")
            let deep = Self.refusal(format, String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000))
            #expect(deep.contains("64") && !deep.contains("not valid JSON"), "\(deep)")
            #expect(Self.refusal(format, "").contains("empty"))
        }
    }

    @Test("more than 100,000 elements in an array are refused, as in AHAP")
    func elementLimit() {
        let points = Array(repeating: #"{"time": 0, "amplitude": 0}"#, count: 100_001).joined(separator: ",")
        #expect(Self.refusal(.haptic, Self.clip(points)).contains("100000"))
    }

    @Test("every writer's output reads back with the reader of its format, and AHAP output validates")
    func writersReadBack() throws {
        let pattern = HapticPattern(
            events: [
                .transient(at: 0, intensity: 0.8, sharpness: 0.3),
                .continuous(at: 0.1, duration: 0.5, intensity: 0.6, sharpness: 0.7),
                .transient(at: 0.4, intensity: 1, sharpness: 0.9),
            ],
            curves: [HapticParameterCurve(.hapticIntensityControl, at: 0.1, points: [(0, 1), (0.5, 0.2)])])
        for format in HapticFormat.allCases {
            var notes = ConversionNotes()
            let data = try format.write(pattern, name: "probe", notes: &notes)
            if format.isReadable {
                var readNotes = ConversionNotes()
                let back = try format.read(data, source: "probe.\(format.rawValue)", notes: &readNotes)
                #expect(back.duration > 0.3, "\(format)")
                var ahapNotes = ConversionNotes()
                let ahap = try HapticFormat.ahap.write(back, name: "probe", notes: &ahapNotes)
                #expect(throws: Never.self, "\(format) → AHAP validates") { try AHAPDecoder(mode: .lenient).decode(ahap, source: "back.ahap") }
            }
        }
    }

    @Test("a pattern whose output would pass a reader's limits is refused with one line, not written")
    func writerRefusesUnreadable() {
        // 100,001 taps in canonical AHAP: 31 MB, past the 16 MiB input limit.
        let taps = (0..<100_001).map { HapticEvent.transient(at: Double($0) * 0.03, intensity: 1, sharpness: 0.5) }
        var notes = ConversionNotes()
        #expect {
            _ = try HapticFormat.ahap.write(HapticPattern(events: taps), name: "many", notes: &notes)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("many: cannot be written as ahap") && text.contains("16 MiB") && !text.contains { $0.isNewline }
        }
        // 60,000 taps 50 ms apart: 120,000 waveform steps, past the 100,000 elements of an array.
        let pulses = (0..<60_000).map { HapticEvent.transient(at: Double($0) * 0.05, intensity: 1, sharpness: 0.5) }
        #expect {
            _ = try HapticFormat.androidJSON.write(HapticPattern(events: pulses), name: "pulses", notes: &notes)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("pulses: cannot be written as android-json") && text.contains("100000") && !text.contains { $0.isNewline }
        }
    }
}
