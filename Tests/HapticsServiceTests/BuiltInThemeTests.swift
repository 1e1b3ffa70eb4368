import Foundation
import Haptics
import HapticsFormats
import HapticsTestSupport
import Testing

@testable import HapticsService

@Suite("The built-in theme")
struct BuiltInThemeTests {
    /// Every event of feedbackd's event naming spec 0.0.0 (`doc/Event-naming-spec-0.0.0.md`).
    static let namingSpecEvents = [
        "alarm-clock-elapsed", "camera-focus", "camera-shutter", "message-missed-email", "message-missed-instant", "message-missed-sms",
        "message-new-email", "message-new-instant", "message-new-sms", "phone-failure", "phone-hangup", "phone-incoming-call",
        "phone-missed-call", "phone-outgoing-busy", "timeout-completed", "message-sent-instant", "button-pressed", "button-released",
        "bell-terminal", "screen-capture", "theme-demo", "battery-low", "power-unplug-battery-low", "battery-caution", "battery-full",
        "device-added", "key-pressed", "key-released", "message-missed-notification", "message-new-cellbroadcast",
        "notification-missed-generic", "notification-new-generic", "power-plug", "power-unplug", "window-close",
    ]

    static var packageRoot: URL {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }

    @Test("every event of the naming spec plays a preset at full and quiet, nothing at silent")
    func everyEvent() throws {
        let theme = FeedbackTheme.builtIn
        #expect(theme.events == Set(Self.namingSpecEvents))
        for event in Self.namingSpecEvents {
            let quiet = theme.feedbacks(for: event, level: .quiet)
            #expect(quiet.count == 1 && quiet.first?.kind == .pattern && quiet.first?.isHaptic == true, "\(event)")
            #expect(quiet.first?.pattern.map { !$0.events.isEmpty } == true, "\(event) has a pattern")
            #expect(theme.feedbacks(for: event, level: .full).count == 1, "\(event)")
            #expect(theme.feedbacks(for: event, level: .silent).isEmpty, "\(event)")
        }
        #expect(theme.warnings.isEmpty)
    }

    @Test("the compiled-in theme is Themes/default.json, and the README's table lists its mapping")
    func embeddedIsTheFile() throws {
        let file = Self.packageRoot.appendingPathComponent(BuiltInTheme.sourcePath)
        let text = try String(contentsOf: file, encoding: .utf8)
        if ProcessInfo.processInfo.environment["HAPTICS_UPDATE_THEME"] == "1" {
            // As the formatter lays it out: the text indented under the declaration.
            let indented = text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "        " + $0 }.joined(separator: "\n")
            let swift = """
                // Generated from Themes/default.json: edit that file, then
                // `HAPTICS_UPDATE_THEME=1 swift test --skip-build --filter BuiltInTheme` rewrites this one.

                extension BuiltInTheme {
                    /// The text of `Themes/default.json`.
                    static let json = #\"\"\"
                \(indented)
                        \"\"\"#
                }

                """
            try swift.write(
                to: Self.packageRoot.appendingPathComponent("Sources/HapticsService/Theme/BuiltInTheme+JSON.swift"), atomically: true, encoding: .utf8)
        }
        #expect(text == BuiltInTheme.json, "Themes/default.json changed: HAPTICS_UPDATE_THEME=1 swift test --skip-build --filter BuiltInTheme, then build")
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for feedback in BuiltInTheme.document.profiles.flatMap(\.feedbacks) {
            guard case .pattern(.preset(let preset)) = feedback.kind else {
                Issue.record("\(feedback.eventName) is not a preset")
                continue
            }
            #expect(readme.contains("| `\(feedback.eventName)` | `\(preset)` |"), "README's built-in theme table: \(feedback.eventName) → \(preset)")
        }
    }
}
