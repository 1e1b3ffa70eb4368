import FoundationEssentials

/// Reading `Event` elements: type, time, duration, parameters and the sound of AudioCustom events.
extension AHAPPatternReader {
    mutating func readEvent(_ value: JSONValue, at path: @autoclosure () -> String) -> HapticEvent? {
        guard let fields = checkedObject(value, at: path(), allowed: AHAPKey.eventKeys) else { return nil }
        var valid = true

        var kind: HapticEvent.Kind?
        if let typeName = requiredString(fields, AHAPKey.eventType, in: value, at: path()) {
            kind = HapticEvent.Kind(rawValue: typeName)
            if kind == nil {
                let names = HapticEvent.Kind.allCases.map(\.rawValue)
                report.error(
                    "unknown event type '\(JSONText.display(typeName))'; expected one of \(names.joined(separator: ", "))",
                    at: JSONPath.appending(AHAPKey.eventType, to: path()),
                    offset: fields[AHAPKey.eventType]?.start,
                    suggestion: NameSuggestion.best(for: typeName, among: names))
            }
        }
        let time = requiredTime(fields, alias: AHAPKey.eventTime, in: value, at: path())

        var duration: Double? = 0
        if let durationValue = fields[AHAPKey.eventDuration] {
            duration = seconds(durationValue, at: JSONPath.appending(AHAPKey.eventDuration, to: path()), naming: "duration")
        } else if kind == .continuous || kind == .audioContinuous, let kind {
            // Core Haptics refuses a continuous event without a length; it would play nothing.
            report.error(
                "missing 'EventDuration': a \(kind.rawValue) event needs its length in seconds",
                at: JSONPath.appending(AHAPKey.eventDuration, to: path()), offset: value.start)
            duration = nil
        }
        // Reported whether or not the event has errors, so that one run shows every problem.
        if let duration, kind == .continuous || kind == .audioContinuous, duration > CoreHapticsLimits.maxContinuousDuration {
            report.warning(
                "the event lasts \(Self.secondsText(duration)), longer than the \(Self.secondsText(CoreHapticsLimits.maxContinuousDuration)) Core Haptics allows for a continuous event",
                at: JSONPath.appending(AHAPKey.eventDuration, to: path()), offset: fields[AHAPKey.eventDuration]?.start)
        }
        noteTiming(
            time, at: JSONPath.appending(fields[AHAPKey.time] == nil ? AHAPKey.eventTime : AHAPKey.time, to: path()),
            offset: (fields[AHAPKey.time] ?? fields[AHAPKey.eventTime])?.start, naming: "time")
        noteTiming(
            fields[AHAPKey.eventDuration] == nil ? nil : duration, at: JSONPath.appending(AHAPKey.eventDuration, to: path()),
            offset: fields[AHAPKey.eventDuration]?.start, naming: "duration")
        let parameters = readEventParameters(fields[AHAPKey.eventParameters], at: JSONPath.appending(AHAPKey.eventParameters, to: path()))
        let audio = readAudioResource(fields, kind: kind, in: value, at: path(), valid: &valid)
        if let parameters, kind == .continuous || kind == .audioContinuous { warnSilentNoOps(parameters, kind: kind, fields: fields, at: path()) }

        guard let kind, let time, let duration, let parameters, valid else { return nil }
        return HapticEvent(kind, at: time, duration: duration, parameters: parameters, audio: audio)
    }

    /// Warns about parameters that do nothing where they are written, so that an author does not
    /// wait for an effect that never comes: `DecayTime` on a sustained continuous event (the
    /// event holds until its duration; only a non-sustained one decays).
    mutating func warnSilentNoOps(_ parameters: [HapticEvent.Parameter], kind: HapticEvent.Kind?, fields: JSONFields, at path: @autoclosure () -> String) {
        guard let decay = parameters.last(where: { $0.id == .decayTime }), decay.value > 0 else { return }
        let sustained = parameters.last(where: { $0.id == .sustained })
        guard (sustained?.value ?? HapticEvent.ParameterID.sustained.defaultValue) >= 0.5 else { return }
        let why = sustained == nil ? "Sustained is 1 unless set" : "Sustained is 1"
        report.warning(
            "'DecayTime' does nothing on a sustained \(kind?.rawValue ?? "continuous") event (\(why)): it holds until its duration; set 'Sustained' to 0 for it to decay",
            at: JSONPath.appending(AHAPKey.eventParameters, to: path()), offset: fields[AHAPKey.eventParameters]?.start)
    }

