/// What synthesis can take: every time and duration finite and within the longest pattern
/// (``AHAPLimits/maxDuration``, one hour, as the AHAP reader applies it: to each time and
/// duration), every value finite. The AHAP reader already refuses
/// anything else; a pattern built in code is checked here, because one event at 10¹⁴ s or one
/// NaN would otherwise overflow a frame count on the audio thread or reach a device as NaN.
extension HapticPattern {
    /// Why synthesis cannot take this pattern as it is, in one phrase naming the element
    /// (`events[3]: time 1e+15 s is past the longest pattern (3600 s)`), or `nil` when it can.
    package var synthesisProblem: String? {
        let limit = AHAPLimits.default.maxDuration
        func time(_ value: Double, _ what: String) -> String? {
            guard value.isFinite else { return "\(what) \(value) is not a finite number" }
            guard value <= limit else { return "\(what) \(value) s is past the longest pattern (\(Int(limit)) s)" }
            return nil
        }
        func value(_ value: Double, _ what: String) -> String? {
            value.isFinite ? nil : "\(what) \(value) is not a finite number"
        }
        for (index, event) in events.enumerated() {
            if let problem = time(event.relativeTime, "time") ?? time(event.duration, "duration") {
                return "events[\(index)]: \(problem)"
            }
            for parameter in event.parameters {
                if let problem = value(parameter.value, "\(parameter.id.rawValue)") { return "events[\(index)]: \(problem)" }
            }
        }
        for (index, parameter) in parameters.enumerated() {
            if let problem = time(parameter.relativeTime, "time") ?? value(parameter.value, "value") {
                return "parameters[\(index)]: \(problem)"
            }
        }
        for (index, curve) in curves.enumerated() {
            if let problem = time(curve.relativeTime, "time") { return "curves[\(index)]: \(problem)" }
            for (point, control) in curve.controlPoints.enumerated() {
                if let problem = time(control.relativeTime, "time") ?? value(control.value, "value") {
                    return "curves[\(index)].controlPoints[\(point)]: \(problem)"
                }
            }
        }
        return nil
    }

    /// This pattern with every time and duration brought into 0…one hour (NaN as 0) and every
    /// non-finite value replaced (NaN by the parameter's default, infinities by the nearest
    /// end of its range): the last line of defence for code that renders whatever it is given.
    /// Returns `self` unchanged when ``synthesisProblem`` is `nil`.
    package func boundedForSynthesis() -> HapticPattern {
        guard synthesisProblem != nil else { return self }
        let limit = AHAPLimits.default.maxDuration
        func time(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, -limit), limit) }
        func value(_ value: Double, default fallback: Double, range: ClosedRange<Double>) -> Double {
            if value.isNaN { return fallback }
            return value.isFinite ? value : (value > 0 ? range.upperBound : range.lowerBound)
        }
        var bounded = self
        for i in bounded.events.indices {
            bounded.events[i].relativeTime = time(bounded.events[i].relativeTime)
            bounded.events[i].duration = min(time(bounded.events[i].duration), max(0, limit - bounded.events[i].relativeTime))
            for p in bounded.events[i].parameters.indices {
                let id = bounded.events[i].parameters[p].id
                bounded.events[i].parameters[p].value = value(
                    bounded.events[i].parameters[p].value, default: id.defaultValue, range: id.range)
            }
        }
        for i in bounded.parameters.indices {
            bounded.parameters[i].relativeTime = time(bounded.parameters[i].relativeTime)
            let id = bounded.parameters[i].id
            bounded.parameters[i].value = value(bounded.parameters[i].value, default: id.defaultValue, range: id.range)
        }
        for i in bounded.curves.indices {
            bounded.curves[i].relativeTime = time(bounded.curves[i].relativeTime)
            let id = bounded.curves[i].id
            for p in bounded.curves[i].controlPoints.indices {
                let start = bounded.curves[i].relativeTime
                bounded.curves[i].controlPoints[p].relativeTime = min(
                    time(bounded.curves[i].controlPoints[p].relativeTime), max(0, limit - start))
                bounded.curves[i].controlPoints[p].value = value(
                    bounded.curves[i].controlPoints[p].value, default: id.defaultValue, range: id.range)
            }
        }
        return bounded
    }
}
