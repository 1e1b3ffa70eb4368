import FoundationEssentials
import HapticsCore

/// Meta (formerly Lofelt) `.haptic` clips, data model version 1: JSON with an amplitude
/// envelope whose breakpoints may carry an *emphasis* (a tap), an optional frequency envelope,
/// and metadata.
///
/// ```json
/// { "version": { "major": 1, "minor": 0, "patch": 0 },
///   "metadata": { "editor": "…", "author": "…", "source": "…", "project": "…", "tags": [], "description": "…" },
///   "signals": { "continuous": { "envelopes": {
///       "amplitude": [ { "time": 0, "amplitude": 0.2 },
///                      { "time": 0.1, "amplitude": 0.5, "emphasis": { "amplitude": 0.9, "frequency": 0.7 } } ],
///       "frequency": [ { "time": 0, "frequency": 0.4 } ] } } } }
/// ```
///
/// Source: Meta's open-source haptics SDK (the `datamodel` crate, MIT; its v1 model and its
/// AHAP conversion), learned from and followed here, not copied. Its AHAP rules, applied by
/// ``pattern(from:source:notes:)``:
/// - intensity = √amplitude (amplitude ≈ intensity²), times 0.8 at breakpoints with an
///   emphasis (*ducking*, so the continuous layer does not cancel the tap);
/// - sharpness = √frequency;
/// - each emphasis becomes a transient of intensity √(emphasis amplitude) and sharpness
///   emphasis frequency;
/// - continuous events of intensity 1, sharpness 0 from 0 to the last breakpoint, split at
///   30 s, shaped by curves of at most 16 points.
///
/// Writing (``encode(_:notes:)``) inverts these: amplitude = intensity², frequency =
/// sharpness², each transient an emphasis on a breakpoint at its time (with breakpoints 2 ms
/// either side so the ducking stays local).
public enum LofeltHaptic {
    /// Reads a `.haptic` file's JSON into layers. Every problem is one line naming the source,
    /// the line, the column and the JSON location; times past the 3,600 s pattern limit,
    /// breakpoints that go back in time and values of the wrong kind are refused.
    public static func layers(from data: Data, source: String = ".haptic", notes: inout ConversionNotes) throws(FormatError) -> (
        HapticLayers, HapticPattern.Metadata
    ) {
        do throws(JSONFileError) {
            return try read(FormatJSON.root(data, source: source), notes: &notes)
        } catch {
            throw FormatJSON.formatError(error)
        }
    }

