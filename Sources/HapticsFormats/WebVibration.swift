import FoundationEssentials
import HapticsCore
import HapticsRender

/// A pattern for the Web, two ways:
///
/// - `navigator.vibrate(pattern)` (W3C Vibration API): alternating on/off durations in ms,
///   starting with on. It has no strength: a step vibrates when its amplitude (intensity²) is
///   at least ``onThreshold``. Browsers limit it (Chromium/Blink's `vibration_controller.cc`:
///   at most **99 entries**, each at most **10,000 ms**, longer ones clamped; Firefox's
///   `dom.vibrator.max_vibrate_list_len` 128 and `max_vibrate_ms` 10,000). A pattern that does
///   not fit in 99 entries is cut, and the cut is named.
/// - `gamepad.vibrationActuator.playEffect("dual-rumble", {startDelay, duration,
///   strongMagnitude, weakMagnitude})` (W3C Gamepad extensions): the rumble timeline
///   (`RumbleRenderer`, strong = heavy motor = a·(1−s), weak = a·s), merged into constant
///   segments; Chromium caps one effect at 5,000 ms, so longer segments are split.
public struct WebVibration: Sendable, Hashable {
    /// One `playEffect("dual-rumble", …)` call, played after the previous one finished.
    public struct RumbleEffect: Sendable, Hashable {
        public var startDelay: Int
        public var duration: Int
        public var strongMagnitude: Double
        public var weakMagnitude: Double
    }

    /// Browser limits on `navigator.vibrate`.
    public static let maxEntries = 99
    public static let maxEntryMilliseconds = 10_000
    /// Chromium's cap on one gamepad effect's duration.
    public static let maxEffectMilliseconds = 5_000
    /// Amplitude (intensity²) from which a step counts as vibrating.
    public static let onThreshold = 0.04

    /// `navigator.vibrate` entries: vibrate, pause, vibrate, … in milliseconds.
    public var vibrate: [Int]
    /// `playEffect("dual-rumble", …)` calls, in order.
    public var rumble: [RumbleEffect]

    public init(_ pattern: HapticPattern, notes: inout ConversionNotes) {
        let layers = HapticLayers(pattern: pattern, notes: &notes)
        let steps = AmplitudeSteps(layers).steps
        var entries: [Int] = []
        var on = true
        var weak = 0
        for step in steps {
            let isOn = step.amplitude >= Self.onThreshold
            if step.amplitude > 0 && !isOn { weak += 1 }
            if entries.isEmpty {
                if !isOn { entries.append(0) }  // starts with silence: a zero-length vibration first
                entries.append(step.milliseconds)
                on = isOn
                continue
            }
            if isOn == on {
                entries[entries.count - 1] += step.milliseconds
            } else {
                entries.append(step.milliseconds)
                on = isOn
            }
        }
        if entries.count % 2 == 0, !entries.isEmpty { entries.removeLast() }  // a trailing pause does nothing
        notes.add("on-off", "navigator.vibrate is on/off: strength and sharpness dropped (on from intensity 0.2)")
        if weak > 0 { notes.add("weak", "vibration weaker than intensity 0.2 left out of navigator.vibrate") }
        // Entries above 10 s (browsers would clamp them): 10 s, then a zero-length entry of the
        // other kind, then the rest, so vibration and pauses keep their lengths.
        var split: [Int] = []
        var long = 0
        for value in entries {
            var rest = value
            if rest > Self.maxEntryMilliseconds { long += 1 }
            while rest > Self.maxEntryMilliseconds {
                split += [Self.maxEntryMilliseconds, 0]
                rest -= Self.maxEntryMilliseconds
            }
            split.append(rest)
        }
        if long > 0 {
            notes.add(
                "vibrate-entry", "navigator.vibrate entries longer than 10,000 ms (browsers clamp them) split into 10 s pieces joined by zero-length entries",
                count: long)
        }
        if split.count > Self.maxEntries {
            notes.add(
                "vibrate-limit",
                "navigator.vibrate pattern has \(split.count) entries; browsers take at most \(Self.maxEntries) (Chromium; Firefox 128): cut after \(Self.maxEntries)"
            )
            split = Array(split.prefix(Self.maxEntries))
        }
        vibrate = split

        let frames = RumbleRenderer.timeline(pattern, intervalMilliseconds: 10)
        var effects: [RumbleEffect] = []
        var pendingDelay = 0
        for frame in frames {
            let strong = (Double(frame.strong) / 65535 * 1000).rounded() / 1000
            let weakMagnitude = (Double(frame.weak) / 65535 * 1000).rounded() / 1000
            if strong == 0 && weakMagnitude == 0 {
                pendingDelay += 10
                continue
            }
            if pendingDelay == 0, let last = effects.last, last.strongMagnitude == strong, last.weakMagnitude == weakMagnitude {
                guard last.duration + 10 <= Self.maxEffectMilliseconds else {
                    notes.add("effect-length", "dual-rumble segments longer than Chromium's 5,000 ms per effect split in two")
                    effects.append(RumbleEffect(startDelay: 0, duration: 10, strongMagnitude: strong, weakMagnitude: weakMagnitude))
                    continue
                }
                effects[effects.count - 1].duration += 10
            } else {
                effects.append(RumbleEffect(startDelay: pendingDelay, duration: 10, strongMagnitude: strong, weakMagnitude: weakMagnitude))
                pendingDelay = 0
            }
        }
        rumble = effects
        if !effects.isEmpty { notes.add("rumble", "dual-rumble: 10 ms steps, two motors (strong = heavy, weak = light), no sharpness beyond the split") }
    }

