import HapticsCore

/// A settings file or environment variable that cannot be used, as a case to match; its
/// ``description`` is one line naming where (`file:line:column: key`, or the variable) and what
/// is wrong.
public enum HapticSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The settings file cannot be read or is invalid; the error says where and why. The
    /// file's settings were ignored as a whole.
    case file(JSONFileError)
    /// An environment variable holds a value it cannot take (`expected` says what it takes);
    /// the variable was ignored.
    case variable(name: String, value: String, expected: String)

    /// The settings file's path, or the environment variable's name.
    public var source: String {
        switch self {
        case .file(let error): return error.file
        case .variable(let name, _, _): return name
        }
    }

    /// `file:line:column: key: message`, or `VARIABLE: expected …, got '…'; ignored`; one line.
    public var description: String {
        switch self {
        case .file(let error):
            return error.description
        case .variable(let name, let value, let expected):
            return "\(name): expected \(expected), got '\(value)'; ignored"
        }
    }
}