    private static func read(_ root: JSONObject, notes: inout ConversionNotes) throws(JSONFileError) -> (HapticLayers, HapticPattern.Metadata) {
        if let version = root["version"] {
            let major = try version.object(expected: "an object with a number 'major'").required("major", meaning: "the format's major version")
            let number = try major.finiteNumber()
            guard number == 1 else {
                throw major.error(
                    .inconsistent(key: "major", message: "version \(JSONText.shortNumber(number)) of the .haptic format is not supported (only 1.x)"))
            }
        }
        let envelopes = try root.required("signals", meaning: "the clip's signals; not a v1 .haptic clip")
            .object(expected: "an object").required("continuous", meaning: "the continuous signal")
            .object(expected: "an object").required("envelopes", meaning: "the amplitude and frequency envelopes")
            .object(expected: "an object")
        let amplitude = try envelopes.required("amplitude", meaning: "the amplitude envelope").items(of: "breakpoints")
        var intensity: [HapticLayers.Point] = []
        var transients: [HapticLayers.Transient] = []
        intensity.reserveCapacity(amplitude.count)
        var lastTime = 0.0
        var clamped = false
        for item in amplitude {
            let point = try item.object(expected: "an object with numbers 'time' and 'amplitude'")
            let time = try Self.breakpointTime(of: point, after: &lastTime)
            let a = try point.required("amplitude", meaning: "the amplitude, 0…1").finiteNumber()
            let level = (0...1).clamp(a)
            clamped = clamped || level != a
            if let emphasisField = point["emphasis"] {
                let emphasis = try emphasisField.object(expected: "an object with numbers 'amplitude' and 'frequency'")
                let ea = try emphasis.required("amplitude", meaning: "the tap's amplitude, 0…1").finiteNumber()
                let ef = try emphasis.required("frequency", meaning: "the tap's frequency, 0…1").finiteNumber()
                clamped = clamped || !(0...1).contains(ea) || !(0...1).contains(ef)
                intensity.append(.init(time, level.squareRoot() * (1 - ducking)))
                transients.append(.init(time: time, intensity: (0...1).clamp(ea).squareRoot(), sharpness: (0...1).clamp(ef)))
            } else {
                intensity.append(.init(time, level.squareRoot()))
            }
        }
        if !transients.isEmpty, intensity.contains(where: { $0.value > 0 }) {
            notes.add("ducking", "continuous layer ducked by 20% at emphasis points (Meta's rule)", count: transients.count)
        }
        var sharpness: [HapticLayers.Point] = []
        if let frequency = envelopes["frequency"] {
            var lastTime = 0.0
            for item in try frequency.items(of: "breakpoints") {
                let point = try item.object(expected: "an object with numbers 'time' and 'frequency'")
                let time = try Self.breakpointTime(of: point, after: &lastTime)
                let f = try point.required("frequency", meaning: "the frequency, 0…1").finiteNumber()
                clamped = clamped || !(0...1).contains(f)
                sharpness.append(.init(time, (0...1).clamp(f).squareRoot()))
            }
        }
        if clamped { notes.add("range", "values outside 0…1 clamped") }
        var metadata = HapticPattern.Metadata()
        if let metaField = root["metadata"] {
            let meta = try metaField.object(expected: "an object")
            func text(_ key: String) throws(JSONFileError) -> String? {
                guard let field = meta[key], !field.value.isNull else { return nil }
                let value = try field.text()
                return value.isEmpty ? nil : value
            }
            metadata.project = try text("project")
            metadata.description = try text("description")
            if let author = try text("author") { metadata.other["Author"] = author }
            if let editor = try text("editor") { metadata.other["Editor"] = editor }
            if let source = try text("source") { metadata.other["Source"] = source }
        }
        return (HapticLayers(intensity: intensity, sharpness: sharpness, transients: transients), metadata)
    }

    /// Reads a `.haptic` clip as an AHAP pattern (Meta's rules, see the type's documentation).
    public static func pattern(from data: Data, source: String = ".haptic", notes: inout ConversionNotes) throws(FormatError) -> HapticPattern {
        let (layers, metadata) = try layers(from: data, source: source, notes: &notes)
        return layers.pattern(metadata: metadata)
    }

    /// The reduction of the continuous layer's intensity at breakpoints with an emphasis.
    public static let ducking = 0.2

    /// Writes a pattern as a v1 `.haptic` clip.
    public static func encode(_ pattern: HapticPattern, notes: inout ConversionNotes) -> Data {
        let layers = HapticLayers(pattern: pattern, notes: &notes)
        return encode(layers, metadata: pattern.metadata, notes: &notes)
    }

