/// Reading `Parameter` and `ParameterCurve` elements.
extension AHAPPatternReader {
    mutating func readParameter(_ value: JSONValue, at path: @autoclosure () -> String) -> HapticDynamicParameter? {
        guard let fields = checkedObject(value, at: path(), allowed: AHAPKey.parameterKeys) else { return nil }
        let id = readDynamicID(fields, in: value, at: path())
        let time = requiredTime(fields, alias: AHAPKey.parameterTime, in: value, at: path())
        let rawValue = requiredNumber(fields, AHAPKey.parameterValue, in: value, at: path())
        guard let id, let time, let rawValue else { return nil }
        let parameterValue = clamped(
            rawValue, to: id.range, naming: id.rawValue,
            at: JSONPath.appending(AHAPKey.parameterValue, to: path()),
            offset: fields[AHAPKey.parameterValue]?.start)
        return HapticDynamicParameter(id, parameterValue, at: time)
    }

    mutating func readCurve(_ value: JSONValue, at path: @autoclosure () -> String) -> HapticParameterCurve? {
        guard let fields = checkedObject(value, at: path(), allowed: AHAPKey.curveKeys) else { return nil }
        let id = readDynamicID(fields, in: value, at: path())
        let time = requiredTime(fields, alias: AHAPKey.parameterTime, in: value, at: path())
        func pointsPath() -> String { JSONPath.appending(AHAPKey.controlPoints, to: path()) }
        guard let pointsValue = fields[AHAPKey.controlPoints] else {
            report.error("missing 'ParameterCurveControlPoints'; a curve needs its control points", at: pointsPath(), offset: value.start)
            return nil
        }
        guard case .array(let entries) = pointsValue.content else {
            report.error("expected an array of control points, found \(pointsValue.kindDescription)", at: pointsPath(), offset: pointsValue.start)
            return nil
        }
        guard entries.count <= limits.maxControlPoints else {
            report.error(
                "the curve has \(entries.count) control points, more than the limit of \(limits.maxControlPoints)",
                at: pointsPath(), offset: pointsValue.start)
            return nil
        }
        var points: [HapticParameterCurve.ControlPoint] = []
        var valid = true
        for (index, entry) in entries.enumerated() {
            func entryPath() -> String { "\(pointsPath())[\(index)]" }
            guard
                let pointFields = checkedObject(
                    entry, at: entryPath(), allowed: AHAPKey.controlPointKeys,
                    expecting: "an object with 'Time' and 'ParameterValue'")
            else {
                valid = false
                continue
            }
            let pointTime = requiredTime(pointFields, alias: AHAPKey.parameterTime, in: entry, at: entryPath())
            let rawValue = requiredNumber(pointFields, AHAPKey.parameterValue, in: entry, at: entryPath())
            guard let pointTime, let rawValue else {
                valid = false
                continue
            }
            let pointValue =
                id.map {
                    clamped(
                        rawValue, to: $0.range, naming: $0.rawValue,
                        at: JSONPath.appending(AHAPKey.parameterValue, to: entryPath()),
                        offset: pointFields[AHAPKey.parameterValue]?.start)
                } ?? rawValue
            points.append(HapticParameterCurve.ControlPoint(at: pointTime, pointValue))
        }
        guard let id, let time, valid else { return nil }
        guard !points.isEmpty else {
            report.warning("the curve has no control points and does nothing", consequence: "; it is skipped", at: pointsPath(), offset: pointsValue.start)
            return nil
        }
        if zip(points, points.dropFirst()).contains(where: { $0.relativeTime > $1.relativeTime }) {
            report.warning("the control points are not in time order", consequence: "; they are sorted", at: pointsPath(), offset: pointsValue.start)
            points = points.enumerated()
                .sorted { ($0.element.relativeTime, $0.offset) < ($1.element.relativeTime, $1.offset) }
                .map(\.element)
        }
        if points.count > CoreHapticsLimits.maxControlPoints {
            report.warning(
                "the curve has \(points.count) control points; Core Haptics allows at most \(CoreHapticsLimits.maxControlPoints) per curve",
                at: pointsPath(), offset: pointsValue.start)
        }
        return HapticParameterCurve(id, at: time, controlPoints: points)
    }

    /// The `ParameterID` of a Parameter or ParameterCurve; `nil` after an error or, for an
    /// unknown ID, a warning (the element is skipped).
    mutating func readDynamicID(_ fields: JSONFields, in object: JSONValue, at path: @autoclosure () -> String) -> HapticDynamicParameter.ID? {
        guard let name = requiredString(fields, AHAPKey.parameterID, in: object, at: path()) else { return nil }
        if let id = HapticDynamicParameter.ID(rawValue: name) { return id }
        report.warning(
            "unknown dynamic parameter '\(JSONText.display(name))'", consequence: "; the element is skipped",
            at: JSONPath.appending(AHAPKey.parameterID, to: path()),
            offset: fields[AHAPKey.parameterID]?.start,
            suggestion: NameSuggestion.best(for: name, among: HapticDynamicParameter.ID.allCases.map(\.rawValue)))
        return nil
    }
}
