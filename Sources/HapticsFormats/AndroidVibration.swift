import FoundationEssentials
import HapticsCore

/// A pattern for Android's vibrator, in the three forms its API offers (sources: Android's
/// `VibrationEffect` reference on developer.android.com):
///
/// - **Waveform** — `VibrationEffect.createWaveform(long[] timings, int[] amplitudes, int repeat)`
///   (API 26): steps of constant amplitude, 0 (off) or 1…255, `repeat` −1 for once. Here on a
///   5 ms grid, amplitude = round(255 × intensity²); transients become 20 ms pulses.
/// - **Envelope** — `VibrationEffect.BasicEnvelopeBuilder` (API 36, Android 16):
///   `setInitialSharpness(s)` then `addControlPoint(intensity, sharpness, durationMillis)`,
///   each point reached by a smooth ramp lasting its duration; intensity 0 (off) to 1
///   (perceived strength, like AHAP intensity), sharpness 0…1 mapped onto the device's
///   usable band; effects start at intensity 0 and **must end with intensity 0**. The
///   continuous layer, with times rounded to whole milliseconds.
/// - **Composition** — `VibrationEffect.startComposition().addPrimitive(id, scale, delay,
///   delayType)` (API 30; `DELAY_TYPE_RELATIVE_START_OFFSET` from API 36 makes each delay an
///   offset from the previous primitive's start, so taps keep their times): transients as
///   primitives, `scale` = intensity, chosen by sharpness: THUD (< 0.25), LOW_TICK (< 0.5),
///   CLICK (< 0.75), TICK.
///
/// The JSON form (`.android.json`) holds all three; the Kotlin form (`.kt`) builds them and
/// plays the best one the device supports.
public struct AndroidVibration: Sendable, Hashable {
    /// One `addControlPoint(intensity, sharpness, durationMillis)` call: the values reached,
    /// and how long the ramp to them takes.
    public struct ControlPoint: Sendable, Hashable {
        public var intensity: Double
        public var sharpness: Double
        public var durationMillis: Int
    }

    /// The Composition primitives used for taps (`VibrationEffect.Composition.PRIMITIVE_*`).
    public enum Primitive: String, Sendable, Hashable, CaseIterable {
        case thud = "THUD"
        case lowTick = "LOW_TICK"
        case click = "CLICK"
        case tick = "TICK"

        /// The primitive for a tap's sharpness.
        public init(sharpness: Double) {
            switch sharpness {
            case ..<0.25: self = .thud
            case ..<0.5: self = .lowTick
            case ..<0.75: self = .click
            default: self = .tick
            }
        }

        /// The sharpness a primitive stands for when read back: THUD the lowest (it is the
        /// device's deepest tap), TICK the highest (its crispest), the others their bucket's middle.
        public var sharpness: Double {
            switch self {
            case .thud: return 0
            case .lowTick: return 0.375
            case .click: return 0.625
            case .tick: return 1
            }
        }
    }

    /// One `addPrimitive(primitive, scale, delay, DELAY_TYPE_RELATIVE_START_OFFSET)` call.
    public struct PrimitiveCall: Sendable, Hashable {
        public var primitive: Primitive
        public var scale: Double
        /// Milliseconds after the previous primitive's start (the first: after the effect's start).
        public var delayMillis: Int
    }

    /// `createWaveform` step lengths in milliseconds …
    public var timings: [Int]
    /// … and their amplitudes, 0 (off) or 1…255.
    public var amplitudes: [Int]
    /// `createWaveform`'s `repeat`: −1 plays once.
    public var repeatIndex = -1
    /// `BasicEnvelopeBuilder.setInitialSharpness`.
    public var initialSharpness: Double
    /// The envelope's control points (empty when the pattern has no continuous part).
    public var envelope: [ControlPoint]
    /// The taps as primitives (empty when the pattern has none).
    public var composition: [PrimitiveCall]

    /// Converts a pattern.
    public init(_ pattern: HapticPattern, notes: inout ConversionNotes) {
        self.init(HapticLayers(pattern: pattern, notes: &notes), notes: &notes)
    }