    /// `{"format": "haptics-web", "version": 1, "vibrate": […], "dualRumble": […]}`.
    public func json() -> Data {
        var text = "{\n  \"format\": \"haptics-web\",\n  \"version\": 1,\n"
        text += "  \"vibrate\": [\(vibrate.map(String.init).joined(separator: ", "))],\n"
        text += "  \"dualRumble\": ["
        text += rumble.isEmpty ? "]\n" : "\n" + rumble.map { effectJSON($0, indent: "    ") }.joined(separator: ",\n") + "\n  ]\n"
        return Data((text + "}\n").utf8)
    }

    private func effectJSON(_ e: RumbleEffect, indent: String) -> String {
        "\(indent){ \"startDelay\": \(e.startDelay), \"duration\": \(e.duration), \"strongMagnitude\": \(JSONOutput.number(e.strongMagnitude, digits: 3)), \"weakMagnitude\": \(JSONOutput.number(e.weakMagnitude, digits: 3)) }"
    }

    /// Reads the JSON form back: `navigator.vibrate`'s on/off entries as steps of intensity 1
    /// (it has no strength) and sharpness 0.5; without entries, the dual-rumble effects as
    /// steps of intensity √(the stronger motor) and sharpness the weak motor's share. Every
    /// entry and effect is checked (milliseconds from 0, magnitudes 0…1, 3,600 s in all); every
    /// problem is one line naming the source, the line, the column and the JSON location.
    public static func layers(fromJSON data: Data, source: String = ".web.json", notes: inout ConversionNotes) throws(FormatError) -> HapticLayers {
        do throws(JSONFileError) {
            let root = try FormatJSON.root(data, source: source)
            let format = try root.required("format", meaning: "\"haptics-web\"; not a web vibration file")
            guard case .string("haptics-web") = format.value.content else {
                throw format.error(
                    .inconsistent(key: "format", message: "not a web vibration file (expected \"format\": \"haptics-web\", got \(format.value.shortText))"))
            }
            var intensity: [HapticLayers.Point] = []
            var sharpness: [HapticLayers.Point] = []
            var t = 0.0
            let entries = try root["vibrate"]?.items(of: "milliseconds") ?? []
            for (index, entry) in entries.enumerated() {
                let start = t
                t += try entry.milliseconds() / 1000
                guard t <= FormatJSON.maxSeconds else { throw entry.pastLimit(t) }
                guard index % 2 == 0, t > start else { continue }
                intensity += [.init(start, 1), .init(max(start, t - 0.0001), 1), .init(t, 0)]
            }
            if !entries.isEmpty {
                notes.add("on-off-read", "navigator.vibrate read as full-strength steps of sharpness 0.5 (it has neither)")
                return HapticLayers(intensity: HapticLayers.dropDuplicateTimes(intensity), sharpness: [], transients: [])
            }
            for item in try root["dualRumble"]?.items(of: "effects") ?? [] {
                let effect = try item.object(expected: "an object with startDelay, duration, strongMagnitude and weakMagnitude")
                if let delay = effect["startDelay"] {
                    t += try delay.milliseconds() / 1000
                    guard t <= FormatJSON.maxSeconds else { throw delay.pastLimit(t) }
                }
                let durationField = try effect.required("duration", meaning: "milliseconds")
                let start = t
                t += try durationField.milliseconds() / 1000
                guard t <= FormatJSON.maxSeconds else { throw durationField.pastLimit(t) }
                let strong = try effect.required("strongMagnitude", meaning: "0…1").number(in: 0...1)
                let weak = try effect.required("weakMagnitude", meaning: "0…1").number(in: 0...1)
                guard t > start else { continue }
                let level = max(strong, weak).squareRoot()
                let share = strong + weak > 0 ? weak / (strong + weak) : 0.5
                intensity += [.init(start, level), .init(max(start, t - 0.0001), level), .init(t, 0)]
                sharpness += [.init(start, share), .init(max(start, t - 0.0001), share)]
            }
            if !intensity.isEmpty {
                notes.add("rumble-read", "dual-rumble read as steps: intensity from the stronger motor, sharpness from the weak motor's share")
            }
            return HapticLayers(
                intensity: HapticLayers.dropDuplicateTimes(intensity), sharpness: HapticLayers.dropDuplicateTimes(sharpness), transients: [])
        } catch {
            throw FormatJSON.formatError(error)
        }
    }

