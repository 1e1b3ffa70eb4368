import Haptics

/// The numbers iOS code hands Core Haptics (times, durations, parameter values), checked
/// where they enter, so that none the engine cannot play reaches it: a NaN or an infinity
/// would reach the device as samples that are not numbers (and corrupt every other player's
/// sound mixed with them), and a time of 10¹⁴ s overflows a frame count on the audio thread.
///
/// Times and durations are finite, not negative and within the 3,600 s an AHAP file may
/// last; values are finite (out-of-range ones are clamped when they play, as in Core Haptics).
/// Each refusal carries the code Apple uses for the element at fault.
enum NumericInput {
    /// The longest pattern, in seconds: AHAP's limit.
    static let maxTime = AHAPLimits.default.maxDuration

    /// `value` as a time in a pattern (at most ``maxTime``), or an error with `code`.
    static func time(_ value: Double, _ code: CHHapticError.Code, _ what: String) throws(CHHapticError) -> Double {
        guard value.isFinite, value >= 0 else {
            throw CHHapticError(code, "\(what) must be finite and not negative, got \(value)")
        }
        guard value <= maxTime else {
            throw CHHapticError(code, "\(what) \(value) s is beyond the \(Int(maxTime)) s limit on a pattern's length")
        }
        return value
    }

    /// `value` as a parameter value, or an error with `code` when it is not a finite number.
    static func value(_ value: Float, _ code: CHHapticError.Code, _ what: String) throws(CHHapticError) -> Double {
        guard value.isFinite else { throw CHHapticError(code, "\(what) must be a finite number, got \(value)") }
        return value.decimal
    }

    /// Refuses a native pattern (one wrapped by ``CHHapticPattern/init(hapticPattern:)``) with
    /// a time, duration or value the engine cannot play: ``CHHapticError/Code/invalidPatternData``.
    static func checkPlayable(_ pattern: HapticPattern) throws(CHHapticError) {
        func bad(_ what: String) -> CHHapticError { CHHapticError(.invalidPatternData, "the pattern has \(what)") }
        func isTime(_ t: Double) -> Bool { t.isFinite && t >= 0 && t <= maxTime }
        for event in pattern.events {
            guard isTime(event.relativeTime), event.duration.isFinite, event.duration >= 0, isTime(event.relativeTime + event.duration) else {
                throw bad("an event at \(event.relativeTime) s lasting \(event.duration) s (times must be finite, 0…\(Int(maxTime)) s)")
            }
            guard event.parameters.allSatisfy({ $0.value.isFinite }) else { throw bad("an event parameter that is not a finite number") }
        }
        for parameter in pattern.parameters {
            guard isTime(parameter.relativeTime), parameter.value.isFinite else {
                throw bad("a dynamic parameter at \(parameter.relativeTime) s of value \(parameter.value)")
            }
        }
        for curve in pattern.curves {
            let fine =
                isTime(curve.relativeTime)
                && curve.controlPoints.allSatisfy { isTime($0.relativeTime) && isTime(curve.relativeTime + $0.relativeTime) && $0.value.isFinite }
            guard fine else { throw bad("a parameter curve at \(curve.relativeTime) s with a time or value out of range") }
        }
    }
}
