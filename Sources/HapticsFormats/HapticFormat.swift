import FoundationEssentials
import HapticsCore
import HapticsRender

/// The file formats `haptics convert` reads and writes, chosen from a file's extension or by
/// name (`--from`/`--to`).
public enum HapticFormat: String, Sendable, CaseIterable {
    /// Apple's AHAP JSON (read and write).
    case ahap
    /// Meta/Lofelt `.haptic` v1 (read and write).
    case haptic
    /// Android's three effects as JSON (`.android.json`; read and write).
    case androidJSON = "android-json"
    /// Android's three effects as a Kotlin object (`.kt`; write).
    case androidKotlin = "android-kotlin"
    /// `navigator.vibrate` and gamepad dual-rumble as JSON (`.web.json`; write).
    case webJSON = "web-json"
    /// The same as an ES module (`.js`; write).
    case webJavaScript = "web-js"
    /// A feedbackd theme (`.feedbackd.json`; write).
    case feedbackd
    /// The rumble motors' timeline, `time_ms,strong,weak` every 10 ms (`.csv`; write).
    case rumbleCSV = "rumble-csv"

    /// The format a path's extension names; nil when it names none. `.json` alone is AHAP.
    public init?(path: String) {
        let name = (path.split(separator: "/").last.map(String.init) ?? path).lowercased()
        if name.hasSuffix(".android.json") {
            self = .androidJSON
        } else if name.hasSuffix(".web.json") {
            self = .webJSON
        } else if name.hasSuffix(".feedbackd.json") {
            self = .feedbackd
        } else if name.hasSuffix(".ahap") || name.hasSuffix(".json") {
            self = .ahap
        } else if name.hasSuffix(".haptic") {
            self = .haptic
        } else if name.hasSuffix(".kt") {
            self = .androidKotlin
        } else if name.hasSuffix(".js") || name.hasSuffix(".mjs") {
            self = .webJavaScript
        } else if name.hasSuffix(".csv") {
            self = .rumbleCSV
        } else {
            return nil
        }
    }

    /// Whether ``read(_:source:baseDirectory:notes:)`` accepts the format.
    public var isReadable: Bool { self == .ahap || self == .haptic || self == .androidJSON || self == .webJSON }

    /// Reads a file's contents as a pattern. AHAP goes through `AHAPDecoder` (lenient);
    /// its warnings are returned as notes of kind `ahap`. The other formats are read under the
    /// same limits (16 MiB, 64 levels, 100,000 elements, 3,600 s), every problem one line
    /// `source:line:column: path: message`.
    public func read(_ data: Data, source: String, baseDirectory: URL? = nil, notes: inout ConversionNotes) throws(FormatError) -> HapticPattern {
        switch self {
        case .ahap:
            do {
                let document = try AHAPDecoder().decode(data, source: source, baseDirectory: baseDirectory)
                for diagnostic in document.diagnostics { notes.add(diagnostic.description, diagnostic.description) }
                return document.pattern
            } catch {
                // Located as the other readers' errors are, when the first error has a place.
                var failure = FormatError(error.description)
                failure.isLocated = (error.errors.first ?? error.diagnostics.first)?.isLocated ?? false
                throw failure
            }
        case .haptic:
            return try LofeltHaptic.pattern(from: data, source: source, notes: &notes)
        case .androidJSON:
            return try AndroidVibration.layers(fromJSON: data, source: source, notes: &notes).pattern()
        case .webJSON:
            return try WebVibration.layers(fromJSON: data, source: source, notes: &notes).pattern()
        default:
            throw FormatError("\(source): \(rawValue) is an output format only (readable: ahap, haptic, android-json, web-json)")
        }
    }

    /// Writes a pattern. `name` names generated code and feedbackd events.
    ///
    /// Whatever is written reads back: JSON output is refused (a ``FormatError`` naming the
    /// limit) when it would pass the readers' limits (16 MiB, 100,000 elements in an array,
    /// 3,600 s), and the formats this toolkit reads are read back before they are returned.
    public func write(_ pattern: HapticPattern, name: String, notes: inout ConversionNotes) throws(FormatError) -> Data {
        let data = try encode(pattern, name: name, notes: &notes)
        try checkReadsBack(data, name: name)
        return data
    }

    /// Refuses output that the toolkit's own readers would refuse.
    private func checkReadsBack(_ data: Data, name: String) throws(FormatError) {
        let isJSON = [.ahap, .haptic, .androidJSON, .webJSON, .feedbackd].contains(self)
        guard isJSON else { return }
        let limit = FormatJSON.limits.maxInputBytes
        guard data.count <= limit else {
            throw FormatError(
                "\(name): cannot be written as \(rawValue): the output would be \(data.count) bytes, more than the \(limit >> 20) MiB the readers accept")
        }
        var notes = ConversionNotes()
        do {
            switch self {
            case .ahap, .haptic, .androidJSON, .webJSON:
                _ = try read(data, source: "\(rawValue) output", notes: &notes)
            default:
                _ = try JSONOutput.parse(data, source: "\(rawValue) output")
            }
        } catch {
            throw FormatError("\(name): cannot be written as \(rawValue): it would not read back (\(error.description))")
        }
    }

    private func encode(_ pattern: HapticPattern, name: String, notes: inout ConversionNotes) throws(FormatError) -> Data {
        switch self {
        case .ahap:
            if pattern.events.contains(where: { $0.kind == .continuous && $0.duration > HapticLayers.maxContinuousDuration }) {
                notes.add("ahap-30s", "continuous events longer than 30 s are kept; Core Haptics refuses them")
            }
            return AHAPEncoder().encode(pattern)
        case .haptic:
            return LofeltHaptic.encode(pattern, notes: &notes)
        case .androidJSON:
            return AndroidVibration(pattern, notes: &notes).json()
        case .androidKotlin:
            return Data(AndroidVibration(pattern, notes: &notes).kotlin(name: name).utf8)
        case .webJSON:
            return WebVibration(pattern, notes: &notes).json()
        case .webJavaScript:
            return Data(WebVibration(pattern, notes: &notes).javaScript(name: name).utf8)
        case .feedbackd:
            let entry = FeedbackdTheme.entry(eventName: CodeNames.words(name).joined(separator: "-").lowercased(), pattern: pattern, notes: &notes)
            return FeedbackdTheme.json(entries: [entry])
        case .rumbleCSV:
            notes.add("rumble", "rumble motors: 10 ms steps, two motors (strong = heavy, weak = light), no sharpness beyond the split")
            var text = "time_ms,strong,weak\n"
            for frame in RumbleRenderer.timeline(pattern) { text += "\(frame.timeMilliseconds),\(frame.strong),\(frame.weak)\n" }
            return Data(text.utf8)
        }
    }
}
