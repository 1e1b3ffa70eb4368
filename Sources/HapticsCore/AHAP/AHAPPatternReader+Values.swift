/// Typed access to JSON values, reporting wrong types, missing keys and out-of-range values
/// with their locations.
extension AHAPPatternReader {
    /// An object's members after warning about keys its context does not allow.
    mutating func checkedObject(_ value: JSONValue, at path: @autoclosure () -> String, allowed: [String], expecting what: String = "an object") -> JSONFields?
    {
        guard case .object(let members) = value.content else {
            report.error("expected \(what), found \(value.kindDescription)", at: path(), offset: value.start)
            return nil
        }
        for member in members where !allowed.contains(member.key) {
            warnUnknownKey(member, at: path(), allowed: allowed)
        }
        return JSONFields(members)
    }

    mutating func warnUnknownKey(_ member: JSONMember, at path: @autoclosure () -> String, allowed: [String]) {
        let misnomer = AHAPKey.documentedMisnomers[member.key].flatMap { allowed.contains($0) ? $0 : nil }
        report.warning(
            "unknown key '\(JSONText.display(member.key))'", consequence: " is ignored",
            at: JSONPath.appending(member.key, to: path()), offset: member.keyStart,
            suggestion: misnomer ?? NameSuggestion.best(for: member.key, among: allowed))
    }

    /// `Time`, or its alias when `Time` is absent: present, a number, not negative, in the limit.
    mutating func requiredTime(_ fields: JSONFields, alias: String, in object: JSONValue, at path: @autoclosure () -> String) -> Double? {
        switch (fields[AHAPKey.time], fields[alias]) {
        case (nil, nil):
            report.error("missing 'Time'", at: JSONPath.appending(AHAPKey.time, to: path()), offset: object.start)
            return nil
        case (let time?, let aliased):
            if let aliased {
                report.warning(
                    "both 'Time' and '\(alias)' are given", consequence: "; 'Time' is used",
                    at: JSONPath.appending(alias, to: path()), offset: aliased.start)
            }
            return seconds(time, at: JSONPath.appending(AHAPKey.time, to: path()), naming: "time")
        case (nil, let aliased?):
            return seconds(aliased, at: JSONPath.appending(alias, to: path()), naming: "time")
        }
    }

    /// A time or duration: a number, not negative, within the duration limit.
    mutating func seconds(_ value: JSONValue, at path: @autoclosure () -> String, naming name: String) -> Double? {
        guard let number = number(value, at: path()) else { return nil }
        if number < 0 {
            report.error("negative \(name) \(JSONText.shortNumber(number)); a \(name) must be 0 or more", at: path(), offset: value.start)
            return nil
        }
        let maxDuration = limits.maxDuration
        if number > maxDuration {
            report.error(
                "the \(name) \(JSONText.shortNumber(number)) s is beyond the \(Self.secondsText(maxDuration)) limit on a pattern's length",
                at: path(), offset: value.start)
            return nil
        }
        return number
    }

    mutating func requiredString(_ fields: JSONFields, _ key: String, in object: JSONValue, at path: @autoclosure () -> String) -> String? {
        guard let value = fields[key] else {
            report.error("missing '\(key)'", at: JSONPath.appending(key, to: path()), offset: object.start)
            return nil
        }
        return string(value, at: JSONPath.appending(key, to: path()))
    }

    mutating func requiredNumber(_ fields: JSONFields, _ key: String, in object: JSONValue, at path: @autoclosure () -> String) -> Double? {
        guard let value = fields[key] else {
            report.error("missing '\(key)'", at: JSONPath.appending(key, to: path()), offset: object.start)
            return nil
        }
        return number(value, at: JSONPath.appending(key, to: path()))
    }

    /// An optional boolean; `null` counts as absent.
    mutating func optionalBool(_ fields: JSONFields, _ key: String, at path: @autoclosure () -> String, valid: inout Bool) -> Bool? {
        guard let value = fields[key], !value.isNull else { return nil }
        guard case .bool(let flag) = value.content else {
            report.error("expected true or false, found \(value.kindDescription)", at: JSONPath.appending(key, to: path()), offset: value.start)
            valid = false
            return nil
        }
        return flag
    }

    mutating func number(_ value: JSONValue, at path: @autoclosure () -> String) -> Double? {
        guard case .number(let number) = value.content else {
            report.error("expected a number, found \(value.kindDescription)", at: path(), offset: value.start)
            return nil
        }
        return number
    }

    mutating func string(_ value: JSONValue, at path: @autoclosure () -> String) -> String? {
        guard case .string(let text) = value.content else {
            report.error("expected a string, found \(value.kindDescription)", at: path(), offset: value.start)
            return nil
        }
        return text
    }

    mutating func clamped(_ value: Double, to range: ClosedRange<Double>, naming name: String, at path: @autoclosure () -> String, offset: Int?) -> Double {
        guard !range.contains(value) else { return value }
        let result = range.clamp(value)
        report.warning(
            "\(name) \(JSONText.shortNumber(value)) is outside \(Self.rangeText(range))", consequence: "; clamped to \(JSONText.shortNumber(result))",
            at: path(), offset: offset)
        return result
    }

    static func rangeText(_ range: ClosedRange<Double>) -> String {
        "\(JSONText.shortNumber(range.lowerBound))...\(JSONText.shortNumber(range.upperBound))"
    }

    static func secondsText(_ value: Double) -> String {
        "\(JSONText.shortNumber(value)) s"
    }
}
