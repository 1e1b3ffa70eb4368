import HapticsCore

extension HapticSettings {
    /// The feedback service's settings (`haptics daemon`), used where feedbackd's GSettings
    /// schema (`org.sigxcpu.feedbackd`) is not installed; the keys are feedbackd's:
    ///
    /// ```json
    /// { "feedback": { "profile": "quiet", "theme": "custom",
    ///                 "applications": { "sm.puri.Phosh": "silent" },
    ///                 "allow-important": ["org.gnome.clocks"], "max-haptic-strength": 0.8 } }
    /// ```
    public struct Feedback: Sendable, Hashable {
        /// The global level, `full`, `quiet` or `silent` (feedbackd's `profile`); nil: `full`.
        public var profile: String?
        /// The feedbackd theme's name (feedbackd's `theme`); nil: `default`.
        public var theme: String?
        /// Levels per application id (feedbackd's per-app `profile`): an app's level can only
        /// lower the global one.
        public var applications: [String: String]
        /// The application ids whose `important` hint may override the global level (feedbackd's
        /// `allow-important`); nil: feedbackd's default list.
        public var allowImportant: [String]?
        /// The strongest haptic magnitude, 0…1 (feedbackd's `max-haptic-strength`); nil: 1.
        public var maxHapticStrength: Double?

        /// Creates feedback service settings; nil and empty values take feedbackd's defaults.
        public init(
            profile: String? = nil, theme: String? = nil, applications: [String: String] = [:], allowImportant: [String]? = nil,
            maxHapticStrength: Double? = nil
        ) {
            self.profile = profile
            self.theme = theme
            self.applications = applications
            self.allowImportant = allowImportant
            self.maxHapticStrength = maxHapticStrength
        }

        /// The settings file's `feedback` object (the file ``HapticSettings/load(environment:)``
        /// reads), with the problem that made it unusable, if any: then the defaults apply.
        public static func load(environment: [String: String] = HapticSettings.environmentVariables) -> (feedback: Feedback, problem: HapticSettingsError?) {
            guard let file = HapticSettings.settingsFile(environment: environment) else { return (Feedback(), nil) }
            do throws(JSONFileError) {
                let json = try JSONFile(contentsOf: file.path, name: file.path, byteLimit: HapticSettings.largestFile)
                let root = try json.rootObject(expected: #"a JSON object, like {"intensity": 0.8}"#)
                guard let field = root["feedback"] else { return (Feedback(), nil) }
                return (try read(field), nil)
            } catch {
                if error.problem == .noSuchFile, !file.isExplicit { return (Feedback(), nil) }
                return (Feedback(), .file(error))
            }
        }

        /// The levels a profile may name.
        static let levels = ["full", "quiet", "silent"]
        /// The keys of the `feedback` object.
        static let keys = ["profile", "theme", "applications", "allow-important", "max-haptic-strength"]

        /// Reads the `feedback` object of a settings file.
        static func read(_ field: JSONField) throws(JSONFileError) -> Feedback {
            let object = try field.object(expected: #"an object of feedback service settings, like {"profile": "quiet"}"#)
            try object.checkKeys(keys, noun: "feedback setting")
            var settings = Feedback()
            func level(_ field: JSONField) throws(JSONFileError) -> String {
                let name = try field.string(maxLength: 16)
                guard levels.contains(name) else {
                    throw field.error(.unknownKey(key: name, suggestion: NameSuggestion.best(for: name, among: levels), known: levels, noun: "profile"))
                }
                return name
            }
            for field in object.fields {
                switch field.key {
                case "profile": settings.profile = try level(field)
                case "theme": settings.theme = try field.string(maxLength: 256)
                case "applications":
                    let apps = try field.object(expected: #"an object of levels by application id, like {"sm.puri.Phosh": "quiet"}"#)
                    for app in apps.fields {
                        guard let id = app.key else { continue }
                        settings.applications[id] = try level(app)
                    }
                case "allow-important":
                    var ids: [String] = []
                    for item in try field.array(count: 0...1000, of: "application ids") { ids.append(try item.string(maxLength: 256)) }
                    settings.allowImportant = ids
                case "max-haptic-strength": settings.maxHapticStrength = try field.number(in: 0...1)
                default: break  // refused by checkKeys
                }
            }
            return settings
        }
    }
}