    /// Writes layers as a v1 `.haptic` clip.
    public static func encode(_ layers: HapticLayers, metadata: HapticPattern.Metadata = .init(), notes: inout ConversionNotes) -> Data {
        struct Breakpoint {
            var time: Double
            var amplitude: Double
            var emphasis: (Double, Double)?
        }
        var points = layers.intensity.map { Breakpoint(time: $0.time, amplitude: $0.value * $0.value, emphasis: nil) }
        func amplitude(at time: Double) -> Double {
            let i = HapticLayers.value(of: layers.intensity, at: time)
            return layers.intensity.isEmpty ? 0 : i * i
        }
        // Emphasis points (one per breakpoint: taps less than 1 ms apart keep the stronger),
        // each with breakpoints 2 ms either side; built apart and merged in one sort, so long
        // clips stay linear.
        var merged = 0
        var emphases: [Breakpoint] = []
        for transient in layers.transients {
            let emphasis = (transient.intensity * transient.intensity, transient.sharpness)
            if let last = emphases.last, transient.time - last.time < 0.001 {
                merged += 1
                if let e = last.emphasis, emphasis.0 > e.0 { emphases[emphases.count - 1].emphasis = emphasis }
                continue
            }
            emphases.append(Breakpoint(time: transient.time, amplitude: amplitude(at: transient.time), emphasis: emphasis))
        }
        func key(_ time: Double) -> Int { Int((time * 1e6).rounded()) }
        let emphasisKeys = Set(emphases.map { key($0.time) })
        var taken = Set(points.map { key($0.time) })
        points.removeAll { emphasisKeys.contains(key($0.time)) }
        var sides: [Breakpoint] = []
        for e in emphases {
            for side in [e.time - 0.002, e.time + 0.002] where side >= 0 && !taken.contains(key(side)) && !emphasisKeys.contains(key(side)) {
                taken.insert(key(side))
                sides.append(Breakpoint(time: side, amplitude: amplitude(at: side), emphasis: nil))
            }
        }
        points = (points.enumerated().map { ($0.element, $0.offset) } + (sides + emphases).map { ($0, Int.max) })
            .sorted { ($0.0.time, $0.1) < ($1.0.time, $1.1) }.map(\.0)
        let emphasised = emphases
        if merged > 0 { notes.add("merged-taps", "taps less than 1 ms apart merged into one emphasis (the stronger)", count: merged) }
        if !layers.transients.isEmpty && layers.hasContinuous {
            notes.add("ducking", "continuous layer will be ducked by 20% at emphasis points when played (Meta's rule)", count: emphasised.count)
        }
        if points.isEmpty { points = [Breakpoint(time: 0, amplitude: 0, emphasis: nil)] }
        // The clip must end silent at its last breakpoint so players stop.
        if let last = points.last, last.amplitude > 0 || last.emphasis != nil {
            points.append(Breakpoint(time: last.time + (last.emphasis != nil ? 0.05 : 0.001), amplitude: 0, emphasis: nil))
        }

        var text = "{\n  \"version\": { \"major\": 1, \"minor\": 0, \"patch\": 0 },\n"
        text += "  \"metadata\": {\n"
        text += "    \"editor\": \"haptics convert\",\n"
        text += "    \"author\": \(JSONText.quoted(metadata.other["Author"] ?? "")),\n"
        text += "    \"source\": \(JSONText.quoted(metadata.other["Source"] ?? "")),\n"
        text += "    \"project\": \(JSONText.quoted(metadata.project ?? "")),\n"
        text += "    \"tags\": [],\n"
        text += "    \"description\": \(JSONText.quoted(metadata.description ?? ""))\n  },\n"
        text += "  \"signals\": {\n    \"continuous\": {\n      \"envelopes\": {\n        \"amplitude\": [\n"
        text += points.map { point in
            var line = "          { \"time\": \(JSONOutput.number(point.time, digits: 6)), \"amplitude\": \(JSONOutput.number(point.amplitude))"
            if let (a, f) = point.emphasis {
                line += ", \"emphasis\": { \"amplitude\": \(JSONOutput.number(a)), \"frequency\": \(JSONOutput.number(f)) }"
            }
            return line + " }"
        }.joined(separator: ",\n")
        text += "\n        ]"
        if !layers.sharpness.isEmpty {
            text += ",\n        \"frequency\": [\n"
            text += layers.sharpness.map {
                "          { \"time\": \(JSONOutput.number($0.time, digits: 6)), \"frequency\": \(JSONOutput.number($0.value * $0.value)) }"
            }.joined(separator: ",\n")
            text += "\n        ]"
        }
        text += "\n      }\n    }\n  }\n}\n"
        return Data(text.utf8)
    }

    /// A breakpoint's `time`, which may not go back before the one before it (`lastTime`,
    /// which it then becomes).
    private static func breakpointTime(of point: JSONObject, after lastTime: inout Double) throws(JSONFileError) -> Double {
        let timeField = try point.required("time", meaning: "seconds from the clip's start")
        let time = try timeField.seconds()
        guard time >= lastTime else {
            throw timeField.error(
                .inconsistent(key: "time", message: "goes back in time (the breakpoint before is at \(JSONText.shortNumber(lastTime)) s)"))
        }
        lastTime = time
        return time
    }
}