    /// Converts layers.
    public init(_ layers: HapticLayers, notes: inout ConversionNotes) {
        let steps = AmplitudeSteps(layers).steps
        timings = steps.map { $0.milliseconds }
        amplitudes = steps.map { Int(($0.amplitude * 255).rounded()) }
        notes.add("waveform", "createWaveform fallback: 5 ms steps, 255 levels, no sharpness, taps as 20 ms pulses")

        // Envelope: the continuous layer's points, on whole milliseconds. Intensity points
        // keep their order, so a step (two points at one time) stays a step: its second point
        // comes 1 ms later (a ramp is the least the builder can do).
        struct Target {
            var ms: Int
            var intensity: Double?
            var order: Int
        }
        var targets: [Target] = []
        if layers.hasContinuous {
            for (k, point) in layers.intensity.enumerated() { targets.append(Target(ms: Int((point.time * 1000).rounded()), intensity: point.value, order: k)) }
            for point in layers.sharpness { targets.append(Target(ms: Int((point.time * 1000).rounded()), intensity: nil, order: Int.max)) }
        }
        targets.sort { ($0.ms, $0.order) < ($1.ms, $1.order) }
        var envelope: [ControlPoint] = []
        var previous = 0
        initialSharpness = layers.sharpness.first?.value ?? 0.5
        let rounded = layers.hasContinuous && (layers.intensity + layers.sharpness).contains { abs($0.time * 1000 - ($0.time * 1000).rounded()) > 1e-6 }
        var stepped = 0
        var lastIntensity = 0.0
        for target in targets {
            let t = Double(target.ms) / 1000
            let i = target.intensity ?? HapticLayers.value(of: layers.intensity, at: t)
            let s = HapticLayers.value(of: layers.sharpness, at: t, default: 0.5)
            if envelope.isEmpty && target.ms == 0 && previous == 0 {
                // The builder starts at intensity 0: a first point above 0 at 0 ms becomes a 1 ms ramp.
                if i > 0 {
                    envelope.append(ControlPoint(intensity: i, sharpness: s, durationMillis: 1))
                    previous = 1
                    lastIntensity = i
                } else {
                    initialSharpness = s
                }
                continue
            }
            var ms = target.ms
            if ms <= previous {
                guard target.intensity != nil, abs(i - lastIntensity) > 1e-9 else { continue }
                ms = previous + 1
                stepped += 1
            }
            envelope.append(ControlPoint(intensity: i, sharpness: s, durationMillis: ms - previous))
            previous = ms
            lastIntensity = i
        }
        if stepped > 0 { notes.add("steps", "instant steps of the continuous layer became 1 ms ramps (the envelope builder's shortest)", count: stepped) }
        if rounded { notes.add("milliseconds", "envelope times rounded to whole milliseconds") }
        if let last = envelope.last, last.intensity > 0 {
            envelope.append(ControlPoint(intensity: 0, sharpness: last.sharpness, durationMillis: 5))
            notes.add("envelope-end", "envelope ended with a 5 ms fade (Android requires a final intensity of 0)")
        }
        self.envelope = envelope

        var composition: [PrimitiveCall] = []
        var lastStart = 0
        for transient in layers.transients where transient.intensity > 0 {
            let ms = Int((transient.time * 1000).rounded())
            composition.append(PrimitiveCall(primitive: Primitive(sharpness: transient.sharpness), scale: transient.intensity, delayMillis: ms - lastStart))
            lastStart = ms
        }
        if !composition.isEmpty {
            notes.add(
                "primitives", "taps mapped to Composition primitives by sharpness (THUD, LOW_TICK, CLICK, TICK); their feel is the device's",
                count: composition.count)
        }
        self.composition = composition
    }

    // MARK: JSON

    /// The JSON form: `{"format": "haptics-android", "version": 1, "waveform": {…}, "envelope": {…}, "composition": […]}`.
    public func json() -> Data {
        var text = "{\n  \"format\": \"haptics-android\",\n  \"version\": 1,\n"
        text += "  \"waveform\": {\n    \"timings\": [\(timings.map(String.init).joined(separator: ", "))],\n"
        text += "    \"amplitudes\": [\(amplitudes.map(String.init).joined(separator: ", "))],\n"
        text += "    \"repeat\": \(repeatIndex)\n  },\n"
        text += "  \"envelope\": {\n    \"initialSharpness\": \(JSONOutput.number(initialSharpness)),\n    \"controlPoints\": ["
        text +=
            envelope.isEmpty
            ? "]\n  },\n"
            : "\n"
                + envelope.map {
                    "      { \"intensity\": \(JSONOutput.number($0.intensity)), \"sharpness\": \(JSONOutput.number($0.sharpness)), \"durationMillis\": \($0.durationMillis) }"
                }.joined(separator: ",\n") + "\n    ]\n  },\n"
        text += "  \"composition\": ["
        text +=
            composition.isEmpty
            ? "]\n"
            : "\n"
                + composition.map {
                    "    { \"primitive\": \"\($0.primitive.rawValue)\", \"scale\": \(JSONOutput.number($0.scale)), \"delayMillis\": \($0.delayMillis), \"delayType\": \"RELATIVE_START_OFFSET\" }"
                }.joined(separator: ",\n") + "\n  ]\n"
        return Data((text + "}\n").utf8)
    }

