import Foundation
import Testing
@testable import HapticsCore

/// Events Core Haptics refuses, and patterns that are valid JSON but cannot be what the author
/// meant: a continuous event without a length, times typed in milliseconds.
@Suite("Implausible patterns")
struct AHAPPlausibilityTests {
    func continuous(at time: String = "0", duration: String? = nil, type: String = "HapticContinuous") -> String {
        "{ \"Event\": { \"Time\": \(time), \"EventType\": \"\(type)\"\(duration.map { ", \"EventDuration\": \($0)" } ?? "") } }"
    }

    @Test(
        "a continuous event without EventDuration is an error in every mode (Core Haptics refuses it)",
        arguments: ["HapticContinuous", "AudioContinuous"], ValidationMode.allCases)
    func continuousNeedsDuration(type: String, mode: ValidationMode) {
        let found = errors(of: document(continuous(type: type)), mode: mode)
        #expect(found.map(\.location) == ["Pattern[0].Event.EventDuration"])
        #expect(found.map(\.message) == ["missing 'EventDuration': a \(type) event needs its length in seconds"])
    }

    @Test("a transient needs no EventDuration, and a continuous event with one is valid")
    func durationOptionalElsewhere() throws {
        let document = try decode(document(transient() + ", " + continuous(duration: "0.5")), mode: .strict)
        #expect(document.pattern.events.map(\.duration) == [0, 0.5])
    }

    @Test("an event with an error still reports its warnings: a negative time and a 40 s continuous event")
    func warningsBesideErrors() {
        let found = diagnostics(of: document(continuous(at: "-1", duration: "40") + ", " + continuous(at: "-2")))
        #expect(found.map(\.severity) == [.error, .error, .error, .warning])
        #expect(
            found.map(\.location) == [
                "Pattern[0].Event.Time", "Pattern[1].Event.Time", "Pattern[1].Event.EventDuration",
                "Pattern[0].Event.EventDuration",
            ])
        #expect(found.last?.message.contains("longer than the 30 s Core Haptics allows") == true)
    }

    @Test("whole-number times with one of 100 s or more look like milliseconds: a warning naming it, an error in strict mode")
    func millisecondTimes() throws {
        let json = document(transient(at: "0") + ", " + transient(at: "120") + ", " + continuous(at: "250", duration: "20"))
        let lenient = try decode(json)
        #expect(lenient.diagnostics.count == 1)
        let warning = try #require(lenient.diagnostics.first)
        #expect(warning.severity == .warning)
        #expect(warning.location == "Pattern[1].Event.Time")
        #expect(
            warning.message
                == "time 120 s looks like milliseconds: every time and duration in the file is a whole number, and AHAP times are in seconds (120 ms is 0.12 s); did you mean milliseconds?"
        )
        let strict = errors(of: json, mode: .strict)
        #expect(strict.map(\.location) == ["Pattern[1].Event.Time"])
    }

    @Test("a whole-number EventDuration of 100 or more is named the same way")
    func millisecondDuration() {
        let found = diagnostics(of: document(continuous(at: "0", duration: "100")))
        #expect(found.map(\.location).contains("Pattern[0].Event.EventDuration"))
        #expect(found.contains { $0.message.hasSuffix("did you mean milliseconds?") })
    }

    @Test("a pattern longer than 90 s is implausible even with fractional times; 70 s of whole numbers is not")
    func implausibleLength() throws {
        let long = diagnostics(of: document(transient(at: "0.5") + ", " + transient(at: "95.25")))
        #expect(long.map(\.location) == ["Pattern"])
        #expect(
            long.first?.message
                == "the pattern lasts 95.25 s, longer than a haptic pattern plausibly is (90 s); AHAP times are in seconds: did you mean milliseconds?")
        // Like the corpus's 70 s test clip: three whole-number events of 30, 30 and 10 s.
        let clip = document(continuous(at: "0", duration: "30") + ", " + continuous(at: "30", duration: "30") + ", " + continuous(at: "60", duration: "10"))
        #expect(try decode(clip, mode: .strict).diagnostics.isEmpty)
    }
}

/// Parameters that do nothing where they are written are named, so an author does not wait for
/// an effect that never comes.
@Suite("Silent no-ops")
struct SilentNoOpTests {
    func continuous(_ parameters: String) -> String {
        document(
            "{ \"Event\": { \"Time\": 0, \"EventType\": \"HapticContinuous\", \"EventDuration\": 1, \"EventParameters\": [\(parameters)] } }")
    }

    func parameter(_ name: String, _ value: String) -> String { "{ \"ParameterID\": \"\(name)\", \"ParameterValue\": \(value) }" }

    @Test("DecayTime on a sustained continuous event (Sustained left out or 1) is a warning at its parameters; an error in strict mode")
    func decayOnSustained() {
        for parameters in [parameter("DecayTime", "0.3"), parameter("DecayTime", "0.3") + ", " + parameter("Sustained", "1")] {
            let found = diagnostics(of: continuous(parameters))
            #expect(found.map(\.severity) == [.warning], "\(parameters)")
            #expect(found.map(\.location) == ["Pattern[0].Event.EventParameters"])
            #expect(found.first?.message.hasPrefix("'DecayTime' does nothing on a sustained HapticContinuous event") == true, "\(found)")
            #expect(errors(of: continuous(parameters), mode: .strict).count == 1)
        }
    }

    @Test("DecayTime on an event that decays (Sustained 0), or a DecayTime of 0, is not warned about")
    func decayWhereItActs() {
        #expect(diagnostics(of: continuous(parameter("DecayTime", "0.3") + ", " + parameter("Sustained", "0"))).isEmpty)
        #expect(diagnostics(of: continuous(parameter("DecayTime", "0"))).isEmpty)
    }
}
