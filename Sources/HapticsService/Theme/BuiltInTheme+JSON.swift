// Generated from Themes/default.json: edit that file, then
// `HAPTICS_UPDATE_THEME=1 swift test --skip-build --filter BuiltInTheme` rewrites this one.

extension BuiltInTheme {
    /// The text of `Themes/default.json`.
    static let json = #"""
        {
          "name": "default",
          "profiles": [
            {
              "name": "quiet",
              "feedbacks": [
                { "event-name": "alarm-clock-elapsed", "type": "Pattern", "preset": "start" },
                { "event-name": "camera-focus", "type": "Pattern", "preset": "selection" },
                { "event-name": "camera-shutter", "type": "Pattern", "preset": "rigid" },
                { "event-name": "message-missed-email", "type": "Pattern", "preset": "notification" },
                { "event-name": "message-missed-instant", "type": "Pattern", "preset": "notification" },
                { "event-name": "message-missed-sms", "type": "Pattern", "preset": "notification" },
                { "event-name": "message-new-email", "type": "Pattern", "preset": "notification" },
                { "event-name": "message-new-instant", "type": "Pattern", "preset": "notification" },
                { "event-name": "message-new-sms", "type": "Pattern", "preset": "notification" },
                { "event-name": "phone-failure", "type": "Pattern", "preset": "error" },
                { "event-name": "phone-hangup", "type": "Pattern", "preset": "stop" },
                { "event-name": "phone-incoming-call", "type": "Pattern", "preset": "start" },
                { "event-name": "phone-missed-call", "type": "Pattern", "preset": "warning" },
                { "event-name": "phone-outgoing-busy", "type": "Pattern", "preset": "reject" },
                { "event-name": "timeout-completed", "type": "Pattern", "preset": "success" },
                { "event-name": "message-sent-instant", "type": "Pattern", "preset": "confirm" },
                { "event-name": "button-pressed", "type": "Pattern", "preset": "light" },
                { "event-name": "button-released", "type": "Pattern", "preset": "textureTick" },
                { "event-name": "bell-terminal", "type": "Pattern", "preset": "warning" },
                { "event-name": "screen-capture", "type": "Pattern", "preset": "rigid" },
                { "event-name": "theme-demo", "type": "Pattern", "preset": "pathComplete" },
                { "event-name": "battery-low", "type": "Pattern", "preset": "warning" },
                { "event-name": "power-unplug-battery-low", "type": "Pattern", "preset": "warning" },
                { "event-name": "battery-caution", "type": "Pattern", "preset": "retry" },
                { "event-name": "battery-full", "type": "Pattern", "preset": "success" },
                { "event-name": "device-added", "type": "Pattern", "preset": "confirm" },
                { "event-name": "key-pressed", "type": "Pattern", "preset": "selection" },
                { "event-name": "key-released", "type": "Pattern", "preset": "textureTick" },
                { "event-name": "message-missed-notification", "type": "Pattern", "preset": "notification" },
                { "event-name": "message-new-cellbroadcast", "type": "Pattern", "preset": "error" },
                { "event-name": "notification-missed-generic", "type": "Pattern", "preset": "notification" },
                { "event-name": "notification-new-generic", "type": "Pattern", "preset": "notification" },
                { "event-name": "power-plug", "type": "Pattern", "preset": "increase" },
                { "event-name": "power-unplug", "type": "Pattern", "preset": "decrease" },
                { "event-name": "window-close", "type": "Pattern", "preset": "soft" }
              ]
            }
          ]
        }

        """#
}