    /// Reads the JSON form back: the envelope and composition when present (the richer
    /// forms), otherwise the waveform (intensity = √(amplitude/255), sharpness 0.5). Every
    /// problem is one line naming the source, the line, the column and the JSON location;
    /// values of the wrong kind, negative durations and delays, and times past the 3,600 s
    /// pattern limit are refused.
    public static func layers(fromJSON data: Data, source: String = ".android.json", notes: inout ConversionNotes) throws(FormatError) -> HapticLayers {
        do throws(JSONFileError) {
            return try read(FormatJSON.root(data, source: source), notes: &notes)
        } catch {
            throw FormatJSON.formatError(error)
        }
    }

    private static func read(_ root: JSONObject, notes: inout ConversionNotes) throws(JSONFileError) -> HapticLayers {
        let format = try root.required("format", meaning: "\"haptics-android\"; not an Android vibration file")
        guard case .string("haptics-android") = format.value.content else {
            throw format.error(
                .inconsistent(key: "format", message: "not an Android vibration file (expected \"format\": \"haptics-android\", got \(format.value.shortText))")
            )
        }
        var intensity: [HapticLayers.Point] = []
        var sharpness: [HapticLayers.Point] = []
        var transients: [HapticLayers.Transient] = []
        let envelope = try root["envelope"]?.object(expected: "an object with 'initialSharpness' and 'controlPoints'")
        let points = try envelope?["controlPoints"]?.items(of: "control points") ?? []
        let calls = try root["composition"]?.items(of: "primitives") ?? []
        var clamped = false
        func unit(_ field: JSONField) throws(JSONFileError) -> Double {
            let value = try field.finiteNumber()
            clamped = clamped || !(0...1).contains(value)
            return (0...1).clamp(value)
        }
        if !points.isEmpty || !calls.isEmpty {
            var t = 0.0
            let initial = try envelope?["initialSharpness"].map { field throws(JSONFileError) in try unit(field) } ?? 0.5
            if !points.isEmpty {
                intensity.append(.init(0, 0))
                sharpness.append(.init(0, initial))
            }
            for item in points {
                let point = try item.object(expected: "an object with numbers intensity, sharpness and durationMillis")
                let i = try unit(point.required("intensity", meaning: "0…1"))
                let s = try unit(point.required("sharpness", meaning: "0…1"))
                let duration = try point.required("durationMillis", meaning: "the ramp's length in milliseconds")
                t += try duration.milliseconds() / 1000
                guard t <= FormatJSON.maxSeconds else { throw duration.pastLimit(t) }
                intensity.append(.init(t, i))
                sharpness.append(.init(t, s))
            }
            var start = 0.0
            for item in calls {
                let call = try item.object(expected: "an object with a primitive and a scale")
                let name = try call.required("primitive", meaning: "THUD, LOW_TICK, CLICK or TICK")
                guard case .string(let text) = name.value.content, let primitive = Primitive(rawValue: text) else {
                    throw name.wrongType("THUD, LOW_TICK, CLICK or TICK")
                }
                let scale = try unit(call.required("scale", meaning: "the tap's strength, 0…1"))
                if let delay = call["delayMillis"] {
                    start += try delay.milliseconds() / 1000
                    guard start <= FormatJSON.maxSeconds else { throw delay.pastLimit(start) }
                }
                transients.append(.init(time: start, intensity: scale, sharpness: primitive.sharpness))
            }
            if !transients.isEmpty {
                notes.add("primitives", "primitives read as taps of sharpness 0 (THUD), 0.375 (LOW_TICK), 0.625 (CLICK), 1 (TICK)", count: transients.count)
            }
            if clamped { notes.add("range", "values outside 0…1 clamped") }
            return HapticLayers(intensity: intensity, sharpness: sharpness, transients: transients)
        }
        let waveform = try root.required("waveform", meaning: "no envelope or composition, so a waveform of timings and amplitudes")
            .object(expected: "an object with arrays 'timings' and 'amplitudes'")
        let timings = try waveform.required("timings", meaning: "step lengths in milliseconds").items(of: "milliseconds")
        let amplitudesField = try waveform.required("amplitudes", meaning: "step amplitudes, 0…255")
        let amplitudes = try amplitudesField.items(of: "amplitudes, 0…255")
        guard timings.count == amplitudes.count else {
            throw amplitudesField.error(
                .inconsistent(key: "amplitudes", message: "has \(amplitudes.count) items for \(timings.count) timings; they go in pairs"))
        }
        var t = 0.0
        for (ms, amplitude) in zip(timings, amplitudes) {
            let level = (try amplitude.number(in: 0...255) / 255).squareRoot()
            let stepStart = t
            intensity.append(.init(t, level))
            t += try ms.milliseconds() / 1000
            guard t <= FormatJSON.maxSeconds else { throw ms.pastLimit(t) }
            intensity.append(.init(max(t - 0.0001, stepStart), level))
        }
        intensity.append(.init(t, 0))
        notes.add("waveform-read", "waveform read as steps with sharpness 0.5 (it has none)")
        return HapticLayers(intensity: intensity, sharpness: [], transients: [])
    }

