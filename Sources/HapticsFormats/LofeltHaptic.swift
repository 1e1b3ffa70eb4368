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
/// ``pattern(from:notes:)``:
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
    /// Reads a `.haptic` file's JSON into layers.
    public static func layers(from data: Data, source: String = ".haptic", notes: inout ConversionNotes) throws(FormatError) -> (
        HapticLayers, HapticPattern.Metadata
    ) {
        let root = try JSONOutput.parse(data, source: source)
        if let version = root["version"] as? [String: Any], let major = JSONOutput.double(version["major"]), major != 1 {
            throw FormatError("\(source): version \(Int(major)) of the .haptic format is not supported (only 1.x)")
        }
        guard let signals = root["signals"] as? [String: Any],
            let continuous = signals["continuous"] as? [String: Any],
            let envelopes = continuous["envelopes"] as? [String: Any],
            let amplitude = envelopes["amplitude"] as? [Any]
        else {
            throw FormatError("\(source): missing signals.continuous.envelopes.amplitude (not a v1 .haptic clip)")
        }
        var intensity: [HapticLayers.Point] = []
        var transients: [HapticLayers.Transient] = []
        var lastTime = -Double.infinity
        for (index, item) in amplitude.enumerated() {
            guard let point = item as? [String: Any], let time = JSONOutput.double(point["time"]), let a = JSONOutput.double(point["amplitude"]) else {
                throw FormatError("\(source): signals.continuous.envelopes.amplitude[\(index)]: expected an object with numbers 'time' and 'amplitude'")
            }
            guard time >= lastTime else { throw FormatError("\(source): signals.continuous.envelopes.amplitude[\(index)]: time \(time) goes back in time") }
            lastTime = time
            let clamped = (0...1).clamp(a)
            if clamped != a { notes.add("range", "values outside 0…1 clamped") }
            if let emphasis = point["emphasis"] as? [String: Any] {
                let ea = (0...1).clamp(JSONOutput.double(emphasis["amplitude"]) ?? 0)
                let ef = (0...1).clamp(JSONOutput.double(emphasis["frequency"]) ?? 0)
                intensity.append(.init(time, clamped.squareRoot() * (1 - ducking)))
                transients.append(.init(time: time, intensity: ea.squareRoot(), sharpness: ef))
            } else {
                intensity.append(.init(time, clamped.squareRoot()))
            }
        }
        if !transients.isEmpty, intensity.contains(where: { $0.value > 0 }) {
            notes.add("ducking", "continuous layer ducked by 20% at emphasis points (Meta's rule)", count: transients.count)
        }
        var sharpness: [HapticLayers.Point] = []
        if let frequency = envelopes["frequency"] as? [Any] {
            for (index, item) in frequency.enumerated() {
                guard let point = item as? [String: Any], let time = JSONOutput.double(point["time"]), let f = JSONOutput.double(point["frequency"]) else {
                    throw FormatError("\(source): signals.continuous.envelopes.frequency[\(index)]: expected an object with numbers 'time' and 'frequency'")
                }
                sharpness.append(.init(time, (0...1).clamp(f).squareRoot()))
            }
        }
        var metadata = HapticPattern.Metadata()
        if let meta = root["metadata"] as? [String: Any] {
            metadata.project = (meta["project"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            metadata.description = (meta["description"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            if let author = meta["author"] as? String, !author.isEmpty { metadata.other["Author"] = author }
            if let editor = meta["editor"] as? String, !editor.isEmpty { metadata.other["Editor"] = editor }
            if let source = meta["source"] as? String, !source.isEmpty { metadata.other["Source"] = source }
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
}