    mutating func readEventParameters(_ value: JSONValue?, at path: @autoclosure () -> String) -> [HapticEvent.Parameter]? {
        guard let value else { return [] }
        guard case .array(let entries) = value.content else {
            report.error("expected an array of parameters, found \(value.kindDescription)", at: path(), offset: value.start)
            return nil
        }
        var parameters: [HapticEvent.Parameter] = []
        var valid = true
        for (index, entry) in entries.enumerated() {
            func entryPath() -> String { "\(path())[\(index)]" }
            guard
                let fields = checkedObject(
                    entry, at: entryPath(), allowed: AHAPKey.eventParameterKeys,
                    expecting: "an object with 'ParameterID' and 'ParameterValue'")
            else {
                valid = false
                continue
            }
            let name = requiredString(fields, AHAPKey.parameterID, in: entry, at: entryPath())
            let id = name.flatMap { HapticEvent.ParameterID(rawValue: $0) }
            let rawValue = requiredNumber(fields, AHAPKey.parameterValue, in: entry, at: entryPath())
            guard let name, let rawValue else {
                valid = false
                continue
            }
            guard let id else {
                report.warning(
                    "unknown event parameter '\(JSONText.display(name))'", consequence: " is ignored",
                    at: JSONPath.appending(AHAPKey.parameterID, to: entryPath()),
                    offset: fields[AHAPKey.parameterID]?.start,
                    suggestion: NameSuggestion.best(for: name, among: HapticEvent.ParameterID.allCases.map(\.rawValue)))
                continue
            }
            let value = clamped(
                rawValue, to: id.range, naming: name,
                at: JSONPath.appending(AHAPKey.parameterValue, to: entryPath()),
                offset: fields[AHAPKey.parameterValue]?.start)
            if let earlier = parameters.firstIndex(where: { $0.id == id }) {
                report.warning("'\(name)' is given more than once", consequence: "; the last value is used", at: entryPath(), offset: entry.start)
                parameters.remove(at: earlier)
            }
            parameters.append(HapticEvent.Parameter(id, value))
        }
        return valid ? parameters : nil
    }

    /// The sound of an AudioCustom event; for other kinds, warns about audio keys and returns `nil`.
    mutating func readAudioResource(_ fields: JSONFields, kind: HapticEvent.Kind?, in object: JSONValue, at path: @autoclosure () -> String, valid: inout Bool)
        -> HapticEvent.AudioResource?
    {
        let audioKeys = [AHAPKey.waveformPath, AHAPKey.waveformUsesVolumeEnvelope, AHAPKey.waveformLoopEnabled]
        guard kind == .audioCustom else {
            guard let kind else { return nil }
            // `"EventWaveformPath": null` on haptic events is common in real files and harmless.
            for key in audioKeys {
                if let value = fields[key], !value.isNull {
                    report.warning(
                        "'\(key)' applies only to AudioCustom events, not to a \(kind.rawValue) event", consequence: "; ignored",
                        at: JSONPath.appending(key, to: path()), offset: value.start)
                }
            }
            return nil
        }
        let pathLocation = JSONPath.appending(AHAPKey.waveformPath, to: path())
        guard let pathValue = fields[AHAPKey.waveformPath], !pathValue.isNull else {
            report.error(
                "missing 'EventWaveformPath': an AudioCustom event needs the sound file it plays",
                at: pathLocation, offset: object.start)
            valid = false
            return nil
        }
        let usesEnvelope = optionalBool(fields, AHAPKey.waveformUsesVolumeEnvelope, at: path(), valid: &valid)
        let loops = optionalBool(fields, AHAPKey.waveformLoopEnabled, at: path(), valid: &valid)
        guard let file = string(pathValue, at: pathLocation) else {
            valid = false
            return nil
        }
        guard !file.isEmpty else {
            report.error("'EventWaveformPath' is empty; it must name the sound file to play", at: pathLocation, offset: pathValue.start)
            valid = false
            return nil
        }
        let directory = baseDirectory?.url
        if let directory {
            let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : directory.appendingPathComponent(file)
            if !FileManager.default.fileExists(atPath: url.path) {
                report.warning(
                    "sound file '\(JSONText.display(file))' not found (looked for \(JSONText.display(url.path, maxLength: 200)))",
                    consequence: "; the event is kept and plays no sound",
                    at: pathLocation, offset: pathValue.start)
            }
        }
        return HapticEvent.AudioResource(path: file, usesVolumeEnvelope: usesEnvelope, loopEnabled: loops, directory: directory)
    }
}