    // MARK: Kotlin

    /// A Kotlin object that builds the three effects and plays the best one the device has.
    public func kotlin(name: String) -> String {
        let type = CodeNames.type(name) + "Haptics"
        func f(_ value: Double) -> String { JSONOutput.number(value) + "f" }
        var lines: [String] = []
        lines.append("// Generated by `haptics convert` from \(name). Android's VibrationEffect, three ways:")
        lines.append("// envelope (API 36) for the continuous part, primitives at exact offsets (API 36) for taps, and")
        lines.append("// a waveform")
        lines.append("// (API 26) for every device. play() picks what the vibrator supports.")
        lines.append("import android.os.Build")
        lines.append("import android.os.VibrationEffect")
        lines.append("import android.os.Vibrator")
        lines.append("import androidx.annotation.RequiresApi")
        lines.append("")
        lines.append("object \(type) {")
        lines.append("    val timings = longArrayOf(\(timings.map(String.init).joined(separator: ", ")))")
        lines.append("    val amplitudes = intArrayOf(\(amplitudes.map(String.init).joined(separator: ", ")))")
        lines.append("")
        lines.append("    fun waveform(): VibrationEffect = VibrationEffect.createWaveform(timings, amplitudes, \(repeatIndex))")
        if !envelope.isEmpty {
            lines.append("")
            lines.append("    @RequiresApi(36)")
            lines.append("    fun envelope(): VibrationEffect = VibrationEffect.BasicEnvelopeBuilder()")
            lines.append("        .setInitialSharpness(\(f(initialSharpness)))")
            for point in envelope {
                lines.append("        .addControlPoint(\(f(point.intensity)), \(f(point.sharpness)), \(point.durationMillis)L)")
            }
            lines.append("        .build()")
        }
        if !composition.isEmpty {
            lines.append("")
            lines.append("    @RequiresApi(36)")
            lines.append("    fun composition(): VibrationEffect = VibrationEffect.startComposition()")
            for call in composition {
                lines.append(
                    "        .addPrimitive(VibrationEffect.Composition.PRIMITIVE_\(call.primitive.rawValue), \(f(call.scale)), \(call.delayMillis), VibrationEffect.Composition.DELAY_TYPE_RELATIVE_START_OFFSET)"
                )
            }
            lines.append("        .compose()")
        }
        lines.append("")
        lines.append("    fun play(vibrator: Vibrator) {")
        lines.append("        if (!vibrator.hasVibrator()) return")
        let primitives = Set(composition.map(\.primitive)).sorted { $0.rawValue < $1.rawValue }
            .map { "VibrationEffect.Composition.PRIMITIVE_\($0.rawValue)" }.joined(separator: ", ")
        switch (envelope.isEmpty, composition.isEmpty) {
        case (false, true):
            lines.append("        if (Build.VERSION.SDK_INT >= 36 && vibrator.areEnvelopeEffectsSupported()) { vibrator.vibrate(envelope()); return }")
        case (true, false):
            lines.append(
                "        if (Build.VERSION.SDK_INT >= 36 && vibrator.areAllPrimitivesSupported(\(primitives))) { vibrator.vibrate(composition()); return }")
        default:
            lines.append("        // Continuous part and taps together: one effect keeps them in time, so the waveform.")
        }
        lines.append("        vibrator.vibrate(waveform())")
        lines.append("    }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Identifiers for generated code from pattern names (`success`, `Boing.ahap`, `my-tap`).
enum CodeNames {
    static func words(_ name: String) -> [String] {
        let file = name.split(separator: "/").last.map(String.init) ?? name
        let stem = file.components(separatedBy: ".").first ?? name
        return stem.split { !$0.isLetter && !$0.isNumber }.map(String.init).filter { !$0.isEmpty }
    }

    /// `UpperCamelCase`, never starting with a digit.
    static func type(_ name: String) -> String {
        let joined = words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = joined.first else { return "Pattern" }
        return first.isNumber ? "P" + joined : joined
    }

    /// `lowerCamelCase`.
    static func member(_ name: String) -> String {
        let type = type(name)
        return type.prefix(1).lowercased() + type.dropFirst()
    }
}