    /// An ES module: the data and two functions, `vibrateNAME()` and `rumbleNAME(gamepad)`.
    public func javaScript(name: String) -> String {
        let type = CodeNames.type(name)
        let member = CodeNames.member(name)
        var text = "// Generated by `haptics convert` from \(name).\n"
        text += "// navigator.vibrate: on/off milliseconds (Chromium takes at most 99 entries of 10 s).\n"
        text += "export const \(member)Pattern = [\(vibrate.map(String.init).joined(separator: ", "))];\n\n"
        text += "// Gamepad dual-rumble effects, played one after another.\n"
        text +=
            "export const \(member)Rumble = [\n"
            + rumble.map { e in
                "  { startDelay: \(e.startDelay), duration: \(e.duration), strongMagnitude: \(JSONOutput.number(e.strongMagnitude, digits: 3)), weakMagnitude: \(JSONOutput.number(e.weakMagnitude, digits: 3)) },"
            }.joined(separator: "\n") + (rumble.isEmpty ? "" : "\n") + "];\n\n"
        text += "/** Vibrates the device; false where the browser cannot. */\n"
        text +=
            "export function vibrate\(type)() {\n  return typeof navigator !== \"undefined\" && typeof navigator.vibrate === \"function\"\n    ? navigator.vibrate(\(member)Pattern)\n    : false;\n}\n\n"
        text += "/** Rumbles a gamepad (from navigator.getGamepads()); resolves false without an actuator. */\n"
        text +=
            "export async function rumble\(type)(gamepad) {\n  const actuator = gamepad && gamepad.vibrationActuator;\n  if (!actuator || typeof actuator.playEffect !== \"function\") return false;\n"
        text +=
            "  for (const effect of \(member)Rumble) {\n    const result = await actuator.playEffect(\"dual-rumble\", effect);\n    if (result !== \"complete\") return false;\n  }\n  return true;\n}\n"
        return text
    }
}
