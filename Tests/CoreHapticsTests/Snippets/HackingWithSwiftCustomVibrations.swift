// After Paul Hudson, "How to play custom vibrations using Core Haptics", Hacking with Swift
// (https://www.hackingwithswift.com/books/ios-swiftui/making-vibrations-with-uinotificationfeedbackgenerator-and-core-haptics):
// a SwiftUI view keeps `@State private var engine: CHHapticEngine?`, prepares it in
// `onAppear` and plays a rising then falling run of taps on a button press. The view is
// reduced to a main-actor class holding the same state (SwiftUI views are main-actor isolated); the Core Haptics lines are as published.
import CoreHaptics
import HapticsTestSupport
import Testing

@MainActor
private final class CustomVibrationsView {
    var engine: CHHapticEngine?

    func prepareHaptics() {
        guard CHHapticEngine.capabilitiesForHardware().supportsHaptics else { return }

        do {
            engine = try CHHapticEngine()
            try engine?.start()
        } catch {
            print("There was an error creating the engine: \(error.localizedDescription)")
        }
    }

    func complexSuccess() {
        // make sure that the device supports haptics
        guard CHHapticEngine.capabilitiesForHardware().supportsHaptics else { return }
        var events = [CHHapticEvent]()

        for i in stride(from: 0, to: 1, by: 0.1) {
            let intensity = CHHapticEventParameter(parameterID: .hapticIntensity, value: Float(i))
            let sharpness = CHHapticEventParameter(parameterID: .hapticSharpness, value: Float(i))
            let event = CHHapticEvent(eventType: .hapticTransient, parameters: [intensity, sharpness], relativeTime: i)
            events.append(event)
        }

        for i in stride(from: 0, to: 1, by: 0.1) {
            let intensity = CHHapticEventParameter(parameterID: .hapticIntensity, value: Float(1 - i))
            let sharpness = CHHapticEventParameter(parameterID: .hapticSharpness, value: Float(1 - i))
            let event = CHHapticEvent(eventType: .hapticTransient, parameters: [intensity, sharpness], relativeTime: 1 + i)
            events.append(event)
        }

        // convert those events into a pattern and play it immediately
        do {
            let pattern = try CHHapticPattern(events: events, parameters: [])
            let player = try engine?.makePlayer(with: pattern)
            try player?.start(atTime: 0)
        } catch {
            print("Failed to play pattern: \(error.localizedDescription).")
        }
    }
}

@Suite("CoreHaptics snippet: Hacking with Swift custom vibrations")
@MainActor
struct HackingWithSwiftCustomVibrationsTests {
    @Test("prepareHaptics then complexSuccess plays 19 audible taps 0.1 s apart, rising then falling")
    func risingAndFalling() throws {
        let output = FileOutput()
        let x = try output.run { () throws -> [Float] in
            let view = CustomVibrationsView()
            view.prepareHaptics()
            view.complexSuccess()
            return try withExtendedLifetime(view) { try output.samples(seconds: 2.3) }
        }
        let onsets = Taps.onsets(x)
        // The first tap has intensity 0 and is silent.
        try #require(onsets.count == 19, "onsets \(onsets)")
        for (a, b) in zip(onsets, onsets.dropFirst()) { #expect(abs(b - a - 4800) <= 1, "gap \(b - a)") }
        let peaks = onsets.map { Taps.peak(x, at: $0, length: 2000) }
        #expect(peaks[8] > peaks[0] && peaks[9] > peaks[18], "peaks \(peaks)")
        #expect(abs(peaks[9] - 1) < 0.02, "the tap at 1 s has intensity 1")
    }
}
