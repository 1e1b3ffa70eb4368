/// A settings file or environment variable that cannot be used, as one line naming where
/// (the file or variable, and the JSON key) and what is wrong.
public struct HapticSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The settings file's path, or the environment variable's name.
    public var source: String
    /// Where in the file, e.g. `categories.impact` or `line 3, column 7`; empty for the whole
    /// file or variable.
    public var location: String
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(source: String, location: String = "", _ message: String) {
        self.source = source
        self.location = location
        self.message = message
    }

    /// `source: location: message`, one line.
    public var description: String {
        ([source] + (location.isEmpty ? [] : [location]) + [message]).joined(separator: ": ")
    }
}
