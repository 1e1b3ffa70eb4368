/// One thing a command accepts: a flag, an option with a value, or a positional argument.
///
/// Declared once, as a value: the parser, the help, the shell completions and the man page
/// all read the same declaration, and none of them needs reflection (which made start-up
/// slow: see docs/ARCHITECTURE.md).
struct ArgumentSpec: Sendable {
    enum Kind: Sendable {
        /// `--stats`: present or not.
        case flag
        /// `--device NAME`, `--device=NAME`, `-o FILE`.
        case option
        /// A word in its place: `<pattern>`, `<file> ...`.
        case positional
    }

    var kind: Kind
    /// What the command reads the value by: the long name without dashes, or a positional's
    /// value name.
    var key: String
    /// The one-letter name (`-o`), if any.
    var short: Character?
    /// The value's name in help and messages: `--output <file>`.
    var valueName: String
    var help: String
    /// The help section it is listed under (`Output`); nil lists it under OPTIONS.
    var section: String?
    /// The default the help shows, when leaving the option out means a value worth stating.
    var defaultValue: String?
    /// The only values accepted, when they are a fixed set (an enumeration).
    var choices: [String] = []
    /// A positional that must be given, or an option that must be.
    var isRequired = false
    /// Collects every occurrence (options) or the remaining words (positionals).
    var isRepeating = false
    /// The next word is the value even when it starts with `-`, so `--gain -1` reports the
    /// range rather than a missing value.
    var takesDashedValue = false
    /// For an option whose value may be left out (`--loop`, `--rumble`): what it means bare.
    var optionalValue: OptionalValue?
    var completion: Completion = .none

    /// The value of an option given without one, and which next words are its value rather
    /// than the next argument (`--rumble success` leaves `success` to be the pattern).
    struct OptionalValue: Sendable {
        var bare: String
        var isValue: @Sendable (String) -> Bool
    }

    /// What a shell offers for the value.
    enum Completion: Sendable {
        case none
        /// Files with one of the extensions (any file when empty), and folders.
        case files(extensions: [String])
        /// Computed from the word typed so far: preset names, devices, profiles.
        case custom(@Sendable (_ prefix: String) -> [String])
    }

    /// `--name` (and `-s`): true when given.
    static func flag(_ name: String, short: Character? = nil, help: String) -> ArgumentSpec {
        ArgumentSpec(kind: .flag, key: name, short: short, valueName: "", help: help)
    }

    /// `--name VALUE`.
    static func option(
        _ name: String, short: Character? = nil, valueName: String, help: String, default defaultValue: String? = nil,
        required: Bool = false, repeating: Bool = false, takesDashedValue: Bool = false, optionalValue: OptionalValue? = nil,
        completion: Completion = .none
    ) -> ArgumentSpec {
        ArgumentSpec(
            kind: .option, key: name, short: short, valueName: valueName, help: help, defaultValue: defaultValue,
            isRequired: required, isRepeating: repeating, takesDashedValue: takesDashedValue, optionalValue: optionalValue,
            completion: completion)
    }

    /// `--name VALUE` where VALUE is one of an enumeration's cases.
    static func option<Value: ChoiceArgument>(
        _ name: String, choices: Value.Type, valueName: String, help: String, default defaultValue: Value? = nil
    ) -> ArgumentSpec {
        var spec = option(name, valueName: valueName, help: help, default: defaultValue?.rawValue)
        spec.choices = Value.allCases.map(\.rawValue)
        return spec
    }

    /// A word in its place, required unless `optional`; `repeating` takes all that remain.
    static func positional(
        _ valueName: String, help: String, optional: Bool = false, repeating: Bool = false, completion: Completion = .none
    ) -> ArgumentSpec {
        ArgumentSpec(
            kind: .positional, key: valueName, valueName: valueName, help: help, isRequired: !optional,
            isRepeating: repeating, completion: completion)
    }

    /// `specs`, listed under `title` in the help.
    static func section(_ title: String, _ specs: [ArgumentSpec]) -> [ArgumentSpec] {
        specs.map { spec in
            var copy = spec
            copy.section = title
            return copy
        }
    }

    /// `--output`, `-o`: what the user types.
    var names: [String] {
        guard kind != .positional else { return [] }
        return ["--" + key] + shortNames
    }

    /// `-o`; and for a device or a rate, the letters other tools' users type: `-D` (aplay), `-d`
    /// (paplay), `-r`.
    var shortNames: [String] {
        guard kind != .positional else { return [] }
        return (short.map { ["-\($0)"] } ?? []) + Self.conventionalShortNames(key)
    }

    /// A switch, not a `[String: [String]]`: a dictionary's generic metadata is built at its
    /// first use, and its `Hashable` requirement scans every conformance in the binary (0.1 ms
    /// of every `play`, before it could start loading its device's library).
    private static func conventionalShortNames(_ key: String) -> [String] {
        switch key {
        case "device": ["-D", "-d"]
        case "rate": ["-r"]
        default: []
        }
    }

    /// How messages and the synopsis name it: `--output <file>`, `<file> ...`, `--stats`.
    var synopsis: String {
        switch kind {
        case .flag: "--\(key)"
        case .option: optionalValue == nil ? "--\(key) <\(valueName)>" : "--\(key) [<\(valueName)>]"
        case .positional: "<\(valueName)>" + (isRepeating ? " ..." : "")
        }
    }
}
