/// A type an option's value converts to.
protocol ArgumentValue {
    /// The value the word means, or nil if it means none.
    init?(argument: String)
}

extension String: ArgumentValue {
    init?(argument: String) { self = argument }
}

extension Int: ArgumentValue {
    init?(argument: String) { self.init(argument) }
}

extension Double: ArgumentValue {
    init?(argument: String) { self.init(argument) }
}

/// An enumeration whose cases are the only values an option takes (`--format s16|f32`): the
/// parser checks the word against them and the help lists them.
protocol ChoiceArgument: ArgumentValue, CaseIterable, RawRepresentable where RawValue == String {}

extension ChoiceArgument {
    init?(argument: String) { self.init(rawValue: argument) }
}
